package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxErrorBody caps how much of a failed response an error quotes.
const maxErrorBody = 512

// maxReplyBytes caps a chat completion reply; a longer one is an error,
// not a process out of memory.
const maxReplyBytes = 64 << 20

// statusError is a chat endpoint's answer outside 2xx.
type statusError struct {
	URL        string
	StatusCode int
	Body       string
	Header     http.Header
}

func (e *statusError) Error() string {
	return fmt.Sprintf("POST %q: %d %s %s", e.URL, e.StatusCode, http.StatusText(e.StatusCode), e.Body)
}

// completionsURL is base (an OpenAI-compatible /v1 root) joined with the
// chat completions path.
func completionsURL(base string) string {
	return strings.TrimRight(base, "/") + "/chat/completions"
}

// post sends body to the endpoint's chat completions path as it is and
// returns the response body. A plain request, no SDK: linking one costs
// every toolhub process megabytes of start-up pages for a single POST.
func (m *Model) post(ctx context.Context, body []byte) ([]byte, error) {
	return m.postJSON(ctx, m.url, body, maxReplyBytes)
}

// postJSON POSTs a JSON body to url with the endpoint's key and returns the
// response body, at most limit bytes; an answer outside 2xx is a
// *statusError.
func (m *Model) postJSON(ctx context.Context, url string, body []byte, limit int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if m.key != "" {
		req.Header.Set("Authorization", "Bearer "+m.key)
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("read the reply: %w", err)
	}
	if len(raw) > limit {
		return nil, fmt.Errorf("the reply is over %d MiB", limit>>20)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		quoted := bytes.TrimSpace(raw)
		if len(quoted) > maxErrorBody {
			quoted = quoted[:maxErrorBody]
		}
		return nil, &statusError{URL: url, StatusCode: resp.StatusCode, Body: string(quoted), Header: resp.Header}
	}
	return raw, nil
}
