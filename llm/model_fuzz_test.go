package llm

import "testing"

// FuzzReadReply feeds arbitrary completion bodies to the accounting reader:
// it must never panic and never report negative estimated tokens.
func FuzzReadReply(f *testing.F) {
	f.Add([]byte(replyWithUsage), 10)
	f.Add([]byte(`{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a"}]}}]}`), 0)
	f.Add([]byte(`{"choices":[]}`), 3)
	f.Add([]byte(`not json`), 1)
	f.Fuzz(func(t *testing.T, body []byte, requestBytes int) {
		if requestBytes < 0 {
			requestBytes = -requestBytes
		}
		r := readReply(body, requestBytes)
		if r.Estimated && (r.TokensIn < 0 || r.TokensOut < 0) {
			t.Fatalf("negative estimate %+v", r)
		}
	})
}
