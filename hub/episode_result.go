package hub

import (
	"encoding/json"
	"strings"
)

// ResultText joins the text parts of an MCP tool result, capped to max
// characters (0: no cap). Non-text parts are named, not inlined.
func ResultText(raw json.RawMessage, max int) string {
	parts := ResultTexts(raw)
	text := strings.Join(parts, "\n")
	if max > 0 && len(text) > max {
		cut := max
		for cut > 0 && !isRuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "\n[truncated]"
	}
	return text
}

// ResultTexts returns each content part of an MCP tool result as text.
func ResultTexts(raw json.RawMessage) []string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil
	}
	out := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		if c.Type == "text" {
			out = append(out, c.Text)
		} else {
			out = append(out, "["+c.Type+" content]")
		}
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
