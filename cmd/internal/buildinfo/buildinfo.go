package buildinfo

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"time"
)

// Set by the linker in release builds (see the package doc).
var (
	version string
	commit  string
	date    string
)

// Devel is the version of a build that carries none.
const Devel = "devel"

// Info describes one toolhub binary.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// Stamp is what the linker set; empty fields were not set.
type Stamp struct {
	Version, Commit, Date string
}

// Get describes the running binary.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return Resolve(Stamp{version, commit, date}, bi)
}

// Resolve combines the linker's stamp with the toolchain's build
// information (bi may be nil): a stamped field wins, then the module
// version and the vcs settings, then what a pseudo-version names.
func Resolve(stamp Stamp, bi *debug.BuildInfo) Info {
	info := Info{
		Version:   stamp.Version,
		Commit:    stamp.Commit,
		Date:      stamp.Date,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi == nil {
		info.Version = orDefault(info.Version, Devel)
		return info
	}
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	info.Commit = orDefault(info.Commit, settings["vcs.revision"])
	info.Date = orDefault(info.Date, settings["vcs.time"])
	info.Modified = settings["vcs.modified"] == "true"
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		info.Version = orDefault(info.Version, v)
		if rev, at, ok := ParsePseudo(v); ok {
			info.Commit = orDefault(info.Commit, rev)
			info.Date = orDefault(info.Date, at)
		}
	}
	info.Version = orDefault(info.Version, Devel)
	return info
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// pseudo matches the tail of a Go pseudo-version: a UTC timestamp and a
// 12-digit commit prefix (vX.0.0-yyyymmddhhmmss-abcdef123456, and the
// forms with a pre-release or a .0. before the timestamp).
var pseudo = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+-(?:.*[.-])?([0-9]{14})-([0-9a-f]{12})(?:\+incompatible)?$`)

// ParsePseudo returns the commit prefix and the commit time (RFC 3339) a
// pseudo-version names; ok is false for a release version.
func ParsePseudo(v string) (rev, at string, ok bool) {
	m := pseudo.FindStringSubmatch(v)
	if m == nil {
		return "", "", false
	}
	t, err := time.Parse("20060102150405", m[1])
	if err != nil {
		return "", "", false
	}
	return m[2], t.UTC().Format(time.RFC3339), true
}
