package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/buildinfo"
)

func TestWriteVersion(t *testing.T) {
	full := buildinfo.Info{Version: "v1.4.0", Commit: "abc123", Date: "2026-12-01T00:00:00Z", GoVersion: "go1.26.8", Platform: "linux/amd64"}
	dirty := buildinfo.Info{Version: buildinfo.Devel, Commit: "abc123", Modified: true, GoVersion: "go1.26.8", Platform: "darwin/arm64"}
	bare := buildinfo.Info{Version: buildinfo.Devel, GoVersion: "go1.26.8", Platform: "windows/amd64"}
	cases := []struct {
		name string
		info buildinfo.Info
		want string
	}{
		{"release", full, "toolhub v1.4.0 (commit abc123, built 2026-12-01T00:00:00Z, go1.26.8, linux/amd64)\n"},
		{"modified checkout", dirty, "toolhub devel (commit abc123, modified, go1.26.8, darwin/arm64)\n"},
		{"nothing known", bare, "toolhub devel (go1.26.8, windows/amd64)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := writeVersion(&out, tc.info, false); err != nil || out.String() != tc.want {
				t.Fatalf("got %q, %v; want %q", out.String(), err, tc.want)
			}
			out.Reset()
			if err := writeVersion(&out, tc.info, true); err != nil {
				t.Fatal(err)
			}
			var back buildinfo.Info
			if err := json.Unmarshal(out.Bytes(), &back); err != nil || back != tc.info {
				t.Fatalf("--json %s decodes to %+v, %v", out.String(), back, err)
			}
		})
	}
}

func TestVersionCommandJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main(t.Context(), []string{"version", "--json"}, Stdio{In: &bytes.Buffer{}, Out: &out, Err: &errOut})
	var info buildinfo.Info
	if code != 0 || json.Unmarshal(out.Bytes(), &info) != nil || info != buildinfo.Get() {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the JSON of %+v", code, out.String(), errOut.String(), buildinfo.Get())
	}
}

func TestVersionFlagPrintsWhatTheVersionCommandPrints(t *testing.T) {
	var want bytes.Buffer
	if code := Main(t.Context(), []string{"version"}, Stdio{In: &bytes.Buffer{}, Out: &want, Err: &bytes.Buffer{}}); code != 0 {
		t.Fatalf("version: exit %d", code)
	}
	var out, errOut bytes.Buffer
	code := Main(t.Context(), []string{"--version"}, Stdio{In: &bytes.Buffer{}, Out: &out, Err: &errOut})
	if code != 0 || out.String() != want.String() {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q; want %q", code, out.String(), errOut.String(), want.String())
	}
}
