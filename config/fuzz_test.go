package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse checks that no input makes Parse panic, that every problem has
// a position, and that every server it accepts is written back by
// AddServers' encoder into an equal, valid server.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/parse/*.jsonc")
	more, _ := filepath.Glob("testdata/merge/*.jsonc")
	for _, path := range append(seeds, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(Starter())
	f.Add([]byte(`{"mcpServers": {"a": {"url": "http://[::1]:1/sse", "timeout": 1e-9, "costPerCall": 1e308}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.json", data)
		if err != nil {
			var pe *ProblemsError
			if !errors.As(err, &pe) || len(pe.Problems) == 0 {
				t.Fatalf("error %T without problems: %v", err, err)
			}
			for _, p := range pe.Problems {
				if p.Line < 1 || p.Col < 1 {
					t.Fatalf("problem without a position: %+v", p)
				}
			}
			return
		}
		everythingSet := func(string) (string, bool) { return "v", true }
		_, _ = file.Specs(everythingSet)
		for name, s := range file.MCPServers {
			if msgs := checkServer(name, s); len(msgs) > 0 {
				t.Fatalf("server %q re-encodes with problems %q", name, msgs)
			}
			back := normalized(reencode(t, name, s))
			if s := normalized(s); !reflect.DeepEqual(back, s) {
				t.Fatalf("server %q changed when written back:\n%#v\n%#v", name, s, back)
			}
		}
	})
}

// normalized drops positions and turns empty lists and maps into nil, so
// that servers equal in meaning compare equal.
func normalized(s Server) Server {
	s.at = nil
	if len(s.Args) == 0 {
		s.Args = nil
	}
	if len(s.Env) == 0 {
		s.Env = nil
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
	if len(s.DisabledTools) == 0 {
		s.DisabledTools = nil
	}
	if s.OAuth != nil && len(s.OAuth.Scopes) == 0 {
		o := *s.OAuth
		o.Scopes = nil
		s.OAuth = &o
	}
	return s
}

// reencode writes s as AddServers would and parses it again.
func reencode(t *testing.T, name string, s Server) Server {
	t.Helper()
	body, err := marshalServer(s, "", "  ", false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("back.json", []byte(`{"mcpServers": {`+quoteJSON(t, name)+`: `+string(body)+`}}`))
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	return f.MCPServers[name]
}

func quoteJSON(t *testing.T, s string) string {
	t.Helper()
	body, err := oneLineJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	return body
}
