package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A roots/list input request goes out with empty params.
//
// roots/list takes no parameters, and mcp-go encodes its input request as
// {"method":"roots/list"}. The specification allows either form, but the
// official Go SDK's client (v1.8.0) cannot decode one without params, and
// its own servers send "params":{}; so toolhub sends that form too, to
// every client.
var (
	bareRootsList   = []byte(`{"method":"roots/list"}`)
	rootsListParams = []byte(`{"method":"roots/list","params":{}}`)
	inputRequired   = []byte(`"resultType":"input_required"`)
)

// withRootsParams is p, an encoded JSON-RPC message (or a server-sent event
// carrying one), with empty params added to the roots/list input requests
// of an InputRequiredResult. A quote inside a JSON string is escaped, so
// the bare form only ever matches a JSON object of its own.
func withRootsParams(p []byte) []byte {
	if !bytes.Contains(p, bareRootsList) || !bytes.Contains(p, inputRequired) {
		return p
	}
	return bytes.ReplaceAll(p, bareRootsList, rootsListParams)
}

// inputRequestWire encodes one input request as withRootsParams sends it;
// false when mcp-go cannot encode it (it is not sent).
func inputRequestWire(req mcpgo.InputRequest) (json.RawMessage, bool) {
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, false
	}
	if bytes.Equal(raw, bareRootsList) {
		raw = rootsListParams
	}
	return raw, true
}

// rootsParams gives the responses of HTTP requests the same form. mcp-go
// writes each response, and each event of a stream, in one Write. A request
// whose Mcp-Protocol-Version header names an older version never gets an
// InputRequiredResult and passes unwrapped.
func rootsParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get(mcpgo.HeaderProtocolVersion)
		if r.Method != http.MethodPost || (v != "" && !mcpgo.IsModernProtocol(v)) {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&rootsParamsWriter{ResponseWriter: w}, r)
	})
}

type rootsParamsWriter struct {
	http.ResponseWriter
}

func (w *rootsParamsWriter) Write(p []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(withRootsParams(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *rootsParamsWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *rootsParamsWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
