package policies

import "fmt"

// Variant is which of the paper's research evaluations research mode
// follows (protocol §3.4, §3.7). The two released scripts, eval_hle.py and
// eval_frames.py, build the orchestrator's context and the experts'
// prompts differently; the model was evaluated under both.
type Variant string

const (
	// VariantHLE (the default) is eval_hle.py: documents cut to 1,200
	// characters in the orchestrator's context, a 27,000-token budget less
	// the problem's, the top 50 passages per search, all three tools every
	// turn.
	VariantHLE Variant = "hle"
	// VariantFRAMES is eval_frames.py, built for multi-hop questions over
	// a document collection: documents up to 4,000 characters, a flat
	// 24,000-token budget with the code header always written, every
	// expert reading documents in full, a query writer asked to "think
	// hard", queries under 10 characters not run, the top 150 passages per
	// search. Its other difference, search no longer offered once a
	// document exists, is Orchestrator.DropSearchWithDocuments, which the
	// config turns on with this variant.
	VariantFRAMES Variant = "frames"
)

// ParseVariant reads a variant's name; "" is the default (hle).
func ParseVariant(s string) (Variant, error) {
	switch v := Variant(s); v {
	case "":
		return VariantHLE, nil
	case VariantHLE, VariantFRAMES:
		return v, nil
	default:
		return "", fmt.Errorf("research variant %q: want %q or %q", s, VariantHLE, VariantFRAMES)
	}
}

// variantSettings are the numbers and texts in which the two scripts
// differ.
type variantSettings struct {
	docChars  int    // characters of each document in the orchestrator's context
	docSuffix string // written after each (cut or not) document there
	// flatBudget: the context's budget is contextBudget, not
	// contextBudget − tokens(problem), and the code header is written
	// even when there is no code.
	flatBudget    bool
	contextBudget int
	// searchInstruction ends the query writer's prompt; answerLead goes
	// between the answer expert's context and the problem.
	searchInstruction, answerLead string
	minQuery                      int  // characters; a shorter query is not run
	searchTopK                    int  // passages asked of search_documents
	fullDocs                      bool // every expert reads documents in full
	maxExpertTotal                int  // the largest expert total of the script
}

var (
	hleSettings = variantSettings{
		docChars: researchDocChars, docSuffix: " ...", contextBudget: researchContextBudget,
		searchInstruction: searchInstruction, answerLead: "\n\nProblem:\n",
		minQuery: minQueryChars, searchTopK: searchTopK, maxExpertTotal: maxExpertTotal,
	}
	framesSettings = variantSettings{
		docChars: framesDocChars, flatBudget: true, contextBudget: framesContextBudget,
		searchInstruction: framesSearchInstruction, answerLead: "\n\n",
		minQuery: framesMinQueryChars, searchTopK: framesSearchTopK, fullDocs: true,
		maxExpertTotal: framesMaxExpertTotal,
	}
)

// eval_frames.py's numbers and texts.
const (
	framesDocChars          = 4000
	framesContextBudget     = 24000
	framesMinQueryChars     = 10
	framesSearchTopK        = 150
	framesMaxExpertTotal    = 160000 // GPT-5's total there
	framesLlamaCode         = 40000  // Llama-3.3-70B's code budget there (HLE: 10,000)
	framesSearchInstruction = "Instead of directly answering the question, please think hard and write a concise query to search Wikipedia. Wrap the query within <query> and </query>."
)

func (v Variant) settings() variantSettings {
	if v == VariantFRAMES {
		return framesSettings
	}
	return hleSettings
}

// family is an expert family's row as the variant's script has it: FRAMES
// shows every expert the documents in full, gives GPT-5 a total of
// 160,000 tokens and Llama-3.3-70B a code budget of 40,000.
func (v Variant) family(f expertFamily) expertFamily {
	if v != VariantFRAMES {
		return f
	}
	f.docChars = 0
	switch f.name {
	case familyGPT5.name:
		f.total = framesMaxExpertTotal
	case familyLlama.name:
		f.code = framesLlamaCode
	}
	return f
}
