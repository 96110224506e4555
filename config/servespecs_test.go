package config

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestServeSpecsKeepBadEntriesAsInvalid(t *testing.T) {
	const src = `{"mcpServers": {
  "good": {"command": "g", "env": {"HOME_DIR": "${HOME}"}},
  "vscode": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}", "X-Key": "${KEY}"}},
  "unset": {"command": "u", "env": {"TOKEN": "${NOT_SET}"}},
  "off": {"command": "x", "enabled": false, "env": {"X": "${input:x}"}}
}}`
	f, err := Parse("c.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	env := fakeEnv(map[string]string{"HOME": "/h", "KEY": "very-secret-value"})
	if _, err := f.Specs(env); err == nil {
		t.Fatal("Specs (config check) must still fail on the bad entries")
	}
	specs := f.ServeSpecs(env)
	byName := map[string]int{}
	for i, s := range specs {
		byName[s.Name] = i
	}
	if _, ok := byName["off"]; ok || len(specs) != 3 {
		t.Fatalf("got %d specs %v, want the three enabled servers", len(specs), byName)
	}
	cases := []struct {
		name        string
		wantInvalid []string // empty: the server is usable
	}{
		{"good", nil},
		{"vscode", []string{`c.json:3:81: server "vscode": headers.Authorization: "${input:token}" is not a variable reference`}},
		{"unset", []string{`c.json:4:46: server "unset": env.TOKEN: environment variable NOT_SET is not set`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := specs[byName[tc.name]]
			if len(tc.wantInvalid) == 0 {
				if s.Invalid != "" || s.Env["HOME_DIR"] != "/h" {
					t.Fatalf("usable server: %+v", s)
				}
				return
			}
			for _, w := range tc.wantInvalid {
				if !strings.Contains(s.Invalid, w) {
					t.Errorf("Invalid %q lacks %q", s.Invalid, w)
				}
			}
			if strings.Contains(s.Invalid, "very-secret-value") || s.Headers != nil || s.Env != nil {
				t.Errorf("an invalid server keeps or shows values: %+v", s)
			}
		})
	}
}

func TestParseServeKeepsBadEntriesAside(t *testing.T) {
	cases := []struct {
		name          string
		entry         string
		want          string        // a problem of the bad entry, with its position
		wantTransport hub.Transport // empty: the entry does not say
	}{
		{"unknown type", `{"type": "websocket", "url": "https://x.example/mcp"}`, `c.json:3:19: server "bad": unknown type "websocket"`, hub.TransportHTTP},
		{"no command or url", `{"args": ["x"]}`, `c.json:3:3: server "bad": needs "command"`, ""},
		{"bad url", `{"url": "ftp://x.example"}`, `c.json:3:18: server "bad": url: want an http:// or https:// URL`, hub.TransportHTTP},
		{"command not a string", `{"command": 42}`, `c.json:3:22: server "bad": command: want a string, got a number`, ""},
		{"bad args of a command", `{"command": "x", "args": "y"}`, `server "bad": args:`, hub.TransportStdio},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "{\"mcpServers\": {\n  \"good\": {\"command\": \"g\"},\n  \"bad\": " + tc.entry + "\n}}"
			if _, err := Parse("c.json", []byte(src)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse (config check): got %v, want %q", err, tc.want)
			}
			f, err := ParseServe("c.json", []byte(src))
			if err != nil {
				t.Fatalf("ParseServe failed on one bad entry: %v", err)
			}
			if _, err := f.Specs(fakeEnv(nil)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Specs: got %v, want %q", err, tc.want)
			}
			specs := f.ServeSpecs(fakeEnv(nil))
			if len(specs) != 2 || specs[0].Name != "bad" || specs[1].Name != "good" {
				t.Fatalf("specs %+v, want bad and good", specs)
			}
			if !strings.Contains(specs[0].Invalid, tc.want) || specs[1].Invalid != "" {
				t.Errorf("bad: Invalid %q, want %q; good: %q", specs[0].Invalid, tc.want, specs[1].Invalid)
			}
			if specs[0].Transport != tc.wantTransport || (tc.wantTransport == "") != (specs[0].Locality == "") {
				t.Errorf("bad: transport %q locality %q, want transport %q and a locality only with it",
					specs[0].Transport, specs[0].Locality, tc.wantTransport)
			}
		})
	}
	// An unknown top-level key (another program's) is left out, said where;
	// a problem of the servers' section itself still fails the file.
	f, err := ParseServe("c.json", []byte("{\"mcpServers\": {},\n \"globalShortcut\": \"Ctrl+Space\"}"))
	if err != nil || len(f.LeftOut) != 1 || f.LeftOut[0].String() != `c.json:2:2: unknown top-level key "globalShortcut"` {
		t.Errorf("ParseServe of a file with another program's key: %v, left out %v", err, f)
	}
	if _, err := ParseServe("c.json", []byte(`{"mcpServers": 1}`)); err == nil {
		t.Error("ParseServe accepted mcpServers that is not an object")
	}
}

func TestParseServeKeepsBadAndTwiceGivenNamesAside(t *testing.T) {
	cases := []struct {
		name    string
		entries string // after "ok", which stays usable
		invalid string // the entry kept aside
		want    []string
	}{
		{"a dot in the name", `"my.server": {"command": "x"}`, "my.server",
			[]string{`c.json:3:3: server name "my.server": use only letters`}},
		{"the tool separator in the name", `"a__b": {"command": "x"}`, "a__b",
			[]string{`c.json:3:3: server name "a__b" must not contain "__"`}},
		{"a name given twice", `"twice": {"command": "x"},
  "twice": {"command": "y"}`, "twice",
			[]string{`c.json:4:3: mcpServers: duplicate key "twice" (first at line 3, column 3)`}},
		{"a bad entry's name given again", `"twice": {"command": 1},
  "twice": {"command": "y"}`, "twice",
			[]string{`c.json:3:24: server "twice": command: want a string`, `c.json:4:3: mcpServers: duplicate key "twice"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "{\"mcpServers\": {\n  \"ok\": {\"command\": \"g\"},\n  " + tc.entries + "\n}}"
			if _, err := Parse("c.json", []byte(src)); err == nil || !strings.Contains(err.Error(), tc.want[0]) {
				t.Fatalf("Parse (config check): got %v, want %q", err, tc.want[0])
			}
			f, err := ParseServe("c.json", []byte(src))
			if err != nil {
				t.Fatalf("ParseServe failed on one bad entry: %v", err)
			}
			specs := f.ServeSpecs(fakeEnv(nil))
			byName := map[string]hub.ServerSpec{}
			for _, s := range specs {
				byName[s.Name] = s
			}
			if len(specs) != 2 || byName["ok"].Invalid != "" {
				t.Fatalf("specs %+v, want ok usable and %s aside", specs, tc.invalid)
			}
			for _, w := range tc.want {
				if !strings.Contains(byName[tc.invalid].Invalid, w) {
					t.Errorf("%s: Invalid %q lacks %q", tc.invalid, byName[tc.invalid].Invalid, w)
				}
			}
		})
	}
}
