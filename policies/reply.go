package policies

import (
	"encoding/json"
	"strings"
)

// Where a candidate call was found.
const (
	SourceToolCalls = "tool_calls"        // the server's parsed tool_calls
	SourceReasoning = "reasoning_content" // a <tool_call> block in the think field
	SourceContent   = "content"           // a <tool_call> block in the text
)

// Candidate is one tool call the model wrote, parsed on its own. Either Err
// is nil, Name is set and Arguments is a compact JSON object, or Err says
// what is wrong (Name may still be set when it could be read).
type Candidate struct {
	Source    string
	ID        string // from tool_calls; empty for text blocks
	Name      string
	Arguments json.RawMessage
	Raw       string // the arguments or block text as received
	Err       error
}

// MaxCandidates bounds the calls read from one reply; a model that loops on
// <tool_call> must not flood the trace.
const MaxCandidates = 64

// ParsedReply is an orchestrator reply taken apart.
type ParsedReply struct {
	Candidates []Candidate
	Unread     int    // calls past MaxCandidates, not parsed
	Think      string // reasoning_content and <think> text of content
	Content    string // content after the last </think>, <tool_call> blocks removed, trimmed
	Message    string // tool mode: the inside of <message>…</message> when present, else Content
}

// ParseReply reads an orchestrator reply. Candidates come from tool_calls
// when the server parsed any; otherwise (hub rule) from every
// <tool_call>…</tool_call> block, and a trailing unclosed one, of
// reasoning_content and then content, in the order the model wrote them,
// each block parsed on its own so one bad block does not void the others.
func ParseReply(msg Message) ParsedReply {
	var r ParsedReply
	if len(msg.ToolCalls) > 0 {
		for _, tc := range msg.ToolCalls {
			r.add(func() Candidate { return candidateFromToolCall(tc) })
		}
	} else {
		r.addBlocks(msg.ReasoningContent, SourceReasoning)
		r.addBlocks(msg.Content, SourceContent)
	}
	r.Think = thinkText(msg)
	r.Content = strings.TrimSpace(removeBlocks(afterThink(msg.Content)))
	r.Message = r.Content
	if inner, ok := lastTagged(r.Content, "<message>", "</message>"); ok {
		r.Message = strings.TrimSpace(inner)
	}
	return r
}

// candidateFromToolCall checks one parsed tool call.
func candidateFromToolCall(tc ToolCall) Candidate {
	c := Candidate{Source: SourceToolCalls, ID: tc.ID, Name: tc.Function.Name, Raw: string(tc.Function.Arguments)}
	args, err := parseArguments(c.Raw)
	switch {
	case err != nil:
		c.Err = err
	case c.Name == "":
		c.Err = errMissingName
	default:
		c.Arguments = args
	}
	return c
}

// add appends a candidate, or counts it as unread past MaxCandidates.
func (r *ParsedReply) add(parse func() Candidate) {
	if len(r.Candidates) == MaxCandidates {
		r.Unread++
		return
	}
	r.Candidates = append(r.Candidates, parse())
}

// addBlocks adds each <tool_call> block of text as a candidate.
func (r *ParsedReply) addBlocks(text, source string) {
	for _, block := range toolCallBlocks(text) {
		r.add(func() Candidate {
			c := parseBlock(block)
			c.Source = source
			return c
		})
	}
}

const (
	openCall  = "<tool_call>"
	closeCall = "</tool_call>"
)

// toolCallBlocks returns the body of each <tool_call> block. A block ends at
// its </tool_call>, at the next <tool_call> when unclosed, or at the end of
// the text.
func toolCallBlocks(text string) []string {
	var blocks []string
	for {
		i := strings.Index(text, openCall)
		if i < 0 {
			return blocks
		}
		text = text[i+len(openCall):]
		end, next := blockEnd(text)
		blocks = append(blocks, text[:end])
		text = text[next:]
	}
}

// blockEnd returns where a block body ends and where scanning resumes.
func blockEnd(body string) (end, next int) {
	at, closing, found := nextMarker(body)
	switch {
	case !found:
		return len(body), len(body)
	case closing:
		return at, at + len(closeCall)
	default:
		return at, at
	}
}

// nextMarker finds the first <tool_call> or </tool_call> in s with one scan,
// so that parsing stays linear in the reply's length.
func nextMarker(s string) (at int, closing, found bool) {
	const tail = "tool_call>"
	for from := 0; ; {
		i := strings.Index(s[from:], tail)
		if i < 0 {
			return 0, false, false
		}
		i += from
		switch {
		case i >= 2 && s[i-2:i] == "</":
			return i - 2, true, true
		case i >= 1 && s[i-1] == '<':
			return i - 1, false, true
		}
		from = i + len(tail)
	}
}

// removeBlocks deletes the <tool_call> blocks from text, keeping the rest.
func removeBlocks(text string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, openCall)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		text = text[i+len(openCall):]
		_, next := blockEnd(text)
		text = text[next:]
	}
}

// thinkText gathers the think text: the reasoning field, then whatever
// content holds before its last </think> (or all of it when a <think> was
// never closed).
func thinkText(msg Message) string {
	parts := []string{strings.TrimSpace(msg.ReasoningContent)}
	head := msg.Content
	if i := strings.LastIndex(head, "</think>"); i >= 0 {
		head = head[:i]
	} else if !strings.HasPrefix(strings.TrimSpace(head), "<think>") {
		head = ""
	}
	head = strings.NewReplacer("<think>", "", "</think>", "").Replace(head)
	parts = append(parts, strings.TrimSpace(head))
	return strings.TrimSpace(strings.Join(parts, "\n"))
}
