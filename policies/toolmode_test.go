package policies

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

var (
	domainTools = []string{"travel__get_booking", "travel__update_booking"}
	expertNames = []string{"expert-1", "expert-2", "expert-3"}
)

func TestToolModeReplies(t *testing.T) {
	getBooking := `{"name": "travel__get_booking", "arguments": {"id": "X1"}}`
	update := `{"name": "travel__update_booking", "arguments": {"id": "X1", "date": "2025-12-05"}}`
	expert2 := `{"name": "call_expert", "arguments": {"expert": "expert-2"}}`
	tests := []struct {
		name        string
		msg         Message
		wantMessage string
		wantCalls   []string
		wantExpert  string
		wantNotes   []string
	}{
		{"message ends the episode", raw("<think>All set.</think><message>Done.</message>"), "Done.", nil, "", nil},
		{"plain text is the message", raw("<think>\nok\n</think>\n\nYour booking is changed."), "Your booking is changed.", nil, "", nil},
		{"call_expert alone", raw("<think>Tricky.</think>\n" + block(expert2)), "", nil, "expert-2", nil},
		{"two domain calls both run", raw(block(getBooking) + "\n" + block(update)), "", []string{"travel__get_booking", "travel__update_booking"}, "", nil},
		{"call_expert with a domain call runs the expert only", raw(block(getBooking) + block(expert2)), "", nil, "expert-2",
			[]string{"ignored tool call travel__get_booking: call_expert runs alone"}},
		{"second call_expert ignored", raw(block(expert2) + block(`{"name": "call_expert", "arguments": {"expert": "expert-1"}}`)), "", nil, "expert-2",
			[]string{"ignored tool call call_expert: only the first call_expert runs"}},
		{"unknown expert does not stop domain calls", raw(block(`{"name": "call_expert", "arguments": {"expert": "expert-7"}}`) + block(getBooking)), "",
			[]string{"travel__get_booking"}, "", []string{`invalid tool call: expert "expert-7" is not offered`}},
		{"call_expert without expert argument", raw(block(`{"name": "call_expert", "arguments": {}}`)), "", nil, "",
			[]string{`invalid tool call: missing argument "expert"`}},
		{"forbidden tool", raw(block(`{"name": "files__delete", "arguments": {"path": "/"}}`)), "", nil, "",
			[]string{`invalid tool call: unknown tool "files__delete"`}},
		{"message and blocks: blocks leave the text", raw("<message>Checking.</message>\n" + block(getBooking)), "Checking.", []string{"travel__get_booking"}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseReply(tt.msg)
			d := SelectToolModeCalls(r.Candidates, domainTools, expertNames)
			if r.Message != tt.wantMessage {
				t.Errorf("message = %q, want %q", r.Message, tt.wantMessage)
			}
			var calls []string
			for _, c := range d.Calls {
				calls = append(calls, c.Name)
			}
			if !equalStrings(calls, tt.wantCalls) {
				t.Errorf("calls = %v, want %v", calls, tt.wantCalls)
			}
			expert := ""
			if d.Expert != nil {
				expert = d.Expert.Alias
			}
			if expert != tt.wantExpert {
				t.Errorf("expert = %q, want %q", expert, tt.wantExpert)
			}
			var notes []string
			for _, rj := range d.Rejected {
				notes = append(notes, rj.Observation())
			}
			if !equalStrings(notes, tt.wantNotes) {
				t.Errorf("observations = %q, want %q", notes, tt.wantNotes)
			}
		})
	}
}

func TestToolModeCallCap(t *testing.T) {
	var blocks []string
	for i := 0; i < 7; i++ {
		blocks = append(blocks, block(fmt.Sprintf(`{"name": "travel__get_booking", "arguments": {"id": "X%d"}}`, i)))
	}
	d := SelectToolModeCalls(ParseReply(raw(strings.Join(blocks, "\n"))).Candidates, domainTools, nil)
	if len(d.Calls) != MaxToolModeCalls || string(d.Calls[4].Arguments) != `{"id":"X4"}` {
		t.Fatalf("calls = %+v", d.Calls)
	}
	if len(d.Rejected) != 2 || d.Rejected[0].Index != 5 || d.Rejected[1].Observation() != "ignored tool call travel__get_booking: at most 5 calls run per reply" {
		t.Errorf("rejected = %+v", d.Rejected)
	}
}

