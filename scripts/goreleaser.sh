#!/usr/bin/env bash
# Runs the pinned GoReleaser with the given arguments. The first run builds
# it from source with `go install` (several minutes on two cores) into a
# cache directory that later runs reuse, together with the pinned
# cyclonedx-gomod that writes the release's SBOMs (.goreleaser.yaml, sboms);
# both are put first on PATH for GoReleaser.
#
#   scripts/goreleaser.sh release --snapshot --clean      # everything, into dist/
#   scripts/goreleaser.sh check
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"
version=v2.15.1
sbom_version=v1.10.0
dir="${TOOLHUB_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolhub}/goreleaser-$version"
if [[ ! -x "$dir/goreleaser" ]]; then
	echo "goreleaser.sh: building GoReleaser $version once, into $dir" >&2
	start=$SECONDS
	GOBIN="$dir" go install "github.com/goreleaser/goreleaser/v2@$version"
	echo "goreleaser.sh: built in $((SECONDS - start))s" >&2
fi
sbom_dir="$dir/cyclonedx-gomod-$sbom_version"
if [[ ! -x "$sbom_dir/cyclonedx-gomod" ]]; then
	echo "goreleaser.sh: building cyclonedx-gomod $sbom_version once, into $sbom_dir" >&2
	GOBIN="$sbom_dir" go install "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$sbom_version"
fi
export PATH="$sbom_dir:$dir:$PATH"
exec "$dir/goreleaser" "$@"
