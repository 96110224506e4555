package retriever

import "strings"

// splitBlocks divides text into paragraphs separated by blank lines. With
// markdown set, ATX heading lines ("# Title") become blocks of their own
// and fenced code blocks are kept whole, blank lines and all.
func splitBlocks(text string, markdown bool) []block {
	var out []block
	var cur *block
	var fence string
	closeBlock := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start + 1
		}
		line := text[start:end]
		switch {
		case markdown && fence == "" && fenceMarker(line) != "":
			fence = fenceMarker(line)
			cur = extend(cur, start, end)
		case fence != "":
			if fenceMarker(line) != "" && strings.HasPrefix(strings.TrimSpace(line), fence) {
				fence = ""
			}
			cur = extend(cur, start, end)
		case strings.TrimSpace(line) == "":
			closeBlock()
		case markdown && headingLevel(line) > 0:
			closeBlock()
			level, title := parseHeading(line)
			out = append(out, block{start: start, end: end, level: level, heading: title})
		default:
			cur = extend(cur, start, end)
		}
		start = end
	}
	closeBlock()
	return out
}

func extend(b *block, start, end int) *block {
	if b == nil {
		return &block{start: start, end: end}
	}
	b.end = end
	return b
}

// fenceMarker returns "```" or "~~~" when line opens or closes a fenced
// code block.
func fenceMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, m := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	return ""
}

// headingLevel is the level of an ATX heading line, or 0.
func headingLevel(line string) int {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' && t[n] != '\n' && t[n] != '\r' {
		return 0
	}
	return n
}

// parseHeading returns the level and text of an ATX heading line, closing
// hashes removed.
func parseHeading(line string) (int, string) {
	level := headingLevel(line)
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
	if trimmed := strings.TrimRight(t, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") {
		t = strings.TrimSpace(trimmed)
	}
	return level, t
}
