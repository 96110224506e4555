#!/usr/bin/env bash
# Runs the pinned GoReleaser with the given arguments. The first run builds
# it from source with `go install` (several minutes on two cores) into a
# cache directory that later runs reuse.
#
#   scripts/goreleaser.sh release --snapshot --clean      # everything, into dist/
#   scripts/goreleaser.sh check
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"
version=v2.15.1
dir="${TOOLHUB_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolhub}/goreleaser-$version"
if [[ ! -x "$dir/goreleaser" ]]; then
	echo "goreleaser.sh: building GoReleaser $version once, into $dir" >&2
	start=$SECONDS
	GOBIN="$dir" go install "github.com/goreleaser/goreleaser/v2@$version"
	echo "goreleaser.sh: built in $((SECONDS - start))s" >&2
fi
exec "$dir/goreleaser" "$@"
