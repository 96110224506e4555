package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

func TestPassThroughEdgeCases(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty result", `{}`, `{"content":[]}`},
		{"error flag kept", `{"content":[{"type":"text","text":"no"}],"isError":true}`,
			`{"content":[{"type":"text","text":"no"}],"isError":true}`},
		{"null structured content dropped", `{"content":[],"structuredContent":null}`, `{"content":[]}`},
		{"meta values kept raw", `{"content":[],"_meta":{"big":12345678901234567890,"progressToken":"t"}}`,
			`{"_meta":{"big":12345678901234567890,"progressToken":"t"},"content":[]}`},
		{"unknown top-level key dropped", `{"content":[],"x-extra":1}`, `{"content":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := passThrough(json.RawMessage(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("passThrough(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	if _, err := passThrough(json.RawMessage(`[1,2]`)); err == nil {
		t.Error("a result that is not an object was accepted")
	}
}

// FuzzPassThrough checks that whatever a downstream sends, what reaches the
// client is valid JSON carrying the same content items and error flag.
func FuzzPassThrough(f *testing.F) {
	for _, c := range richResultContent {
		f.Add(`{"content":[` + c + `],"structuredContent":{"a":1}}`)
	}
	f.Add(`{"content":[1,"x",null],"isError":true,"_meta":{"k":[1]}}`)
	f.Fuzz(func(t *testing.T, in string) {
		var want rawResultFields
		if json.Unmarshal([]byte(in), &want) != nil {
			return
		}
		res, err := passThrough(json.RawMessage(in))
		if err != nil {
			t.Fatalf("passThrough rejected %s: %v", in, err)
		}
		out, err := json.Marshal(res)
		if err != nil {
			return // mcp-go cannot encode it either way; the call fails cleanly
		}
		var got rawResultFields
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output %s is not a result: %v", out, err)
		}
		if got.IsError != want.IsError || len(got.Content) != len(want.Content) {
			t.Fatalf("%s became %s", in, out)
		}
		for i := range want.Content {
			if !jsonEqual(got.Content[i], want.Content[i]) {
				t.Fatalf("content[%d] %s became %s", i, want.Content[i], got.Content[i])
			}
		}
	})
}

// FuzzExportTool checks that no listed tool, however odd, breaks listing:
// the exported tool either encodes to JSON carrying the raw input schema
// unchanged, or fails to encode (and is left out).
func FuzzExportTool(f *testing.F) {
	f.Add(`{"name":"t","inputSchema":`+richInputSchema+`,"annotations":{"title":"x"},"icons":[{"src":"data:"}]}`, richInputSchema)
	f.Add(`{"name":"t","_meta":{"a":null}}`, `{"type":"object"}`)
	f.Fuzz(func(t *testing.T, raw, schema string) {
		var rt hub.RawTool
		if json.Unmarshal([]byte(raw), &rt) != nil || !json.Valid([]byte(schema)) {
			return
		}
		rt.Raw, rt.InputSchema = json.RawMessage(raw), json.RawMessage(schema)
		tool := exportTool(&hub.Tool{Name: "srv__t", RawTool: rt})
		out, err := tool.MarshalJSON()
		if err != nil {
			return
		}
		var back struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(out, &back); err != nil || back.Name != "srv__t" {
			t.Fatalf("exported %s: %v", out, err)
		}
		if len(bytes.TrimSpace([]byte(schema))) > 0 && !jsonEqual(back.InputSchema, json.RawMessage(schema)) {
			t.Fatalf("schema %s became %s", schema, back.InputSchema)
		}
	})
}

// jsonEqual reports whether two JSON texts hold the same value; numbers
// are compared as written. encoding/json writes "&" as "\u0026", so the
// bytes may differ.
func jsonEqual(a, b json.RawMessage) bool {
	va, errA := decodeExact(a)
	vb, errB := decodeExact(b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(va, vb)
}

func decodeExact(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// TestLatencyOfACallQuickerThanTheClock: a tool called once reads as
// measured even when its call took no time the clock could see (Windows'
// clock moves in ticks), and a tool never called reads as not measured.
func TestLatencyOfACallQuickerThanTheClock(t *testing.T) {
	tests := []struct {
		name     string
		calls    []time.Duration
		wantMs   float64
		wantText string
	}{
		{"never called", nil, 0, "latency not measured yet"},
		{"called, no time seen", []time.Duration{0}, 0.001, "0.0 ms"},
		{"called, 2.5 ms", []time.Duration{2500 * time.Microsecond}, 2.5, "2.5 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &hub.Tool{Stats: &hub.ToolStats{}}
			for _, d := range tt.calls {
				tool.Stats.Record(d, false)
			}
			if got := latencyMs(tool); got != tt.wantMs {
				t.Errorf("latencyMs = %v, want %v", got, tt.wantMs)
			}
			if got := latencyText(latencyMs(tool)); got != tt.wantText {
				t.Errorf("latencyText = %q, want %q", got, tt.wantText)
			}
		})
	}
}
