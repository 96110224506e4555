// Package buildinfo says which toolhub this is: its version, the commit it
// was built from and when.
//
// A release build stamps them with the linker
// (-X github.com/toolhub/toolhub/cmd/internal/buildinfo.version=v1.2.3, and
// .commit and .date likewise). Without that, they come from the build
// information the Go toolchain records: the module version for
// `go install github.com/toolhub/toolhub/cmd/toolhub@v1.2.3` (a pseudo-version
// names the commit and its time), and vcs.revision and vcs.time for a build
// inside a git checkout.
package buildinfo