func TestCallExpertNotOfferedWithoutExperts(t *testing.T) {
	d := SelectToolModeCalls(ParseReply(raw(block(`{"name": "call_expert", "arguments": {"expert": "expert-1"}}`))).Candidates, domainTools, nil)
	if d.Expert != nil || len(d.Rejected) != 1 || d.Rejected[0].Reason != `unknown tool "call_expert"` {
		t.Errorf("decision = %+v", d)
	}
}

func TestToolModeSystemVariants(t *testing.T) {
	with := ToolModeSystem("Policy text.", paperExperts())
	without := ToolModeSystem("Policy text.", nil)
	if !strings.Contains(with, "Policy text.\n\nYou should transfer the user to an expert") {
		t.Errorf("expert paragraph missing: %q", with)
	}
	if strings.Contains(without, "call_expert") {
		t.Errorf("expert paragraph without experts: %q", without)
	}
	wantEnd := "</policy>  You are dedicated to provide the best service. Wrap thinking process between <think> </think>, message between <message> </message> and the tool call between <tool_call> </tool_call> ."
	if !strings.HasSuffix(with, wantEnd) || !strings.HasSuffix(without, wantEnd) {
		t.Errorf("suffix missing:\n%q\n%q", with, without)
	}
	wantExpert := "<instructions>\n" + instructionsText + "\n</instructions>\n<policy>\nPolicy text.\n</policy>"
	if got := ExpertSystem("Policy text."); got != wantExpert {
		t.Errorf("expert system = %q", got)
	}
}

func TestToolModeTools(t *testing.T) {
	specs := []ToolSpec{
		{Name: "a__x", Description: "X.", InputSchema: json.RawMessage(`{ "type": "object",  "properties": {"q": {"type": "string"}} }`)},
		{Name: "transfer_to_human_agents", Description: "Hand off."},
		{Name: "a__noschema", Description: "No schema."},
		{Name: "a__bad", InputSchema: json.RawMessage(`[1,2]`)},
	}
	tools := ToolModeTools(specs, nil)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Function.Name)
	}
	if !equalStrings(names, []string{"a__x", "a__noschema", "a__bad"}) {
		t.Fatalf("tools = %v", names)
	}
	if string(tools[0].Function.Parameters) != `{"type":"object","properties":{"q":{"type":"string"}}}` {
		t.Errorf("schema = %s", tools[0].Function.Parameters)
	}
	for _, tool := range tools[1:] {
		if string(tool.Function.Parameters) != `{"type":"object","properties":{}}` {
			t.Errorf("%s schema = %s", tool.Function.Name, tool.Function.Parameters)
		}
	}
	if n := len(ToolModeTools(specs, paperExperts())); n != 4 {
		t.Errorf("with experts: %d tools, want 4", n)
	}
}

// τ²'s hand-off tool is never offered in tool mode, under its own name or
// under the server__tool name the catalog gives it: it is not sent as a
// tool, not listed in the <policy>, and a call of it is an unknown tool.
func TestTransferToolIsNotOffered(t *testing.T) {
	tests := []struct {
		name    string
		tool    string
		offered bool
	}{
		{name: "catalog name", tool: "travel__transfer_to_human_agents", offered: false},
		{name: "unprefixed server", tool: "transfer_to_human_agents", offered: false},
		{name: "another tool ending alike", tool: "travel__log_transfer_to_human_agents_calls", offered: true},
		{name: "another server's tool", tool: "transfer_to_human_agents__get", offered: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			specs := toolSpecs([]*hub.Tool{
				{Name: "travel__get_booking"},
				{Name: tt.tool},
			})
			var sent []string
			for _, tool := range ToolModeTools(specs, paperExperts()) {
				sent = append(sent, tool.Function.Name)
			}
			if got := slices.Contains(sent, tt.tool); got != tt.offered {
				t.Errorf("tools sent %v: %s offered = %v, want %v", sent, tt.tool, got, tt.offered)
			}
			if got := strings.Contains(ToolModePolicy(specs, PrivacyAny), "- "+tt.tool+" "); got != tt.offered {
				t.Errorf("<policy> lists %s = %v, want %v", tt.tool, got, tt.offered)
			}
			d := SelectToolModeCalls([]Candidate{{Name: tt.tool, Arguments: json.RawMessage(`{}`)}}, specNames(specs), expertNames)
			if got := len(d.Calls) == 1; got != tt.offered {
				t.Errorf("a call of %s runs = %v, want %v (rejected: %+v)", tt.tool, got, tt.offered, d.Rejected)
			}
		})
	}
}
