package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestExchangeRounds walks one exchange through its rounds without a
// network: a request is asked, a retry without its answer is asked it
// again, a second retry at once is refused, the answer reaches the
// waiting downstream request, and the result ends the exchange.
func TestExchangeRounds(t *testing.T) {
	ctx := t.Context()
	b := newBridges(waitLimit)
	cancelled := make(chan struct{})
	ex := b.open("srv__tool", func() { close(cancelled) })
	client := &bridgeClient{asker: ex, caps: modernCapabilities(&mcpgo.ClientCapabilities{Elicitation: &mcpgo.ElicitationCapability{}})}

	answered := make(chan string, 1)
	go func() {
		raw, err := client.Elicit(ctx, json.RawMessage(`{"message":"name?","requestedSchema":{"type":"object"}}`))
		if err != nil {
			answered <- "error: " + err.Error()
			return
		}
		answered <- string(raw)
	}()

	first := mustInput(t, ex)
	state := b.park(ex)
	steps := []struct {
		name      string
		responses mcpgo.InputResponses
		wantAgain bool
	}{
		{"a retry without the answer is asked again", mcpgo.InputResponses{}, true},
		{"an answer to an unknown id changes nothing", mcpgo.InputResponses{"nope": elicited(t, "x")}, true},
		{"the answer reaches the downstream", mcpgo.InputResponses{first: elicited(t, "dana")}, false},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			resumed, err := b.resume(state, "srv__tool")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.resume(state, "srv__tool"); !errors.Is(err, errBusyState) {
				t.Fatalf("a second resume at once: %v, want errBusyState", err)
			}
			resumed.answer(step.responses)
			if !step.wantAgain {
				if got := <-answered; got != `{"action":"accept","content":{"name":"dana"}}` {
					t.Fatalf("the downstream got %s", got)
				}
				return
			}
			if again := mustInput(t, resumed); again != first {
				t.Fatalf("asked %q, want %q again", again, first)
			}
			previous := state
			state = b.park(resumed)
			if _, err := b.resume(previous, "srv__tool"); !errors.Is(err, errUnknownState) {
				t.Fatalf("resume with the last round's state: %v, want errUnknownState", err)
			}
		})
	}
	if _, err := b.resume(state, "other__tool"); !errors.Is(err, errUnknownState) {
		t.Fatalf("resume for another tool: %v, want errUnknownState", err)
	}
	ex.finish(mcpgo.NewToolResultText("done"), nil)
	out, err := ex.await(ctx)
	if err != nil || out.res == nil || resultText(out.res) != "done" {
		t.Fatalf("final round: %+v, %v", out, err)
	}
	b.close(ex)
	<-cancelled
	if n := b.count(); n != 0 {
		t.Fatalf("%d exchanges left", n)
	}
}

func mustInput(t *testing.T, ex *exchange) string {
	t.Helper()
	out, err := ex.await(t.Context())
	if err != nil || len(out.input) != 1 {
		t.Fatalf("want one input request, got %+v, %v", out, err)
	}
	return inputIDs(out.input)[0]
}

func elicited(t *testing.T, name string) mcpgo.InputResponse {
	t.Helper()
	var r mcpgo.InputResponse
	if err := json.Unmarshal([]byte(`{"action":"accept","content":{"name":"`+name+`"}}`), &r); err != nil {
		t.Fatal(err)
	}
	return r
}
