package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestMessageEnvelope(t *testing.T) {
	cases := []struct {
		name, body, method string
		ok                 bool
	}{
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`, "tools/call", true},
		{"an escaped method", `{"id":1,"method":"tools\/call"}`, "tools/call", true},
		{"a unicode escape", `{"id":1,"method":"\u0074ools/call"}`, "tools/call", true},
		{"no method", `{"id":1,"result":{}}`, "", true},
		{"a null method", `{"id":1,"method":null}`, "", true},
		{"a number method", `{"id":1,"method":5}`, "", false},
		{"invalid UTF-8", "{\"id\":1,\"method\":\"a\xffb\"}", "a\ufffdb", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodeMessage([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			env, ok := m.envelope()
			if ok != tc.ok || env.Method != tc.method {
				t.Errorf("envelope = %q, %v; want %q, %v", env.Method, ok, tc.method, tc.ok)
			}
		})
	}
}

// The message is decoded once however many handlers ask, and a body put
// in place of the first (as withMetaVersion does) is decoded afresh.
func TestReadMessageDecodesOnce(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	r = r.WithContext(withBody(r.Context(), []byte(`{"id":1,"method":"ping"}`)))
	first, err := readMessage(r)
	if err != nil || string(first.Method) != `"ping"` {
		t.Fatalf("readMessage = %+v, %v", first, err)
	}
	if again, _ := readMessage(r); again != first {
		t.Error("a second readMessage decoded the body again")
	}
	r = r.WithContext(withBody(r.Context(), []byte(`{"id":2,"method":"tools/list"}`)))
	if env, ok := requestEnvelope(r); !ok || env.Method != "tools/list" || string(env.ID) != "2" {
		t.Errorf("the new body reads %+v, %v", env, ok)
	}
	if _, err := readMessage(httptest.NewRequest(http.MethodGet, "/mcp", nil)); err == nil {
		t.Error("a request without a body has a message")
	}
}

// FuzzMessageEnvelope checks the envelope read from a rawMessage against
// decoding the body into an envelope directly, as the handlers did before.
func FuzzMessageEnvelope(f *testing.F) {
	for _, s := range []string{`{"id":1,"method":"ping"}`, `{"method":"a\u00e9"}`, `{"method":5}`, `{"method":null,"id":"x"}`, `[1]`, `{"Method":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var want envelope
		wantErr := json.Unmarshal(body, &want)
		m, err := decodeMessage(body)
		if err != nil {
			if wantErr == nil {
				t.Fatalf("decodeMessage failed (%v) where envelope decoding did not", err)
			}
			return
		}
		got, ok := m.envelope()
		if ok != (wantErr == nil) {
			t.Fatalf("envelope ok %v, direct decoding error %v", ok, wantErr)
		}
		if ok && (got.Method != want.Method || !bytes.Equal(got.ID, want.ID) || !bytes.Equal(got.Params, want.Params)) {
			t.Fatalf("envelope %+v, want %+v", got, want)
		}
	})
}
