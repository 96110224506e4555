package policies

import (
	"encoding/json"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// Retrieval settings of the reference search tool (protocol §3.7).
const (
	searchTopK = 50 // HLE retrieves the top 50 passages per query
	// webFallbackBelow: the reference falls back to web search when the
	// local retriever keeps fewer than 3 passages.
	webFallbackBelow = 3
	// webSearchResults: that fallback asks the web for 20 results.
	webSearchResults = 20
)

// toolResult is the part of an MCP tool result the evidence is read from:
// the built-in tools put their machine-readable form in structuredContent.
type toolResult struct {
	Structured struct {
		Passages []struct {
			Title string `json:"title"`
			Text  string `json:"text"`
		} `json:"passages"`
		Stdout   *string `json:"stdout"`
		TimedOut bool    `json:"timedOut"`
	} `json:"structuredContent"`
}

// searchDocs turns one search tool result into documents, best first
// (protocol §3.4, §3.7): each passage is its own document and its text is
// the passage's full text, as the reference retrieval server returns each
// hit's "contents". A passage's title leads its text when the text does not
// already carry it, as in the Wikipedia-style corpora the reference indexes
// ("Title\ntext"); the doc is silent on titles, and that is the form the
// model most likely saw. A downstream search tool without structured
// passages gives one document per text part.
//
// The reference server also drops hits of 100 characters or less; that
// filter is not copied, since a short local note may be exactly the answer.
func searchDocs(raw json.RawMessage) []string {
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil || r.Structured.Passages == nil {
		return conductor.ResultTexts(raw)
	}
	docs := make([]string, 0, len(r.Structured.Passages))
	for _, p := range r.Structured.Passages {
		text, title := strings.TrimSpace(p.Text), strings.TrimSpace(p.Title)
		if title != "" && !strings.Contains(firstLine(text), title) {
			text = title + "\n" + text
		}
		if text != "" {
			docs = append(docs, text)
		}
	}
	return docs
}

// codeStdout is what enhance_reasoning keeps of a python run (protocol
// §3.7): standard output only, on success and on error alike, never the
// exit status, the sandbox banner or stderr. A run that timed out keeps
// nothing: the reference's subprocess.run raises on its 60 s timeout and
// the output is lost. A python tool without structured output (not the
// built-in one) gives its text.
func codeStdout(res *hub.CallResult) string {
	var r toolResult
	if err := json.Unmarshal(res.Raw, &r); err == nil && r.Structured.Stdout != nil {
		if r.Structured.TimedOut {
			return ""
		}
		return *r.Structured.Stdout
	}
	if res.IsError {
		return ""
	}
	return conductor.ResultText(res.Raw, 0)
}

// searchArgs are the arguments of a search tool call (protocol §3.7): the
// query, and for a tool whose schema takes them, the reference's counts:
// from the built-in search_documents its top k (searchTopK when k is 0) as
// single passages rather than one hit per file, from web_search its
// fallback's 20 results.
func searchArgs(tool *hub.Tool, query string, k int) json.RawMessage {
	if k <= 0 {
		k = searchTopK
	}
	args := map[string]any{"query": query}
	props := schemaProperties(tool.InputSchema)
	switch tool.Name {
	case ToolSearchDocuments:
		if props["k"] {
			args["k"] = k
		}
		if props["ungrouped"] {
			args["ungrouped"] = true
		}
	case ToolWebSearch:
		if props["max_results"] {
			args["max_results"] = webSearchResults
		}
	}
	return mustRawJSON(args)
}

// codeTimeoutSeconds is the reference's limit on one run of the reasoner's
// code (protocol §3.7: python under a 60 s timeout).
const codeTimeoutSeconds = 60

// codeArgs are the arguments of a python tool call (protocol §3.7): the
// code, and for a tool whose schema takes timeout_seconds (the built-in
// python), the reference's 60 s, or the tool's own maximum when lower.
func codeArgs(tool *hub.Tool, code string) json.RawMessage {
	args := map[string]any{"code": code}
	var s struct {
		Properties map[string]struct {
			Maximum *float64 `json:"maximum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(tool.InputSchema, &s)
	if p, ok := s.Properties["timeout_seconds"]; ok {
		timeout := float64(codeTimeoutSeconds)
		if p.Maximum != nil {
			timeout = min(timeout, *p.Maximum)
		}
		args["timeout_seconds"] = timeout
	}
	return mustRawJSON(args)
}

// schemaProperties names the properties of a JSON object schema.
func schemaProperties(schema json.RawMessage) map[string]bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	names := make(map[string]bool, len(s.Properties))
	for n := range s.Properties {
		names[n] = true
	}
	return names
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
