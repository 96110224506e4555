package daemon

import "github.com/toolhub/toolhub/cmd/internal/buildinfo"

// buildVersion is the binary's version: the release stamp, the module
// version of a go install, or "devel".
func buildVersion() string { return buildinfo.Get().Version }
