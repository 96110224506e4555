package mcp

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOrCreateTokenCreatesAPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conf", "toolhub", "token")
	token, err := LoadOrCreateToken(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != tokenBytes {
		t.Errorf("token %q is not %d bytes of base64url (%v)", token, tokenBytes, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if modeBitsGuardFiles && st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode = %v, want 0600", st.Mode().Perm())
	}
	if modeBitsGuardFiles && dir.Mode().Perm() != 0o700 {
		t.Errorf("token directory mode = %v, want 0700", dir.Mode().Perm())
	}
	again, err := LoadOrCreateToken(path)
	if err != nil || again != token {
		t.Errorf("second load = %q, %v; want the same token %q", again, err, token)
	}
	other, err := LoadOrCreateToken(filepath.Join(t.TempDir(), "token"))
	if err != nil || other == token {
		t.Errorf("a second file got %q, %v; want a different token", other, err)
	}
}

func TestLoadOrCreateTokenReadsAGivenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(path, []byte("  my-own-token-of-some-length\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadOrCreateToken(path)
	if err != nil || got != "my-own-token-of-some-length" {
		t.Errorf("LoadOrCreateToken = %q, %v", got, err)
	}
}

func TestParseToken(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"plain", "abcdefghijklmnop", "abcdefghijklmnop", true},
		{"trailing newline", "abcdefghijklmnop\n", "abcdefghijklmnop", true},
		{"crlf", "abcdefghijklmnop\r\n", "abcdefghijklmnop", true},
		{"too short", "abc", "", false},
		{"empty", "", "", false},
		{"two words", "abcdefgh ijklmnop", "", false},
		{"two lines", "abcdefghijklmnop\nqrstuvwxyz", "", false},
		{"non-ascii", "abcdefghijklmnopé", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseToken([]byte(tt.in))
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseToken(%q) = %q, %v", tt.in, got, err)
			}
		})
	}
}

func FuzzParseToken(f *testing.F) {
	for _, s := range []string{"abcdefghijklmnop", " x\n", "", "abcdefghijklmnop\x00", strings.Repeat("é", 20)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		token, err := parseToken(data)
		if err != nil {
			return
		}
		if len(token) < minTokenLen {
			t.Errorf("accepted a %d-character token", len(token))
		}
		for _, c := range []byte(token) {
			if c < 0x21 || c > 0x7e {
				t.Errorf("accepted token %q with byte %#x, unusable in a header", token, c)
			}
		}
	})
}

func TestBearerToken(t *testing.T) {
	tests := []struct {
		header, want string
		ok           bool
	}{
		{"Bearer abc", "abc", true},
		{"bearer abc", "abc", true},
		{"BEARER   abc  ", "abc", true},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Basic abc", "", false},
		{"", "", false},
		{"abc", "", false},
	}
	for _, tt := range tests {
		got, ok := bearerToken(tt.header)
		if got != tt.want || ok != tt.ok {
			t.Errorf("bearerToken(%q) = %q, %v; want %q, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}
