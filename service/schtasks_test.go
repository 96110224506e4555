package service

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestWindowsQuote(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", `serve`, `serve`},
		{"empty", ``, `""`},
		{"space", `C:\Program Files\toolhub.exe`, `"C:\Program Files\toolhub.exe"`},
		{"trailing backslash", `C:\My Dir\`, `"C:\My Dir\\"`},
		{"quote", `a "b"`, `"a \"b\""`},
		{"backslash before quote", `a\"b c`, `"a\\\"b c"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := windowsQuote(tc.in); got != tc.want {
				t.Fatalf("windowsQuote(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestTaskState(t *testing.T) {
	cases := []struct{ name, out, want string }{
		{"running", `"\toolhub","N/A","Running"` + "\r\n", "Running"},
		{"ready", `"\toolhub","12/2/2026 9:00:00 AM","Ready"`, "Ready"},
		{"garbage", `ERROR: nonsense`, "unknown"},
		{"empty", ``, "unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := TaskState([]byte(tc.out)); got != tc.want {
				t.Fatalf("TaskState = %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzTaskState(f *testing.F) {
	f.Add(`"\toolhub","N/A","Running"`)
	f.Add("\"a\n")
	f.Fuzz(func(t *testing.T, out string) {
		if got := TaskState([]byte(out)); got == "" && !strings.Contains(out, ",") {
			t.Fatalf("TaskState(%q) is empty", out)
		}
	})
}

func TestSchtasksInstallUninstall(t *testing.T) {
	ctx := context.Background()
	query := "schtasks /Query /TN toolhub /FO CSV /NH"
	r := &fakeRunner{answers: map[string]fakeAnswer{query: {out: `"\toolhub","N/A","Running"`}}}
	var xmlPath string
	var definition []byte
	r.onRun = func(_ string, args []string) {
		if len(args) == 6 && args[4] == "/XML" {
			xmlPath = args[5]
			definition, _ = os.ReadFile(xmlPath)
		}
	}
	opts := Options{Executable: `C:\toolhub\toolhub.exe`, Args: []string{"serve", "--http=127.0.0.1:8765"}, Runner: r}
	m, err := New("windows", opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Install(ctx); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(definition, TaskXML(opts)) {
		t.Fatalf("schtasks /XML read %d bytes, want the %d of TaskXML", len(definition), len(TaskXML(opts)))
	}
	if _, err := os.Stat(xmlPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the task definition %s is left behind: %v", xmlPath, err)
	}
	if st, err := m.Status(ctx); err != nil || !st.Installed || st.State != "Running" {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if err := m.Uninstall(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"schtasks " + strings.Join(CreateArgs(xmlPath), " "),
		"schtasks /Run /TN toolhub",
		query,
		query,
		"schtasks /End /TN toolhub",
		"schtasks /Delete /F /TN toolhub",
	}
	if !slices.Equal(r.calls, want) {
		t.Fatalf("calls\n%s\nwant\n%s", strings.Join(r.calls, "\n"), strings.Join(want, "\n"))
	}
}

func TestSchtasksCreateFails(t *testing.T) {
	// The create names a file made at random, so its failure is set as it runs.
	var xmlPath string
	r := &fakeRunner{answers: map[string]fakeAnswer{}}
	r.onRun = func(name string, args []string) {
		xmlPath = args[len(args)-1]
		r.answers[name+" "+strings.Join(args, " ")] = fakeAnswer{err: errExit}
	}
	m, _ := New("windows", Options{Executable: `C:\toolhub.exe`, Runner: r})
	err := m.Install(context.Background())
	if err == nil || !strings.Contains(err.Error(), "create the scheduled task") || len(r.calls) != 1 {
		t.Fatalf("Install = %v with calls %v; want the create's failure alone", err, r.calls)
	}
	if _, err := os.Stat(xmlPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the task definition %s is left behind: %v", xmlPath, err)
	}
}

func TestSchtasksUninstallWithoutTask(t *testing.T) {
	r := &fakeRunner{answers: map[string]fakeAnswer{"schtasks /Query /TN toolhub /FO CSV /NH": {err: errExit}}}
	m, _ := New("windows", Options{Executable: `C:\toolhub.exe`, Runner: r})
	if err := m.Uninstall(context.Background()); err != nil || len(r.calls) != 1 {
		t.Fatalf("Uninstall = %v with calls %v; want only the query", err, r.calls)
	}
}

func TestTaskArguments(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"logs in LOCALAPPDATA", Options{Args: []string{"serve"}, LocalAppData: `C:\Users\Ann Lee\AppData\Local`},
			`--log-file "C:\Users\Ann Lee\AppData\Local\toolhub\toolhub.log" service run -- serve`},
		{"logs under the profile without LOCALAPPDATA", Options{Args: []string{"serve"}, Home: `C:\Users\ann\`},
			`--log-file C:\Users\ann\AppData\Local\toolhub\toolhub.log service run -- serve`},
		{"a config path with spaces", Options{Args: []string{"--config", `C:\My Files\t.json`, "serve"}, LocalAppData: `C:\L`},
			`--log-file C:\L\toolhub\toolhub.log service run -- --config "C:\My Files\t.json" serve`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := TaskArguments(tc.opts); got != tc.want {
				t.Fatalf("TaskArguments = %s\nwant %s", got, tc.want)
			}
		})
	}
}

// taskXMLDoc is the part of a task definition TestTaskXML reads back.
type taskXMLDoc struct {
	UserIDs  []string `xml:"Triggers>LogonTrigger>UserId"`
	Settings struct {
		DisallowStartIfOnBatteries bool   `xml:"DisallowStartIfOnBatteries"`
		StopIfGoingOnBatteries     bool   `xml:"StopIfGoingOnBatteries"`
		ExecutionTimeLimit         string `xml:"ExecutionTimeLimit"`
		MultipleInstancesPolicy    string `xml:"MultipleInstancesPolicy"`
	} `xml:"Settings"`
	Command   string `xml:"Actions>Exec>Command"`
	Arguments string `xml:"Actions>Exec>Arguments"`
}

func TestTaskXML(t *testing.T) {
	cases := []struct {
		name      string
		user      string
		wantUsers []string
	}{
		{"for one user", `LAB\ann & co`, []string{`LAB\ann & co`}},
		{"user unknown", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Executable: `C:\R&D\toolhub.exe`, Args: []string{"--config", `C:\a<b>\c.json`, "serve"},
				LocalAppData: `C:\L`, User: tc.user}
			raw := TaskXML(opts)
			if len(raw)%2 != 0 || raw[0] != 0xFF || raw[1] != 0xFE {
				t.Fatalf("TaskXML does not start with a UTF-16LE byte order mark: % x", raw[:2])
			}
			units := make([]uint16, 0, len(raw)/2-1)
			for i := 2; i < len(raw); i += 2 {
				units = append(units, uint16(raw[i])|uint16(raw[i+1])<<8)
			}
			text := string(utf16.Decode(units))
			if strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\n") {
				t.Fatal("TaskXML has a line end other than CRLF")
			}
			var doc taskXMLDoc
			dec := xml.NewDecoder(strings.NewReader(text))
			dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("TaskXML is not well-formed: %v", err)
			}
			s := doc.Settings
			if s.DisallowStartIfOnBatteries || s.StopIfGoingOnBatteries || s.ExecutionTimeLimit != "PT0S" || s.MultipleInstancesPolicy != "IgnoreNew" {
				t.Fatalf("settings %+v: want it to run on battery, without a time limit, once", s)
			}
			if doc.Command != opts.Executable || doc.Arguments != TaskArguments(opts) {
				t.Fatalf("action %q %q; want %q %q", doc.Command, doc.Arguments, opts.Executable, TaskArguments(opts))
			}
			if !slices.Equal(doc.UserIDs, tc.wantUsers) {
				t.Fatalf("logon trigger users %q, want %q", doc.UserIDs, tc.wantUsers)
			}
		})
	}
}
