package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// ModelOptions tune model calls. The zero value is usable.
type ModelOptions struct {
	// HTTPClient carries the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Timeout bounds one call when the endpoint sets none (default 10 minutes).
	Timeout time.Duration
	// Getenv reads API keys; nil means os.Getenv.
	Getenv func(string) string
}

// Model is one endpoint with its client and measured latency.
type Model struct {
	endpoint ModelEndpoint
	url      string // the chat completions URL
	key      string // bearer token; empty sends none
	http     *http.Client
	timeout  time.Duration
	stats    hub.ToolStats
	roles    roleStats
}

// ModelReply is the raw completion body with what accounting needs.
type ModelReply struct {
	Body      []byte
	Content   string          // choices[0].message.content, for estimates and logs
	ToolCalls json.RawMessage // choices[0].message.tool_calls as sent, if any
	TokensIn  int
	TokensOut int
	Estimated bool // usage was absent: tokens are estimated from text length
	// CostUnknown says the call's price is not known (a Sampling endpoint:
	// the client's own model); a cost computed from the zero prices must
	// be shown as unknown, not as free.
	CostUnknown bool
	Duration    time.Duration
}

// ModelUnreachableError reports a model whose server could not be reached
// at all (connection refused, DNS failure), as opposed to an HTTP error.
type ModelUnreachableError struct {
	Model string
	URL   string
	Err   error
}

func (e *ModelUnreachableError) Error() string {
	return fmt.Sprintf("model %q at %s is unreachable: %v", e.Model, e.URL, e.Err)
}

func (e *ModelUnreachableError) Unwrap() error { return e.Err }

// ModelLoadingError reports a model server that is up but cannot answer
// yet: HTTP 503, as llama.cpp's "Loading model" and vLLM or Ollama while a
// model loads. Waiting, not another request at once, is the cure.
type ModelLoadingError struct {
	Model string
	URL   string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
	Err        error
}

func (e *ModelLoadingError) Error() string {
	return fmt.Sprintf("model %q at %s is not ready (still loading): %v", e.Model, e.URL, e.Err)
}

func (e *ModelLoadingError) Unwrap() error { return e.Err }

func newModel(ep ModelEndpoint, opts ModelOptions) *Model {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := ""
	if ep.APIKeyEnv != "" {
		key = getenv(ep.APIKeyEnv)
	}
	httpClient := opts.HTTPClient
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	timeout := ep.Timeout
	if timeout <= 0 {
		timeout = opts.Timeout
	}
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	// Only the endpoint's own key is sent (no OPENAI_* fallback), so a
	// local endpoint never receives the OpenAI key.
	return &Model{endpoint: ep, url: completionsURL(ep.BaseURL), key: key, http: httpClient, timeout: timeout}
}

// Endpoint returns the configuration.
func (m *Model) Endpoint() ModelEndpoint { return m.endpoint }

// Info returns the configuration with the measured latencies.
func (m *Model) Info() ModelInfo {
	v := m.stats.View()
	return ModelInfo{ModelEndpoint: m.endpoint, Measured: v.Latency, Calls: v.Calls, RoleLatency: m.roles.view()}
}

// Complete posts a chat completion body exactly as given (policies render
// the bytes the model was trained on) and returns the raw response.
// A Sampling endpoint sends the messages to the calling MCP client instead
// (see completeBySampling).
func (m *Model) Complete(ctx context.Context, body []byte) (*ModelReply, error) {
	if m.endpoint.Sampling {
		return m.completeBySampling(ctx, body)
	}
	callCtx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	start := time.Now()
	raw, err := m.post(callCtx, body)
	elapsed := time.Since(start)
	m.stats.Record(elapsed, err != nil)
	if err != nil {
		return nil, m.wrapError(err)
	}
	reply := readReply(raw, len(body))
	reply.Duration = elapsed
	return reply, nil
}

func (m *Model) wrapError(err error) error {
	var apiErr *statusError
	if errors.As(err, &apiErr) {
		if apiErr.StatusCode == http.StatusServiceUnavailable {
			return &ModelLoadingError{Model: m.endpoint.Name, URL: m.endpoint.BaseURL,
				RetryAfter: retryAfter(apiErr.Header), Err: err}
		}
		return fmt.Errorf("model %q: http %d: %w", m.endpoint.Name, apiErr.StatusCode, err)
	}
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &opErr) || errors.As(err, &dnsErr) {
		return &ModelUnreachableError{Model: m.endpoint.Name, URL: m.endpoint.BaseURL, Err: err}
	}
	return fmt.Errorf("model %q: %w", m.endpoint.Name, err)
}

// retryAfter reads a Retry-After of whole seconds; 0 when there is none.
func retryAfter(h http.Header) time.Duration {
	secs, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || secs <= 0 {
		return 0
	}
	return time.Duration(min(secs, 600)) * time.Second
}

// completionUsage is the part of a completion the hub reads itself.
type completionUsage struct {
	Choices []struct {
		Message struct {
			Content          *string         `json:"content"`
			ReasoningContent string          `json:"reasoning_content"`
			ToolCalls        json.RawMessage `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// CharsPerToken is the estimate used when a server sends no usage.
const CharsPerToken = 3

func readReply(raw []byte, requestBytes int) *ModelReply {
	r := &ModelReply{Body: raw}
	var c completionUsage
	_ = json.Unmarshal(raw, &c)
	outChars := 0
	if len(c.Choices) > 0 {
		msg := c.Choices[0].Message
		if msg.Content != nil {
			r.Content = *msg.Content
		}
		outChars = len(r.Content) + len(msg.ReasoningContent) + len(msg.ToolCalls)
		if len(msg.ToolCalls) > 0 && string(msg.ToolCalls) != "null" {
			r.ToolCalls = msg.ToolCalls
		}
	}
	if c.Usage != nil {
		r.TokensIn, r.TokensOut = c.Usage.PromptTokens, c.Usage.CompletionTokens
		return r
	}
	r.Estimated = true
	r.TokensIn = (requestBytes + CharsPerToken - 1) / CharsPerToken
	r.TokensOut = (outChars + CharsPerToken - 1) / CharsPerToken
	return r
}
