package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// interviewer is an in-process downstream of protocol 2025-11-25 whose
// "interview" tool asks the calling client for a sample, then for input,
// then for its roots, and returns all three answers (or why it got no
// roots). ended, when set, is
// closed when the tool's context ends, however the call ended.
func interviewer(ended chan<- struct{}) *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("interviewer", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("interview", mcpgo.WithString("topic")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if ended != nil {
			defer close(ended)
		}
		sample, err := srv.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
			Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent(req.GetString("topic", ""))}},
			MaxTokens: 16,
		}})
		if err != nil {
			return mcpgo.NewToolResultError("sampling: " + err.Error()), nil
		}
		answer, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}})
		if err != nil {
			return mcpgo.NewToolResultError("elicitation: " + err.Error()), nil
		}
		var uris []string
		roots, err := srv.RequestRoots(ctx, mcpgo.ListRootsRequest{})
		if err != nil {
			uris = append(uris, "no roots: "+err.Error())
		} else {
			for _, r := range roots.Roots {
				uris = append(uris, r.URI)
			}
		}
		text, _ := sample.Content.(mcpgo.TextContent)
		name, _ := answer.Content.(map[string]any)["name"].(string)
		return mcpgo.NewToolResultText(text.Text + " | " + name + " | " + strings.Join(uris, ",")), nil
	})
	return srv
}

// connectModern connects an mcp-go client that speaks 2026-07-28 (no
// standing stream, which would hold it to the older protocol) with opts'
// handlers, and checks that it does.
func connectModern(t *testing.T, url string, opts ...mcpclient.ClientOption) *mcpclient.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	c := mcpclient.NewClient(tr, opts...)
	initClient(t, c, clientOptions{})
	if v := c.ProtocolVersion(); v != mcpgo.ProtocolVersion20260728 {
		t.Fatalf("the client speaks %q, want %s", v, mcpgo.ProtocolVersion20260728)
	}
	return c
}

// samplingText is the text of a sampling message's content, whether the
// client decoded it into a typed value or left it as JSON.
func samplingText(content any) string {
	parsed, err := mcpgo.ParseSamplingContent(content)
	if err != nil {
		return ""
	}
	if text, ok := parsed.(mcpgo.TextContent); ok {
		return text.Text
	}
	return ""
}

// rootedClient answers sampling and elicitation as answeringClient does and
// lists one root of its own.
type rootedClient struct {
	*answeringClient
}

func (r rootedClient) ListRoots(context.Context, mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	return &mcpgo.ListRootsResult{Roots: []mcpgo.Root{{URI: "file:///" + r.name, Name: r.name}}}, nil
}

// TestModernClientsAnswerALegacyDownstreamByRetrying has 2026-07-28
// clients (mcp-go's, which retries input_required results with its
// handlers) call a 2025-11-25 downstream that asks for a sample, input and
// roots mid-call; each becomes an InputRequiredResult and the answers
// reach the waiting downstream, for two clients at once, each its own.
func TestModernClientsAnswerALegacyDownstreamByRetrying(t *testing.T) {
	h := testHub(t, nil, inProcess("interviewer", interviewer(nil)))
	s := testServer(t, h, Options{})
	url := serveHTTP(t, s, HTTPOptions{}).URL()
	var wg sync.WaitGroup
	got := map[string]string{}
	var mu sync.Mutex
	for _, name := range []string{"alice", "bob"} {
		a := rootedClient{&answeringClient{name: name}}
		c := connectModern(t, url, mcpclient.WithSamplingHandler(a),
			mcpclient.WithElicitationHandler(a), mcpclient.WithRootsHandler(a))
		wg.Go(func() {
			res := callTool(t, c, "interviewer__interview", map[string]any{"topic": "topic of " + name})
			mu.Lock()
			defer mu.Unlock()
			got[name] = resultText(res)
			if asked := a.questions(); len(asked) != 2 || asked[0] != "topic of "+name || asked[1] != "your name?" {
				t.Errorf("%s was asked %v", name, asked)
			}
		})
	}
	wg.Wait()
	for _, name := range []string{"alice", "bob"} {
		if want := "sampled by " + name + " | " + name + " | file:///" + name; got[name] != want {
			t.Errorf("%s's call returned %q, want %q", name, got[name], want)
		}
	}
	if n := s.bridges.count(); n != 0 {
		t.Errorf("%d exchanges left open after the calls finished", n)
	}
}

