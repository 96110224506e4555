package policies

import (
	"strings"
	"unicode/utf8"

	"github.com/toolhub/toolhub/hub"
)

// Tool-mode policy texts: toolhub's own <policy> (protocol §4, hub rule:
// what the offered tools are for and the privacy rules in force), written
// in the form of the τ² domain policies the model was trained under: a
// "#" title, a paragraph on the agent's scope, then "##" sections of
// "- " rules.
const (
	policyTitle = "# Tool hub agent policy"
	policyScope = "As a tool hub agent, you help the user of this machine by calling the tools listed below and " +
		"answering from their results. Use only these tools and the information they return or the user gives; " +
		"do not make up information, tool results or procedures. Make one tool call at a time when a call " +
		"depends on the result of another."
	policyNoTools = "No tools are available: answer from what the user gives you."
	// privacyLocalOnly, privacyPreferLocal and privacyAny are the rules of
	// each privacy setting.
	privacyLocalOnly = "The user's data is confidential and must stay on this machine: every tool offered runs " +
		"locally. Do not pass the user's data to anything that would send it elsewhere."
	privacyPreferLocal = "Keep the user's data on this machine where you can: prefer the local tools, and use a " +
		"remote tool only when no local one can do the job, sending it only what the request needs."
	privacyAny = "Remote tools send their arguments off this machine: send them only what the request needs."
	// maxPolicyPurpose caps the purpose shown per tool: the full
	// description is in the tool's schema.
	maxPolicyPurpose = 200
)

// ToolModePolicy renders toolhub's <policy> text for tool mode (protocol
// §4): what each offered tool is for (the first sentence of its
// description) and where it runs, then the privacy rule in force. It is the
// text the orchestrator reads before the expert paragraph and the one an
// expert reads alone after call_expert. An empty privacy reads as "any".
func ToolModePolicy(tools []ToolSpec, privacy Privacy) string {
	var b strings.Builder
	b.WriteString(policyTitle + "\n\n" + policyScope + "\n\n## Tools\n\n")
	listed := 0
	for _, t := range tools {
		if isTransferTool(t.Name) {
			continue
		}
		listed++
		b.WriteString("- " + t.Name + " (" + localityWord(t.Locality) + ")")
		if p := toolPurpose(t.Description); p != "" {
			b.WriteString(": " + p)
		}
		b.WriteString("\n")
	}
	if listed == 0 {
		b.WriteString(policyNoTools + "\n")
	}
	b.WriteString("\n## Privacy\n\n- " + privacyRule(privacy))
	return b.String()
}

// privacyRule is the <policy> rule of a privacy setting (protocol §4, §5).
func privacyRule(p Privacy) string {
	switch p {
	case PrivacyLocalOnly:
		return privacyLocalOnly
	case PrivacyPreferLocal:
		return privacyPreferLocal
	}
	return privacyAny
}

// localityWord says where a listed tool runs (protocol §4).
func localityWord(l hub.Locality) string {
	if l == hub.LocalityLocal {
		return "local"
	}
	return "remote"
}

// toolPurpose is what a tool is for in the <policy> (protocol §4): the
// first sentence of its description on one line, cut to maxPolicyPurpose
// characters.
func toolPurpose(desc string) string {
	s := strings.Join(strings.Fields(desc), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if utf8.RuneCountInString(s) > maxPolicyPurpose {
		s = strings.TrimSpace(firstRunes(s, maxPolicyPurpose-1)) + "…"
	}
	return s
}
