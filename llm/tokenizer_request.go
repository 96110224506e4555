package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// tokenizeShape is the /tokenize request a server understood.
type tokenizeShape int

const (
	shapeUnknown tokenizeShape = iota // not asked yet
	shapeVLLM                         // {"model", "prompt", "add_special_tokens"} → {"count", "tokens"}
	shapeLlama                        // {"content", "add_special"} → {"tokens"}
	shapeNone                         // the server has no /tokenize
)

func (s tokenizeShape) String() string {
	switch s {
	case shapeVLLM:
		return "vllm"
	case shapeLlama:
		return "llama-server"
	case shapeNone:
		return "none"
	}
	return "unknown"
}

// errNoTokenizer says the server answered, but no request shape toolhub
// knows is served at /tokenize (Ollama, a hosted API).
var errNoTokenizer = errors.New("no /tokenize in a known request shape")

// maxTokenizeReply caps a /tokenize answer: a token id list of a long
// prompt, a few MiB at most.
const maxTokenizeReply = 32 << 20

// tokenizeReply is both servers' answer: vLLM's count, and the token list
// both send (ids, or llama-server's {id, piece} objects).
type tokenizeReply struct {
	Count  *int              `json:"count"`
	Tokens []json.RawMessage `json:"tokens"`
}

// tokenize counts text's tokens at url in shape, or finds the shape the
// server understands when it is not known yet: vLLM's, then
// llama-server's. Special tokens are not added: a cut counts the text
// alone.
func (m *Model) tokenize(ctx context.Context, url, text string, shape tokenizeShape) (int, tokenizeShape, error) {
	if shape != shapeUnknown {
		n, err := m.tokenizeAs(ctx, url, text, shape)
		if errors.Is(err, errNoTokenizer) {
			// The server counted in this shape before: a refusal now is
			// about this text or a passing state, not a missing endpoint.
			err = fmt.Errorf("tokenize in the %s shape that worked before: %s", shape, err.Error())
		}
		return n, shape, err
	}
	n, err := m.tokenizeAs(ctx, url, text, shapeVLLM)
	if !errors.Is(err, errNoTokenizer) {
		return n, shapeVLLM, err // counted, or a failure that may pass
	}
	n, llamaErr := m.tokenizeAs(ctx, url, text, shapeLlama)
	switch {
	case llamaErr == nil:
		return n, shapeLlama, nil
	case errors.Is(llamaErr, errNoTokenizer):
		return 0, shapeNone, err
	}
	return 0, shapeUnknown, llamaErr
}

// tokenizeAs sends one request in shape. An answer of a kind that shape
// does not explain (a 404, a 400 for the fields, a body without the count)
// is errNoTokenizer; a failure that may pass is any other error.
func (m *Model) tokenizeAs(ctx context.Context, url, text string, shape tokenizeShape) (int, error) {
	var body any
	if shape == shapeVLLM {
		body = map[string]any{"model": m.endpoint.ModelID, "prompt": text, "add_special_tokens": false}
	} else {
		body = map[string]any{"content": text, "add_special": false}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, fmt.Errorf("encode the tokenize request: %w", err)
	}
	answer, err := m.postJSON(ctx, url, raw, maxTokenizeReply)
	var status *statusError
	switch {
	case errors.As(err, &status) && status.StatusCode != http.StatusRequestTimeout &&
		status.StatusCode != http.StatusTooManyRequests && status.StatusCode < 500:
		return 0, fmt.Errorf("%w: %s answered http %d", errNoTokenizer, shape, status.StatusCode)
	case errors.As(err, &status):
		return 0, fmt.Errorf("tokenize: http %d", status.StatusCode)
	case err != nil:
		return 0, err
	}
	return readTokenizeReply(answer, shape)
}

// readTokenizeReply reads the count from an answer in shape.
func readTokenizeReply(answer []byte, shape tokenizeShape) (int, error) {
	var r tokenizeReply
	if err := json.Unmarshal(answer, &r); err != nil {
		return 0, fmt.Errorf("%w: %s answer is not JSON: %w", errNoTokenizer, shape, err)
	}
	switch {
	case shape == shapeVLLM && r.Count != nil && *r.Count >= 0:
		return *r.Count, nil
	case shape == shapeLlama && r.Tokens != nil:
		return len(r.Tokens), nil
	}
	return 0, fmt.Errorf("%w: the %s answer has no count", errNoTokenizer, shape)
}