// TestModernClientWithoutSamplingIsRefusedDownstream: a 2026-07-28
// client that declares no sampling is not asked; the downstream is told.
func TestModernClientWithoutSamplingIsRefusedDownstream(t *testing.T) {
	h := testHub(t, nil, inProcess("interviewer", interviewer(nil)))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	c := connectModern(t, url)
	got := resultText(callTool(t, c, "interviewer__interview", map[string]any{"topic": "x"}))
	if !strings.Contains(got, "does not support sampling") {
		t.Fatalf("result %q, want the downstream told the client does not support sampling", got)
	}
}

// inputRound is what a raw 2026-07-28 tools/call got back: its HTTP
// status, and a result or an error.
type inputRound struct {
	status int
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
		IsError       bool                       `json:"isError"`
		Content       []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

// modernCall posts one 2026-07-28 tools/call of the interviewer with the
// given extra params and decodes the answer.
func modernCall(t *testing.T, url, extra string) inputRound {
	t.Helper()
	return modernCallVia(t, url, "", extra)
}

// modernCallVia is modernCall of the interview tool by name (via "") or
// through the meta tool via (call_tool).
func modernCallVia(t *testing.T, url, via, extra string) inputRound {
	t.Helper()
	caps := `{"sampling":{},"elicitation":{},"roots":{}}`
	meta := `"_meta":{"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":` + caps + `}`
	name, args := "interviewer__interview", `{"topic":"raw"}`
	if via != "" {
		name, args = via, `{"name":"`+name+`","arguments":`+args+`}`
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `",` +
		`"arguments":` + args + `,` + meta + extra + `}}`
	headers := modernHeaders("tools/call")
	headers["Mcp-Name"] = name
	resp, raw := rawRequest(t, http.MethodPost, url, headers, body)
	out := inputRound{status: resp.StatusCode}
	if err := json.Unmarshal([]byte(sseData(raw)), &out); err != nil {
		t.Fatalf("status %s, decode %q: %v", resp.Status, raw, err)
	}
	if (out.Error == nil) != (resp.StatusCode == http.StatusOK) {
		t.Fatalf("status %s with %s", resp.Status, raw)
	}
	return out
}

// sseData is the JSON of a response sent either as JSON or as one SSE event.
func sseData(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			return rest
		}
	}
	return body
}

// onlyRequest returns the id and method of a round's one input request.
func onlyRequest(t *testing.T, r inputRound) (string, string) {
	t.Helper()
	if r.Result.ResultType != string(mcpgo.ResultTypeInputRequired) || len(r.Result.InputRequests) != 1 || r.Result.RequestState == "" {
		t.Fatalf("want one input request and a state, got %+v", r.Result)
	}
	for id, raw := range r.Result.InputRequests {
		var req struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(raw, &req)
		return id, req.Method
	}
	return "", ""
}

// TestInputRequiredRoundTripOnTheWire drives the exchange by hand: each
// downstream request comes back as an InputRequiredResult, the retry with
// its state and answer moves the call on, a wrong or spent state is
// refused with invalid params (HTTP 400) saying why, as a server refuses a
// requestState that fails its integrity check, and the final result comes
// back to the last retry.
func TestInputRequiredRoundTripOnTheWire(t *testing.T) {
	for _, via := range []string{"", CallToolName} {
		t.Run("via "+cmp.Or(via, "the tool's name"), func(t *testing.T) { inputRoundTripOnTheWire(t, via) })
	}
}

