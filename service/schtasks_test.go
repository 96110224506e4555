package service

import (
	"context"
	"slices"
	"strings"
	"testing"
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
	opts := Options{Executable: `C:\toolhub\toolhub.exe`, Args: []string{"serve", "--http=127.0.0.1:8765"}, Runner: r}
	m, err := New("windows", opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Install(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := m.Status(ctx); err != nil || !st.Installed || st.State != "Running" {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if err := m.Uninstall(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"schtasks " + strings.Join(CreateArgs(opts), " "),
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

func TestSchtasksUninstallWithoutTask(t *testing.T) {
	r := &fakeRunner{answers: map[string]fakeAnswer{"schtasks /Query /TN toolhub /FO CSV /NH": {err: errExit}}}
	m, _ := New("windows", Options{Executable: `C:\toolhub.exe`, Runner: r})
	if err := m.Uninstall(context.Background()); err != nil || len(r.calls) != 1 {
		t.Fatalf("Uninstall = %v with calls %v; want only the query", err, r.calls)
	}
}

func TestTaskCommandSendsLogsToAFile(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"in LOCALAPPDATA", Options{Executable: `C:\Program Files\toolhub\toolhub.exe`, Args: []string{"serve"}, LocalAppData: `C:\Users\Ann Lee\AppData\Local`},
			`"C:\Program Files\toolhub\toolhub.exe" --log-file "C:\Users\Ann Lee\AppData\Local\toolhub\toolhub.log" serve`},
		{"under the profile without LOCALAPPDATA", Options{Executable: `C:\t\toolhub.exe`, Args: []string{"serve"}, Home: `C:\Users\ann\`},
			`C:\t\toolhub.exe --log-file C:\Users\ann\AppData\Local\toolhub\toolhub.log serve`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := TaskCommand(tc.opts); got != tc.want {
				t.Fatalf("TaskCommand = %s\nwant %s", got, tc.want)
			}
		})
	}
}
