package mcpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// framed runs input through a framer with the given limit and returns what
// the transport would read, the replaced ids, and the violation, if any.
func framed(t testing.TB, input string, limit int) (out string, oversized []string, violation error) {
	t.Helper()
	f := NewStdoutFramer(strings.NewReader(input), limit, FramerHooks{
		Oversize:  func(id json.RawMessage, _ int64) { oversized = append(oversized, string(id)) },
		Violation: func(err error) { violation = err },
		End:       func() {},
	})
	data, err := readMessages(f)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("read: %v", err)
	}
	return string(data), oversized, violation
}

// readMessages is everything the framer passes on, and the error it ended
// with.
func readMessages(f *StdoutFramer) ([]byte, error) {
	var out []byte
	for {
		line, err := f.NextMessage()
		out = append(out, line...)
		if err != nil {
			return out, err
		}
	}
}

func TestStdoutFramer(t *testing.T) {
	long := strings.Repeat("z", 100)
	cases := []struct {
		name      string
		input     string
		want      string
		oversized []string
		violation string
	}{
		{
			name:  "lines pass through",
			input: "{\"id\":1,\"result\":{}}\n{\"method\":\"x\"}\n",
			want:  "{\"id\":1,\"result\":{}}\n{\"method\":\"x\"}\n",
		},
		{
			name:  "blank lines and carriage returns are dropped",
			input: "\n  \r\n{\"id\":1}\r\n",
			want:  "{\"id\":1}\n",
		},
		{
			name:  "a last line without newline is kept",
			input: `{"id":1}`,
			want:  "{\"id\":1}\n",
		},
		{
			name:      "a banner ends the stream",
			input:     "{\"id\":1}\nServer running on stdio\n{\"id\":2}\n",
			want:      "{\"id\":1}\n",
			violation: `non-JSON to stdout: "Server running on stdio"`,
		},
		{
			name:      "broken JSON ends the stream",
			input:     "{\"id\":1,\n",
			violation: "non-JSON",
		},
		{
			name:      "a bare JSON value is not a message",
			input:     "42\n",
			violation: "non-JSON",
		},
		{
			name:      "an oversized response becomes an error for its id",
			input:     `{"jsonrpc":"2.0","id":"toolhub-3","result":{"text":"` + long + "\"}}\n{\"id\":4}\n",
			want:      `{"error":{"code":-32603,"message":"response of 156 bytes exceeds the 64-byte limit"},"id":"toolhub-3","jsonrpc":"2.0"}` + "\n{\"id\":4}\n",
			oversized: []string{`"toolhub-3"`},
		},
		{
			name:      "the id may come last",
			input:     `{"result":{"text":"` + long + `"},"jsonrpc":"2.0","id":7}` + "\n",
			want:      `{"error":{"code":-32603,"message":"response of 146 bytes exceeds the 64-byte limit"},"id":7,"jsonrpc":"2.0"}` + "\n",
			oversized: []string{`7`},
		},
		{
			name:      "an oversized notification ends the stream",
			input:     `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + long + "\"}}\n",
			violation: "over the 64-byte limit",
		},
		{
			name:      "an oversized message without id ends the stream",
			input:     `{"result":"` + long + "\"}\n",
			violation: "over the 64-byte limit",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, oversized, violation := framed(t, tc.input, 64)
			if out != tc.want {
				t.Errorf("output:\n got %q\nwant %q", out, tc.want)
			}
			if strings.Join(oversized, ",") != strings.Join(tc.oversized, ",") {
				t.Errorf("oversized ids: got %v, want %v", oversized, tc.oversized)
			}
			switch {
			case tc.violation == "" && violation != nil:
				t.Errorf("unexpected violation: %v", violation)
			case tc.violation != "" && (violation == nil || !strings.Contains(violation.Error(), tc.violation)):
				t.Errorf("violation: got %v, want one containing %q", violation, tc.violation)
			}
		})
	}
}

// TestStdoutFramerLargeLineInSmallReads checks that a line longer than the
// framer's read buffer, arriving a few bytes at a time, is passed on whole.
func TestStdoutFramerLargeLineInSmallReads(t *testing.T) {
	line := `{"id":1,"result":"` + strings.Repeat("q", 200<<10) + `"}`
	f := NewStdoutFramer(&trickleReader{data: []byte(line + "\n"), step: 4093}, 1<<20, FramerHooks{
		Oversize:  func(json.RawMessage, int64) { t.Error("not oversized") },
		Violation: func(err error) { t.Errorf("violation: %v", err) },
		End:       func() {},
	})
	out, err := readMessages(f)
	if !errors.Is(err, io.EOF) || string(out) != line+"\n" {
		t.Fatalf("got %d bytes, %v", len(out), err)
	}
}

// trickleReader returns at most step bytes per Read.
type trickleReader struct {
	data []byte
	step int
}

func (r *trickleReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.step)], r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestStdoutFramerPassesReadErrors(t *testing.T) {
	boom := errors.New("pipe closed")
	ends := 0
	f := NewStdoutFramer(io.MultiReader(strings.NewReader("{\"id\":1}\n"), &failingReader{boom}), 64, FramerHooks{
		Oversize:  func(json.RawMessage, int64) {},
		Violation: func(error) {},
		End:       func() { ends++ },
	})
	out, err := readMessages(f)
	if string(out) != "{\"id\":1}\n" || !errors.Is(err, boom) {
		t.Fatalf("got %q, %v", out, err)
	}
	if _, err := f.NextMessage(); !errors.Is(err, boom) || ends != 1 {
		t.Fatalf("after the end: %v, end reported %d times", err, ends)
	}
}

type failingReader struct{ err error }

func (r *failingReader) Read([]byte) (int, error) { return 0, r.err }

// FuzzStdoutFramer feeds arbitrary child output through a small limit: the
// framer must never panic, and whatever it passes on must be one valid JSON
// object or array per line.
func FuzzStdoutFramer(f *testing.F) {
	f.Add([]byte("{\"id\":1}\n{\"method\":\"m\"}\n"), 32)
	f.Add([]byte(`{"id":"a","result":"`+strings.Repeat("x", 80)+"\"}\n"), 16)
	f.Add([]byte("garbage\n"), 64)
	f.Add([]byte("\n\n\r\n[1,2]\n"), 8)
	f.Fuzz(func(t *testing.T, input []byte, limit int) {
		limit = 1 + abs(limit)%256
		out, _, _ := framed(t, string(input), limit)
		for _, line := range bytes.Split([]byte(out), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			if !json.Valid(line) || (line[0] != '{' && line[0] != '[') {
				t.Fatalf("passed on a line that is not a JSON message: %q", line)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
