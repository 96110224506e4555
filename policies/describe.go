package policies

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Table headers as the model was trained on them. The research tools use
// tableIntro; call_expert uses expertTableIntro.
const (
	tableIntro       = "The table below shows the pricing and latency:"
	expertTableIntro = "The table below shows the pricing and latency of each model:"
	tableHeader      = "Model | price per million input tokens | price per million output tokens | average latency"
)

// describeAliases renders an alias argument's description: the role
// sentence, the Choices list, one capability sentence per alias, naming
// it (capabilitySentence), and the price and latency table, e.g.
//
//	The model used to reason. Choices: ['reasoner-1']. reasoner-1 can reason over the context. The table below shows the pricing and latency:
//	Model | price per million input tokens | price per million output tokens | average latency
//	reasoner-1 | $1.25 | $10 | 31s
func describeAliases(roleSentence, intro string, aliases []Alias) string {
	var b strings.Builder
	b.WriteString(roleSentence)
	b.WriteString(" Choices: ")
	b.WriteString(pythonList(aliasNames(aliases)))
	b.WriteString(".")
	for _, a := range aliases {
		if c := capabilitySentence(a.Name, a.Capability); c != "" {
			b.WriteString(" ")
			b.WriteString(c)
		}
	}
	b.WriteString(" ")
	b.WriteString(intro)
	b.WriteString("\n")
	b.WriteString(tableHeader)
	for _, a := range aliases {
		b.WriteString("\n")
		b.WriteString(a.Name + " | " + FormatPrice(a.PriceIn) + " | " + FormatPrice(a.PriceOut) + " | " + FormatLatency(a.Latency))
	}
	return b.String()
}

// FormatPrice renders a price as in the training tables: "$1.25", "$10",
// "$0.2" (shortest decimal form, no trailing zeros; sub-cent prices keep
// their digits, "$0.005").
func FormatPrice(usdPerMillion float64) string {
	return "$" + strconv.FormatFloat(usdPerMillion, 'f', -1, 64)
}

// FormatLatency renders a latency as whole seconds, "22s". A positive
// latency under half a second shows as "1s" so that it never reads as free.
func FormatLatency(d time.Duration) string {
	secs := int64(math.Round(d.Seconds()))
	if secs == 0 && d > 0 {
		secs = 1
	}
	return strconv.FormatInt(secs, 10) + "s"
}

func aliasNames(aliases []Alias) []string {
	names := make([]string, len(aliases))
	for i, a := range aliases {
		names[i] = a.Name
	}
	return names
}

// pythonList renders names the way Python prints a list of strings:
// ['search-1', 'search-2'].
func pythonList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(n, `\`, `\\`), "'", `\'`) + "'"
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// stringParam is a one-property object schema in the key order of the
// training tools.json: properties, required, title, type.
type stringParam struct {
	Properties map[string]paramProperty `json:"properties"`
	Required   []string                 `json:"required"`
	Title      string                   `json:"title"`
	Type       string                   `json:"type"`
}

type paramProperty struct {
	Description string `json:"description"`
	Title       string `json:"title,omitempty"`
	Type        string `json:"type"`
}

// oneStringParam is the parameters schema of the alias tools and call_expert.
func oneStringParam(name, title, description string) json.RawMessage {
	return mustRawJSON(stringParam{
		Properties: map[string]paramProperty{name: {Description: description, Title: title, Type: "string"}},
		Required:   []string{name},
		Title:      "parameters",
		Type:       "object",
	})
}

func functionTool(name, description string, parameters json.RawMessage) Tool {
	return Tool{Type: "function", Function: FunctionDef{Name: name, Description: description, Parameters: parameters}}
}
