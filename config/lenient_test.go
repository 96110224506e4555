package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// TestReadModelsServeLeavesOutTheBadParts: each problem leaves out the
// part it stands in (a model entry, an orchestrator key, or the
// orchestrator section for a problem of the section as a whole), the rest
// is read as written, and the problems come back where ReadModels would
// report them.
func TestReadModelsServeLeavesOutTheBadParts(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		wantModels   string // names of the models read, in order
		wantLeftOut  string // names of the model entries left out, in order
		wantURL      string // the orchestrator's baseUrl
		wantVariant  policies.Variant
		wantTurns    int
		wantProblems []string // "line:col: message" prefixes
	}{
		{name: "no problem", src: `{"models": {"a": {"baseUrl": "http://h/v1", "model": "m"}}}`,
			wantModels: "a", wantURL: DefaultOrchestratorURL},
		{name: "a bad model entry", src: `{
  "models": {
    "a": {"baseUrl": "http://h/v1", "model": "m", "roles": ["answr"]},
    "b": {"baseUrl": "http://h/v1", "model": "m"},
    "c": {"baseUrl": "ftp://h", "model": "m"}
  }
}`, wantModels: "b", wantLeftOut: "a,c", wantURL: DefaultOrchestratorURL,
			wantProblems: []string{`3:60: models.a.roles: unknown role "answr"`, `5:10: models.c: baseUrl "ftp://h"`}},
		{name: "a bad orchestrator key keeps the others", src: `{
  "orchestrator": {"baseUrl": "http://10.0.0.2:8000/v1", "variant": "gaia", "maxTurns": 12}
}`, wantURL: "http://10.0.0.2:8000/v1", wantTurns: 12,
			wantProblems: []string{`2:69: orchestrator.variant: research variant "gaia"`}},
		{name: "an unknown orchestrator key", src: `{"orchestrator": {"maxTurns": 12, "varient": "frames"}}`,
			wantURL: DefaultOrchestratorURL, wantTurns: 12,
			wantProblems: []string{`1:35: orchestrator: unknown key "varient"`}},
		{name: "a problem of the whole section", src: `{"orchestrator": {"baseUrl": "ftp://h", "variant": "frames"}}`,
			wantURL:      DefaultOrchestratorURL,
			wantProblems: []string{`1:18: orchestrator: baseUrl "ftp://h" is not an http(s) URL`}},
		{name: "a section given twice", src: `{"models": {"a": {"baseUrl": "http://h/v1", "model": "m"}}, "models": {}}`,
			wantModels: "a", wantURL: DefaultOrchestratorURL,
			wantProblems: []string{`1:61: duplicate key "models"`}},
		{name: "models that are not an object", src: `{"models": [], "orchestrator": {"variant": "frames"}}`,
			wantURL: DefaultOrchestratorURL, wantVariant: policies.VariantFRAMES,
			wantProblems: []string{`1:12: models:`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, problems, err := ReadModelsServe("c.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, ep := range m.Endpoints {
				names = append(names, ep.Name)
			}
			if got := strings.Join(names, ","); got != tc.wantModels {
				t.Errorf("models %q, want %q", got, tc.wantModels)
			}
			var left []string
			for _, lo := range m.LeftOut {
				left = append(left, lo.Name)
				if len(lo.Problems) == 0 {
					t.Errorf("%s left out without its problems", lo.Name)
				}
			}
			if got := strings.Join(left, ","); got != tc.wantLeftOut {
				t.Errorf("left out %q, want %q", got, tc.wantLeftOut)
			}
			if m.Orchestrator.BaseURL != tc.wantURL || m.Variant != tc.wantVariant || m.MaxTurns != tc.wantTurns {
				t.Errorf("orchestrator at %q, variant %q, %d turns; want %q, %q, %d",
					m.Orchestrator.BaseURL, m.Variant, m.MaxTurns, tc.wantURL, tc.wantVariant, tc.wantTurns)
			}
			if len(problems) != len(tc.wantProblems) {
				t.Fatalf("problems %v, want %d", problems, len(tc.wantProblems))
			}
			for i, p := range problems {
				if want := "c.json:" + tc.wantProblems[i]; !strings.HasPrefix(p.String(), want) {
					t.Errorf("problem %d: %q, want it to start %q", i, p, want)
				}
			}
		})
	}
}

