package mcpwire

import (
	"encoding/json"
	"testing"
)

func TestIdentifyMessage(t *testing.T) {
	cases := []struct {
		name       string
		head, tail string
		wantID     string
		wantMethod bool
	}{
		{"id first, Go order", `{"jsonrpc":"2.0","id":12,"result":{"content":[{"text":"xx`, `xx"}]}}`, `12`, false},
		{"string id", `{"id":"toolhub-4","result":{"a":`, `}}`, `"toolhub-4"`, false},
		{"id last, TypeScript order", `{"result":{"content":[{"text":"xx`, `xxx"}]},"jsonrpc":"2.0","id":99}`, `99`, false},
		{"spaces around the colon", `{"result":"xx`, `xx", "jsonrpc": "2.0", "id" : "q"}`, `"q"`, false},
		{"nested ids are not the message's", `{"result":{"id":5,"items":[{"id":6}],"text":"xx`, `xx","id":7}}`, ``, false},
		{"nested id inside the tail only", `{"result":{"x":"xx`, `xx","id":3}]}}`, ``, false},
		{"escaped quotes in text", `{"result":{"text":"xx`, `xx \"id\":5}"}}`, ``, false},
		{"request from the server", `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"x":"`, `"}}`, `3`, true},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`, `"}}`, ``, true},
		{"id after nested objects in the head", `{"result":{"a":{"b":[1,2]}},"id":8,"more":"xx`, `xx"}`, `8`, false},
		{"null id is not an id", `{"id":null,"error":{"message":"`, `"}}`, ``, false},
		{"not an object", `["x`, `x"]`, ``, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := IdentifyMessage([]byte(tc.head), []byte(tc.tail))
			if string(got.ID) != tc.wantID || got.HasMethod != tc.wantMethod {
				t.Fatalf("got id %q method %v, want %q %v", got.ID, got.HasMethod, tc.wantID, tc.wantMethod)
			}
		})
	}
}

// FuzzIdentifyMessage: any found id is a JSON string or number.
func FuzzIdentifyMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":"`), []byte(`"}`))
	f.Add([]byte(`{"result":"`), []byte(`","id":"abc"}`))
	f.Add([]byte(`{"a":{"id":1}`), []byte(`"id":{}}`))
	f.Fuzz(func(t *testing.T, head, tail []byte) {
		id := IdentifyMessage(head, tail)
		if id.ID == nil {
			return
		}
		var v any
		if err := json.Unmarshal(id.ID, &v); err != nil {
			t.Fatalf("id %q is not JSON: %v", id.ID, err)
		}
		switch v.(type) {
		case string, float64:
		default:
			t.Fatalf("id %q is not a string or number", id.ID)
		}
	})
}
