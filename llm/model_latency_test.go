package llm

import (
	"context"
	"testing"
	"time"
)

// CompleteAs measures each role apart and leaves failed calls out of the
// role's average; every call still counts in Calls and Measured.
func TestCompleteAsMeasuresPerRole(t *testing.T) {
	ok := &fakeChat{body: replyWithUsage}
	m := newTestModel(t, startFakeChat(t, ok), nil)
	for range 2 {
		if _, err := m.CompleteAs(context.Background(), "search", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	ok.mu.Lock()
	ok.status = 500
	ok.mu.Unlock()
	if _, err := m.CompleteAs(context.Background(), "answer", []byte(`{}`)); err == nil {
		t.Fatal("the failing call succeeded")
	}
	info := m.Info()
	if info.Calls != 3 || info.Measured <= 0 {
		t.Fatalf("calls %d, measured %v", info.Calls, info.Measured)
	}
	if d, measured := info.RoleLatency["search"]; !measured || d <= 0 {
		t.Fatalf("search latency %v (measured %v)", d, measured)
	}
	if d, measured := info.RoleLatency["answer"]; measured {
		t.Fatalf("a failed call set the answer latency to %v", d)
	}
}

func TestModelEndpointRejectsNegativeLatency(t *testing.T) {
	ep := ModelEndpoint{Name: "a", BaseURL: "http://h/v1", ModelID: "m", Latency: -time.Second}
	if err := ep.Validate(); err == nil {
		t.Fatal("a negative latency was accepted")
	}
}
