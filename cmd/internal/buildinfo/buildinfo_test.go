package buildinfo

import (
	"runtime/debug"
	"testing"
)

func buildInfo(version string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/toolhub/toolhub", Version: version}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestResolve(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	cases := []struct {
		name  string
		stamp Stamp
		bi    *debug.BuildInfo
		want  Info
	}{
		{"no build info", Stamp{}, nil, Info{Version: Devel}},
		{"git checkout", Stamp{}, buildInfo("(devel)", "vcs.revision", rev, "vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "true"),
			Info{Version: Devel, Commit: rev, Date: "2026-11-30T10:00:00Z", Modified: true}},
		{"go install of a tag", Stamp{}, buildInfo("v1.4.0"), Info{Version: "v1.4.0"}},
		{"go install of a commit", Stamp{}, buildInfo("v0.0.0-20261130100102-abcdef123456"),
			Info{Version: "v0.0.0-20261130100102-abcdef123456", Commit: "abcdef123456", Date: "2026-11-30T10:01:02Z"}},
		{"release stamp wins", Stamp{"1.4.0", rev, "2026-12-01T00:00:00Z"}, buildInfo("(devel)", "vcs.revision", "other", "vcs.time", "2020-01-01T00:00:00Z"),
			Info{Version: "1.4.0", Commit: rev, Date: "2026-12-01T00:00:00Z"}},
		{"partial stamp", Stamp{Version: "1.4.0"}, buildInfo("(devel)", "vcs.revision", rev),
			Info{Version: "1.4.0", Commit: rev}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Resolve(tc.stamp, tc.bi)
			got.GoVersion, got.Platform = "", ""
			if got != tc.want {
				t.Fatalf("Resolve = %+v\nwant      %+v", got, tc.want)
			}
		})
	}
}

func TestParsePseudo(t *testing.T) {
	cases := []struct {
		name, v, rev, at string
		ok               bool
	}{
		{"no tag", "v0.0.0-20261130100102-abcdef123456", "abcdef123456", "2026-11-30T10:01:02Z", true},
		{"after a tag", "v1.4.1-0.20261130100102-abcdef123456", "abcdef123456", "2026-11-30T10:01:02Z", true},
		{"after a pre-release", "v1.5.0-rc.1.0.20261130100102-abcdef123456", "abcdef123456", "2026-11-30T10:01:02Z", true},
		{"incompatible", "v2.0.1-0.20261130100102-abcdef123456+incompatible", "abcdef123456", "2026-11-30T10:01:02Z", true},
		{"release", "v1.4.0", "", "", false},
		{"pre-release", "v1.4.0-rc.1", "", "", false},
		{"bad month", "v0.0.0-20261330100102-abcdef123456", "", "", false},
		{"short hash", "v0.0.0-20261130100102-abcdef", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rev, at, ok := ParsePseudo(tc.v)
			if rev != tc.rev || at != tc.at || ok != tc.ok {
				t.Fatalf("ParsePseudo(%q) = %q, %q, %v; want %q, %q, %v", tc.v, rev, at, ok, tc.rev, tc.at, tc.ok)
			}
		})
	}
}

func FuzzParsePseudo(f *testing.F) {
	for _, s := range []string{"v0.0.0-20261130100102-abcdef123456", "v1.4.0", "", "v1.4.1-0.20261130100102-abcdef123456+incompatible"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		rev, at, ok := ParsePseudo(v)
		if ok != (rev != "" && at != "") || (ok && len(rev) != 12) {
			t.Fatalf("ParsePseudo(%q) = %q, %q, %v", v, rev, at, ok)
		}
	})
}
