#!/usr/bin/env bash
# Builds the headless binary (CGO_ENABLED=0) for every released platform and
# runs go vet for windows and darwin over the packages it is made of, so a
# change that breaks another platform fails here, before the test suite.
#
# The desktop app (Fyne) needs cgo and is not part of this check.
#
# usage: scripts/cross-build.sh [GOOS/GOARCH ...]   (default: all six)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export CGO_ENABLED=0

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
	targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
module=$(go list -m)

failed=()
for target in "${targets[@]}"; do
	goos=${target%/*} goarch=${target#*/}
	start=$SECONDS
	# No -trimpath: go vet below and go test reuse what these builds compile.
	if GOOS=$goos GOARCH=$goarch go build -o "$out/toolhub-$goos-$goarch" ./cmd/toolhub; then
		echo "cross-build: $target built in $((SECONDS - start))s"
	else
		echo "cross-build: $target FAILED" >&2
		failed+=("build $target")
	fi
done

# vet the packages the headless binary is made of, with their tests, and
# the test-only packages beside them (everything but the Fyne ones).
for goos in windows darwin; do
	start=$SECONDS
	mapfile -t pkgs < <(GOOS=$goos go list -e -f '{{if not .Standard}}{{.ImportPath}}{{end}}' -deps ./cmd/toolhub ./internal/... |
		grep -E "^$module(/|$)" | grep -Ev "^$module/(ui|cmd/internal/desktop|cmd/toolhub-desktop)(/|$)" | sort -u)
	if GOOS=$goos GOARCH=amd64 go vet "${pkgs[@]}"; then
		echo "cross-build: go vet for $goos passed (${#pkgs[@]} packages) in $((SECONDS - start))s"
	else
		echo "cross-build: go vet for $goos FAILED" >&2
		failed+=("vet $goos")
	fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
	echo "cross-build: failed: ${failed[*]}" >&2
	exit 1
fi
echo "cross-build: ${#targets[@]} targets built, windows and darwin vetted"
