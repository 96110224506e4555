package secrets

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestFileIsPrivate(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{Dir: dir, Backend: BackendFile})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("api.KEY", "sk-private"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, secretsFile)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %04o; want 0600", st.Mode().Perm())
	}
	if v, err := s.Get("api.KEY"); err != nil || v != "sk-private" {
		t.Errorf("Get = %q, %v", v, err)
	}
}

func TestFileReadableByOthersIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files are guarded by ACLs, not mode bits")
	}
	for _, tt := range []struct {
		name string
		mode os.FileMode
	}{
		{"group readable", 0o640},
		{"world readable", 0o604},
		{"group writable", 0o620},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(Options{Dir: dir, Backend: BackendFile})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Set("api.KEY", "sk-private"); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(dir, secretsFile), tt.mode); err != nil {
				t.Fatal(err)
			}
			_, err = s.Get("api.KEY")
			if err == nil || !strings.Contains(err.Error(), "chmod 600") {
				t.Fatalf("Get = %v; want a refusal that says how to fix the mode", err)
			}
			if strings.Contains(err.Error(), "sk-private") {
				t.Errorf("the error holds the value: %v", err)
			}
			if err := s.Set("other", "x"); err == nil {
				t.Error("Set rewrote a file others could read")
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr string
	}{
		{"two secrets", `{"version":1,"secrets":{"a.B":"x","oauth:c":"y"}}`, map[string]string{"a.B": "x", "oauth:c": "y"}, ""},
		{"no secrets key", `{"version":1}`, map[string]string{}, ""},
		{"unknown keys are kept out", `{"version":1,"secrets":{},"note":"hi"}`, map[string]string{}, ""},
		{"other version", `{"version":2,"secrets":{}}`, nil, "version 2"},
		{"no version", `{"secrets":{}}`, nil, "version 0"},
		{"not json", `{"version":1,"secrets":{"a":"sk-leak`, nil, "not valid JSON"},
		{"wrong shape", `{"version":1,"secrets":["sk-leak"]}`, nil, "want {"},
		{"bad name", `{"version":1,"secrets":{"a b":"x"}}`, nil, "not allowed"},
		{"empty", ``, nil, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFile([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v; want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "sk-leak") {
					t.Errorf("the error quotes the file: %v", err)
				}
				return
			}
			if err != nil || !maps.Equal(got, tt.want) {
				t.Errorf("parseFile = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func FuzzParseFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"secrets":{"a.B":"x","oauth:c":"y"}}`))
	f.Add([]byte(`{"version":1,"secrets":{"k":"\u003c\"\\"}}`))
	f.Add([]byte(`{"version":1,"secrets":null}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"version":1,"secrets":{"a":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		values, err := parseFile(data)
		if err != nil {
			if len(data) >= 16 && strings.Contains(err.Error(), string(data)) {
				t.Fatalf("the error quotes the file: %v", err)
			}
			return
		}
		again, err := parseFile(encodeFile(values))
		if err != nil {
			t.Fatalf("a parsed file does not parse once written: %v", err)
		}
		if !maps.Equal(values, again) {
			t.Fatalf("round trip changed the secrets: %v then %v", values, again)
		}
	})
}
