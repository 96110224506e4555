package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStdioAnswersWhatIsInFlightWhenStdinCloses: a client that writes its
// requests and closes its end (`printf … | toolhub serve`) still gets the
// answers of the requests running then.
func TestStdioAnswersWhatIsInFlightWhenStdinCloses(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{})
	r := newRawStdio(t, srv)
	r.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fix__slow","arguments":{"steps":3,"delay_ms":50,"label":"piped"}}}`)
	expectLabel(t, fix.started, "piped", "start")
	if err := r.in.Close(); err != nil {
		t.Fatal(err)
	}
	m, _ := r.response("5")
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || len(res.Content) == 0 || res.Content[0].Text != "piped done" {
		t.Errorf("answer %s %+v, want the call's result", m.Result, m.Error)
	}
}

// TestStdioRequestToAClientThatClosedStdinFails: once the client's input
// has ended it cannot answer, so a request toolhub makes of it fails at
// once instead of holding the call until the drain's grace ends.
func TestStdioRequestToAClientThatClosedStdinFails(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("asker", askingServer())), Options{})
	r := newRawStdioWith(t, srv, `{"sampling":{}}`)
	r.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"asker__sample","arguments":{"text":"hello"}}}`)
	r.awaitRequest("sampling/createMessage")
	if err := r.in.Close(); err != nil {
		t.Fatal(err)
	}
	m, _ := r.response("6")
	if !strings.Contains(string(m.Result), "the client closed its input") {
		t.Errorf("answer %s %+v, want the call to say the client closed its input", m.Result, m.Error)
	}
}

// awaitRequest reads lines until the server sends a request of method.
func (r *rawStdio) awaitRequest(method string) {
	r.t.Helper()
	r.readUntil("a "+method+" request", func(m message) bool { return m.Method == method && len(m.ID) > 0 })
}
