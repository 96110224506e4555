package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

func TestRootsClient(t *testing.T) {
	named := &mcpgo.Implementation{Name: "ide", Version: "2"}
	for _, tc := range []struct {
		name string
		info *mcpserver.RequestProtocolInfo
		want string
	}{
		{"no request", nil, ""},
		{"no capabilities", &mcpserver.RequestProtocolInfo{ClientInfo: named}, ""},
		{"no roots", &mcpserver.RequestProtocolInfo{ClientInfo: named, ClientCapabilities: &mcpgo.ClientCapabilities{}}, ""},
		{"roots that never say they changed", &mcpserver.RequestProtocolInfo{ClientInfo: named,
			ClientCapabilities: &mcpgo.ClientCapabilities{Roots: &struct {
				ListChanged bool `json:"listChanged,omitempty"`
			}{}}}, ""},
		{"roots that say they changed", &mcpserver.RequestProtocolInfo{ClientInfo: named,
			ClientCapabilities: &mcpgo.ClientCapabilities{Roots: &struct {
				ListChanged bool `json:"listChanged,omitempty"`
			}{ListChanged: true}}}, "ide\x002"},
		{"and no name", &mcpserver.RequestProtocolInfo{
			ClientCapabilities: &mcpgo.ClientCapabilities{Roots: &struct {
				ListChanged bool `json:"listChanged,omitempty"`
			}{ListChanged: true}}}, "\x00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rootsClient(tc.info); got != tc.want {
				t.Fatalf("rootsClient = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRootsMemoryRecallsUntilAChange(t *testing.T) {
	var changes atomic.Uint64
	m := &rootsMemory{changes: &changes}
	roots := json.RawMessage(`{"roots":[]}`)
	if _, _, ok := m.recall("a"); ok {
		t.Fatal("an empty memory recalled roots")
	}
	m.remember("a", m.now(), roots, "roots:1")
	if got, key, ok := m.recall("a"); !ok || key != "roots:1" || string(got) != string(roots) {
		t.Fatalf("recall = %s, %q, %v", got, key, ok)
	}
	if _, _, ok := m.recall("b"); ok {
		t.Fatal("another client recalled a's roots")
	}
	if _, _, ok := m.recall(""); ok {
		t.Fatal("a client that never says its roots changed recalled roots")
	}
	changes.Add(1)
	if _, _, ok := m.recall("a"); ok {
		t.Fatal("roots recalled after a change")
	}
	seen := m.now()
	changes.Add(1) // a change while the client was being asked
	m.remember("a", seen, roots, "roots:2")
	if _, _, ok := m.recall("a"); ok {
		t.Fatal("an answer asked for before a change was recalled after it")
	}
	var none *rootsMemory
	none.remember("a", 0, roots, "roots:3")
	if _, _, ok := none.recall("a"); ok || none.now() != 0 {
		t.Fatal("no memory recalled roots")
	}
}

// modernStdioCall is one tools/call of get-roots-list from a 2026-07-28
// client over stdio: caps are its declared capabilities, extra the
// params' other members.
func modernStdioCall(id int, caps, extra string) string {
	meta := `"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":` + caps + `,"` + mcpgo.MetaKeyClientInfo + `":{"name":"raw","version":"1"}`
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"everything__get-roots-list","arguments":{},"_meta":{%s}%s}}`,
		id, meta, extra)
}

// callResult is the part of a tools/call result the roots tests read.
type callResult struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
	Content       []struct {
		Text string `json:"text"`
	} `json:"content"`
}

// TestStdioModernClientIsAskedForItsRootsOncePerChange: over stdio, a
// 2026-07-28 client that declared roots with listChanged is asked for them
// at its first call to a server that uses roots, not at the next, and again
// after it says they changed; one that declared roots without listChanged
// is asked at every call.
func TestStdioModernClientIsAskedForItsRootsOncePerChange(t *testing.T) {
	_, srv := everythingServerForRoots(t)
	r := newRawStdio(t, srv)
	id := 0
	call := func(caps, uri string) (asked bool) {
		t.Helper()
		id++
		r.send(modernStdioCall(id, caps, ""))
		res := readCallResult(t, r, id)
		if res.ResultType == string(mcpgo.ResultTypeInputRequired) {
			asked = true
			answers := map[string]any{}
			for key := range res.InputRequests {
				answers[key] = map[string]any{"roots": []map[string]string{{"uri": uri}}}
			}
			raw, _ := json.Marshal(answers)
			id++
			r.send(modernStdioCall(id, caps, fmt.Sprintf(`,"inputResponses":%s,"requestState":%q`, raw, res.RequestState)))
			res = readCallResult(t, r, id)
		}
		if len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, uri) {
			t.Fatalf("told %+v, want %s", res, uri)
		}
		return asked
	}
	promises := `{"roots":{"listChanged":true}}`
	steps := []struct {
		name      string
		caps, uri string
		change    bool // the client says its roots changed first
		wantAsked bool
	}{
		{"first call", promises, "file:///one", false, true},
		{"next call", promises, "file:///one", false, false},
		{"after a change", promises, "file:///two", true, true},
		{"after the change", promises, "file:///two", false, false},
		{"a client that never says", `{"roots":{}}`, "file:///three", false, true},
		{"is asked again", `{"roots":{}}`, "file:///three", false, true},
	}
	for _, s := range steps {
		if s.change {
			r.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"_meta":{"` +
				mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `"}}}`)
		}
		if asked := call(s.caps, s.uri); asked != s.wantAsked {
			t.Fatalf("%s: asked for roots = %v, want %v", s.name, asked, s.wantAsked)
		}
	}
}

func readCallResult(t *testing.T, r *rawStdio, id int) callResult {
	t.Helper()
	m, _ := r.response(fmt.Sprint(id))
	if m.Error != nil {
		t.Fatalf("call %d: %v", id, m.Error)
	}
	var res callResult
	if err := json.Unmarshal(m.Result, &res); err != nil {
		t.Fatalf("call %d: %s: %v", id, m.Result, err)
	}
	return res
}