// inputRoundTripOnTheWire runs the interview's rounds, calling the tool by
// name (via "") or through call_tool (--expose search): either way a bad
// or spent state is refused with -32602 and HTTP 400.
func inputRoundTripOnTheWire(t *testing.T, via string) {
	h := testHub(t, nil, inProcess("interviewer", interviewer(nil)))
	opts := Options{}
	if via != "" {
		opts.Expose = ExposeSearch
	}
	s := testServer(t, h, opts)
	url := serveHTTP(t, s, HTTPOptions{}).URL()
	modernCall := func(t *testing.T, url, extra string) inputRound {
		t.Helper()
		return modernCallVia(t, url, via, extra)
	}

	first := modernCall(t, url, "")
	id, method := onlyRequest(t, first)
	if method != string(mcpgo.MethodSamplingCreateMessage) {
		t.Fatalf("first input request is %s, want sampling", method)
	}
	bad := modernCall(t, url, `,"requestState":"toolhub-nosuchstate","inputResponses":{}`)
	if bad.Error == nil || bad.Error.Code != mcpgo.INVALID_PARAMS || bad.status != http.StatusBadRequest ||
		!strings.Contains(bad.Error.Message, "requestState names no call") {
		t.Fatalf("an unknown state got status %d, %+v, want invalid params saying why", bad.status, bad.Error)
	}
	answers := []struct {
		method, answer string
	}{
		{string(mcpgo.MethodSamplingCreateMessage), `{"role":"assistant","content":{"type":"text","text":"raw sample"},"model":"m"}`},
		{string(mcpgo.MethodElicitationCreate), `{"action":"accept","content":{"name":"carol"}}`},
		{string(mcpgo.MethodListRoots), `{"roots":[{"uri":"file:///carol","name":"carol"}]}`},
	}
	round := first
	for i, a := range answers {
		if method != a.method {
			t.Fatalf("round %d asks %s, want %s", i, method, a.method)
		}
		previous := round.Result.RequestState
		round = modernCall(t, url, `,"requestState":"`+previous+`","inputResponses":{"`+id+`":`+a.answer+`}`)
		if i < len(answers)-1 {
			id, method = onlyRequest(t, round)
			if round.Result.RequestState == previous {
				t.Fatalf("round %d kept the requestState of the round before", i+1)
			}
			replay := modernCall(t, url, `,"requestState":"`+previous+`","inputResponses":{"`+id+`":`+a.answer+`}`)
			if replay.Error == nil || replay.Error.Code != mcpgo.INVALID_PARAMS {
				t.Fatalf("replaying round %d's state got %+v, want invalid params", i, replay.Result)
			}
		}
	}
	if round.Result.ResultType == string(mcpgo.ResultTypeInputRequired) || len(round.Result.Content) == 0 ||
		round.Result.Content[0].Text != "raw sample | carol | file:///carol" {
		t.Fatalf("final round got %+v", round.Result)
	}
	if n := s.bridges.count(); n != 0 {
		t.Errorf("%d exchanges left open", n)
	}
}

// TestUnansweredInputCancelsTheDownstreamCall: a client that never retries
// leaves its call parked; after the idle time the downstream call is
// cancelled and the state is forgotten.
func TestUnansweredInputCancelsTheDownstreamCall(t *testing.T) {
	ended := make(chan struct{})
	h := testHub(t, nil, inProcess("interviewer", interviewer(ended)))
	s := testServer(t, h, Options{BridgeIdle: time.Millisecond})
	url := serveHTTP(t, s, HTTPOptions{}).URL()
	first := modernCall(t, url, "")
	onlyRequest(t, first)
	select {
	case <-ended:
	case <-time.After(waitLimit):
		t.Fatal("the downstream call was not cancelled")
	}
	late := modernCall(t, url, `,"requestState":"`+first.Result.RequestState+`","inputResponses":{}`)
	if late.Error == nil || late.Error.Code != mcpgo.INVALID_PARAMS {
		t.Fatalf("a retry after the idle time got %+v, want invalid params", late.Result)
	}
}
