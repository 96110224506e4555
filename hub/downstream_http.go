package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// responseLimit travels in a request's context down to the HTTP round
// tripper, which flags it when the server's answer is over the limit; the
// call then reports a *ResultTooLargeError instead of a decoding error.
type responseLimit struct {
	max      int64
	exceeded atomic.Bool
	size     atomic.Int64 // bytes seen when the limit was crossed
}

type responseLimitKey struct{}

func withResponseLimit(ctx context.Context, l *responseLimit) context.Context {
	return context.WithValue(ctx, responseLimitKey{}, l)
}

func responseLimitFrom(ctx context.Context) *responseLimit {
	l, _ := ctx.Value(responseLimitKey{}).(*responseLimit)
	return l
}

// newCappedHTTPClient returns an HTTP client for remote downstreams whose
// response bodies fail once a single line (a JSON body, or one line of an
// event stream) grows past max bytes. mcp-go reads both without a limit.
func newCappedHTTPClient(max int64) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: &cappedTransport{base: base, max: max}}
}

type cappedTransport struct {
	base http.RoundTripper
	max  int64
}

// CloseIdleConnections closes the base transport's idle connections, so
// that http.Client.CloseIdleConnections reaches them.
func (t *cappedTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (t *cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	keepJSONRPCNotFound(req, resp)
	if err := checkDiscover(req, resp); err != nil {
		return nil, err
	}
	resp.Body = &lineCappedBody{
		body:  resp.Body,
		max:   t.max,
		limit: responseLimitFrom(req.Context()),
	}
	return resp, nil
}

// lineCappedBody fails a read once the current line is longer than max.
type lineCappedBody struct {
	body    io.ReadCloser
	max     int64
	limit   *responseLimit // flagged on overflow; nil for streams nobody waits on
	lineLen int64
	err     error
}

func (b *lineCappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.body.Read(p)
	if over := b.count(p[:n]); over {
		b.err = fmt.Errorf("response line longer than %d bytes: %w", b.max, errResponseTooLarge)
		if b.limit != nil {
			b.limit.size.Store(b.lineLen)
			b.limit.exceeded.Store(true)
		}
		return 0, b.err
	}
	return n, err
}

// count adds chunk to the current line length and reports an overflow.
func (b *lineCappedBody) count(chunk []byte) bool {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			b.lineLen += int64(len(chunk))
			return b.lineLen > b.max
		}
		if b.lineLen+int64(i) > b.max {
			b.lineLen += int64(i)
			return true
		}
		b.lineLen = 0
		chunk = chunk[i+1:]
	}
	return false
}

func (b *lineCappedBody) Close() error { return b.body.Close() }

// keepJSONRPCNotFound lets a 2026-07-28 server's "method not found" reach
// mcp-go as the JSON-RPC error it is. That revision has no sessions, and
// sends the error with HTTP status 404; mcp-go's transport takes any 404 to
// a POST for the end of a session, fails the request with
// ErrSessionTerminated, and refuses every later one. A modern request's 404
// with a JSON body is therefore given status 200, whose body the transport
// decodes.
func keepJSONRPCNotFound(req *http.Request, resp *http.Response) {
	if resp.StatusCode != http.StatusNotFound || req.Method != http.MethodPost ||
		!mcpgo.IsModernProtocol(req.Header.Get(mcpgo.HeaderProtocolVersion)) {
		return
	}
	if !isJSON(resp) {
		return
	}
	resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
}

// checkDiscover turns a server/discover answer that names no supported
// protocol version into the JSON-RPC error it amounts to (see
// namesAVersion); over HTTP, mcp-go would otherwise also never open the GET
// stream such a server sends its notifications on.
func checkDiscover(req *http.Request, resp *http.Response) error {
	if req.Header.Get(mcpgo.HeaderMethod) != string(mcpgo.MethodServerDiscover) || resp.StatusCode != http.StatusOK {
		return nil
	}
	if !isJSON(resp) {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscoverBytes))
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("read server/discover answer: %w", err)
	}
	if len(body) == maxDiscoverBytes { // too long to check; passed on whole
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		return nil
	}
	resp.Body.Close()
	var answer struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &answer) == nil && len(answer.Result) > 0 && !namesAVersion(answer.Result) {
		if len(answer.ID) == 0 {
			answer.ID = json.RawMessage("null")
		}
		body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"server/discover answered without supportedVersions"}}`,
			answer.ID, mcpgo.METHOD_NOT_FOUND)
		resp.Header.Del("Content-Length")
		resp.ContentLength = int64(len(body))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

// maxDiscoverBytes bounds a server/discover answer that is checked.
const maxDiscoverBytes = 1 << 20

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// isJSON reports whether resp's body is a JSON document (not an event
// stream).
func isJSON(resp *http.Response) bool {
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mediaType == "application/json"
}
