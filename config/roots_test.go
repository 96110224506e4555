package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAddDocumentRoot(t *testing.T) {
	cases := []struct {
		name, before string
		wantRoots    []string
		wantAdded    bool
	}{
		{"no documents section", "{\n  // my servers\n  \"mcpServers\": {}\n}\n", []string{"/data/notes"}, true},
		{"no roots yet", `{"mcpServers": {}, "documents": {"exclude": ["*.log"]}}`, []string{"/data/notes"}, true},
		{"appended", `{"documents": {"roots": ["/a"]}}`, []string{"/a", "/data/notes"}, true},
		{"already listed", `{"documents": {"roots": ["/data/notes"]}}`, []string{"/data/notes"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			added, err := AddDocumentRoot(path, "/data/notes")
			if err != nil || added != tc.wantAdded {
				t.Fatalf("added %v, err %v", added, err)
			}
			data, _ := os.ReadFile(path)
			f, err := Parse(path, data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if strings.Join(f.Documents.Roots, ",") != strings.Join(tc.wantRoots, ",") {
				t.Errorf("roots %v, want %v\n%s", f.Documents.Roots, tc.wantRoots, data)
			}
			if strings.Contains(tc.before, "// my servers") && !strings.Contains(string(data), "// my servers") {
				t.Errorf("the comment was lost:\n%s", data)
			}
		})
	}
}

func TestAddDocumentRootRefusesBrokenConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": [}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := AddDocumentRoot(path, "/x"); err == nil {
		t.Fatal("a broken config was edited")
	}
	if data, _ := os.ReadFile(path); string(data) != `{"mcpServers": [}` {
		t.Errorf("the broken config changed: %s", data)
	}
}
