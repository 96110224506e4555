package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// acceptModernWithoutMeta serves what a current client sends on the
// 2026-07-28 era without the protocol version in params._meta, which mcp-go
// refuses with 400 once the Mcp-Protocol-Version header names that era:
//
//   - a notification (notifications/cancelled above all) gets the version
//     from the header written into its _meta and goes on to mcp-go, which
//     accepts it with 202 and cancels the call a cancellation names when it
//     is still in flight;
//   - ping is answered with an empty result;
//   - logging/setLevel with a known level is answered with an empty result.
//     A 2026-07-28 request names its log level in its own _meta (see
//     logLevels.wants), so there is no level to keep.
//
// Everything else, and every request of an older era, passes on unchanged.
func acceptModernWithoutMeta(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		version := r.Header.Get(mcpgo.HeaderProtocolVersion)
		body := readBody(r) // read once, by limitBody
		if r.Method != http.MethodPost || !mcpgo.IsModernProtocol(version) || metaVersion(body) != "" {
			next.ServeHTTP(w, r)
			return
		}
		msg, ok := parseEraMessage(body)
		switch {
		case !ok:
			next.ServeHTTP(w, r)
		case msg.isNotification():
			next.ServeHTTP(w, withMetaVersion(r, body, version))
		case msg.Method == string(mcpgo.MethodPing):
			writeEmptyResult(w, msg.ID)
		case msg.Method == string(mcpgo.MethodSetLogLevel):
			answerSetLevel(w, msg)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// eraMessage is the part of a JSON-RPC message acceptModernWithoutMeta
// looks at.
type eraMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func parseEraMessage(body []byte) (eraMessage, bool) {
	var msg eraMessage
	if len(body) == 0 || json.Unmarshal(body, &msg) != nil || msg.Method == "" {
		return eraMessage{}, false
	}
	return msg, true
}

func (m eraMessage) hasID() bool {
	return len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null"))
}

func (m eraMessage) isNotification() bool {
	return !m.hasID() && strings.HasPrefix(m.Method, "notifications/")
}

// metaVersion is the protocol version body names in params._meta; "" for
// none, or when body is not JSON. Every 2026-07-28 request passes here,
// and decoding its whole body cost a tenth of such a call's CPU time, so
// the version is looked up in place (gjson) and the body decoded only when
// that finds none but the body mentions one: encoding/json, which mcp-go
// decodes with, also takes "Params" or "_META" for the field names. A
// version that is not a string names none, as Meta.ProtocolVersion reads
// it.
func metaVersion(body []byte) string {
	if len(body) == 0 || !gjson.ValidBytes(body) {
		return ""
	}
	if v := gjson.GetBytes(body, metaVersionPath); v.Exists() || !bytes.Contains(body, metaVersionKey) {
		if v.Type != gjson.String {
			return ""
		}
		return v.Str
	}
	var msg struct {
		Params struct {
			Meta *mcpgo.Meta `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return ""
	}
	return msg.Params.Meta.ProtocolVersion()
}

// metaVersionKey is the last part of the protocol version's _meta key,
// which every body naming the version contains, unless it writes the
// key's letters as \u escapes. Such a body, and one that repeats a key on
// the way (gjson reads the first, encoding/json the last), may be misread;
// mcp-go still reads the body itself before it answers.
var metaVersionKey = []byte("protocolVersion")

// metaVersionPath is where gjson reads and sjson writes the protocol
// version: the dots of the key are escaped.
var metaVersionPath = "params._meta." + strings.ReplaceAll(mcpgo.MetaKeyProtocolVersion, ".", `\.`)

// withMetaVersion is r with version written into its body's params._meta,
// or r itself when the body cannot take it.
func withMetaVersion(r *http.Request, body []byte, version string) *http.Request {
	out, err := sjson.SetBytes(body, metaVersionPath, version)
	if err != nil {
		return r
	}
	r = r.WithContext(withBody(r.Context(), out))
	r.Body = io.NopCloser(bytes.NewReader(out))
	r.ContentLength = int64(len(out))
	return r
}

// answerSetLevel accepts logging/setLevel with a level the protocol knows
// and refuses any other with invalid params.
func answerSetLevel(w http.ResponseWriter, msg eraMessage) {
	var params struct {
		Level mcpgo.LoggingLevel `json:"level"`
	}
	if json.Unmarshal(msg.Params, &params) != nil || !knownLevel(params.Level) {
		writeBadRequest(w, msg.ID, mcpgo.INVALID_PARAMS,
			"logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency")
		return
	}
	writeEmptyResult(w, msg.ID)
}

func knownLevel(level mcpgo.LoggingLevel) bool {
	switch level {
	case mcpgo.LoggingLevelDebug, mcpgo.LoggingLevelInfo, mcpgo.LoggingLevelNotice, mcpgo.LoggingLevelWarning,
		mcpgo.LoggingLevelError, mcpgo.LoggingLevelCritical, mcpgo.LoggingLevelAlert, mcpgo.LoggingLevelEmergency:
		return true
	}
	return false
}

// writeEmptyResult answers the request id with an empty result.
func writeEmptyResult(w http.ResponseWriter, id json.RawMessage) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(rpcResult(id, struct{}{}))
}