// TestReadModelsServeRefusesWhatItCannotSplit: a syntax error, or a
// problem outside the sections read, is still an error.
func TestReadModelsServeRefusesWhatItCannotSplit(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":                   `{"models": {`,
		"not an object at the top": `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ReadModelsServe("c.json", []byte(src))
			var pe *ProblemsError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v, want the file's problems", err)
			}
		})
	}
}

// TestReadBuiltinToolsServe: a python or webSearch section with a problem
// is left out whole and its tool is not offered; the other section is
// read.
func TestReadBuiltinToolsServe(t *testing.T) {
	src := `{
  "python": {"enabled": false},
  "webSearch": {"provider": "bing"}
}`
	tools, problems, err := ReadBuiltinToolsServe("c.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !tools.Python.Disabled || tools.WebSearch != nil {
		t.Fatalf("python disabled %v, web search %+v; want python as written and no web search", tools.Python.Disabled, tools.WebSearch)
	}
	if len(problems) != 1 || !strings.HasPrefix(problems[0].String(), "c.json:3:29: webSearch.provider") {
		t.Fatalf("problems %v", problems)
	}
	tools, problems, err = ReadBuiltinToolsServe("c.json", []byte(`{"python": {"memoryMB": "lots"}, "webSearch": {"provider": "brave"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !tools.Python.Disabled || tools.WebSearch == nil || len(problems) != 1 {
		t.Fatalf("python %+v, web search %+v, problems %v; want python off and brave", tools.Python, tools.WebSearch, problems)
	}
	// A section that says "enabled": false and has a problem besides never
	// turns the code interpreter on.
	tools, _, err = ReadBuiltinToolsServe("c.json", []byte(`{"python": {"enabled": false, "memoryMB": -1}}`))
	if err != nil || !tools.Python.Disabled {
		t.Fatalf("python %+v (%v), want it off", tools.Python, err)
	}
}

// FuzzReadModelsServe: the lenient reads never panic; a file the strict
// read takes is read the same with no problems, and a file they take
// otherwise comes back with the strict read's problems, every part with
// one left out so that the rest reads cleanly. ParseServe leaves nothing
// out of a file Parse takes.
func FuzzReadModelsServe(f *testing.F) {
	f.Add([]byte(`{"models": {"a": {"baseUrl": "http://h/v1", "model": "m", "roles": ["x"]}}, "orchestrator": {"variant": "y"}}`))
	f.Add([]byte(`{"orchestrator": {"baseUrl": "ftp://h"}, "python": {"memoryMB": -1}, "webSearch": {"provider": 1}}`))
	f.Add([]byte(`{"models": {"a": {}, "a": {}}, "models": []}`))
	f.Add([]byte("{\"documents\": 1, \"x\": 2,\n \"mcpServers\": {\"a\": {\"args\": []}}}"))
	f.Add(Starter())
	f.Fuzz(func(t *testing.T, data []byte) {
		_, strict := ReadModels("fuzz.json", data)
		m, problems, err := ReadModelsServe("fuzz.json", data)
		checkLenient(t, strict, m != nil, problems, err)
		_, strict = ReadBuiltinTools("fuzz.json", data)
		b, problems, err := ReadBuiltinToolsServe("fuzz.json", data)
		checkLenient(t, strict, b != nil, problems, err)
		if _, err := Parse("fuzz.json", data); err == nil {
			if f, err := ParseServe("fuzz.json", data); err != nil || len(f.LeftOut) != 0 {
				t.Fatalf("ParseServe of a clean file: %v, left out %v", err, f)
			}
		}
	})
}

func checkLenient(t *testing.T, strict error, read bool, problems []Problem, err error) {
	t.Helper()
	var pe *ProblemsError
	switch {
	case strict == nil:
		if err != nil || len(problems) != 0 || !read {
			t.Fatalf("a clean file: err %v, problems %v", err, problems)
		}
	case err != nil:
		if err.Error() != strict.Error() {
			t.Fatalf("refused with %v, want the strict read's %v", err, strict)
		}
	case !errors.As(strict, &pe) || !read || len(problems) != len(pe.Problems):
		t.Fatalf("read with problems %v, want the strict read's %v", problems, strict)
	}
}

// TestParseServeLeavesOutABadDocumentsSection: a documents section with a
// problem is left out whole (its roots are not indexed), the servers are
// read with every position where it was, and other problems still fail.
func TestParseServeLeavesOutABadDocumentsSection(t *testing.T) {
	tests := []struct {
		name, src string
		wantLeft  []string // problems left out; nil: ParseServe fails
	}{
		{name: "a bad exclude pattern", src: `{
  "documents": {"roots": ["/home/me/notes"],
                "exclude": ["[unclosed"]},
  "mcpServers": {"good": {"command": "g"}, "bad": {"args": []}}
}`, wantLeft: []string{`c.json:3:28: documents.exclude: bad pattern`}},
		{name: "a one-digit documents value", src: `{"documents": 1, "mcpServers": {"good": {"command": "g"}, "bad": {"args": []}}}`,
			wantLeft: []string{`c.json:1:15: documents: want an object`}},
		{name: "a problem elsewhere too", src: `{"documents": 1, "mcpServers": 1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseServe("c.json", []byte(tc.src))
			if tc.wantLeft == nil {
				if err == nil {
					t.Fatal("ParseServe took a file with a problem outside the documents section")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Documents.Roots) != 0 || len(f.LeftOut) != len(tc.wantLeft) {
				t.Fatalf("roots %v, left out %v", f.Documents.Roots, f.LeftOut)
			}
			for i, p := range f.LeftOut {
				if !strings.HasPrefix(p.String(), tc.wantLeft[i]) {
					t.Errorf("left out %q, want it to start %q", p, tc.wantLeft[i])
				}
			}
			_, strict := Parse("c.json", []byte(tc.src))
			specs := f.ServeSpecs(func(string) (string, bool) { return "", false })
			if len(specs) != 2 || specs[0].Name != "bad" || specs[0].Invalid == "" ||
				!strings.Contains(strict.Error(), specs[0].Invalid) {
				t.Fatalf("specs %+v; the bad server's problem should stand where config check puts it:\n%v", specs, strict)
			}
		})
	}
}
