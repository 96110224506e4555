#!/usr/bin/env bash
# Builds the headless binary (CGO_ENABLED=0) for every released platform and
# runs go vet for windows and darwin over the packages it is made of, so a
# change that breaks another platform fails here, before the test suite.
#
# The desktop app (Fyne) needs cgo and is not part of this check.
#
# usage: scripts/cross-build.sh [GOOS/GOARCH ...]   (default: all six)
#
# CROSS_BUILD_JOBS (default 2) builds run at once: one go build leaves a
# second core idle for much of its time (linking, long single packages).
#
# Every build and vet here uses -trimpath, as `make build`, `make lint`,
# `make test`'s vet and GoReleaser do, so each platform's packages are
# compiled once and every later step reuses them from the build cache.
# The arm64 builds are a build check only (nothing later reuses them):
# they compile without optimisation (-N -l), a third faster, and still fail
# on anything that does not compile or link for that platform. Release
# binaries are built optimised by GoReleaser.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export CGO_ENABLED=0

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
	targets=(linux/amd64 darwin/amd64 windows/amd64 linux/arm64 darwin/arm64 windows/arm64)
fi
jobs=${CROSS_BUILD_JOBS:-2}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
module=$(go list -m)

# build GOOS/GOARCH: builds one target; its result is a file in $out.
build() {
	local target=$1 goos=${1%/*} goarch=${1#*/} start=$SECONDS
	local flags=(-trimpath)
	if [[ $goarch != amd64 ]]; then
		flags+=("-gcflags=all=-N -l")
	fi
	if GOOS=$goos GOARCH=$goarch go build "${flags[@]}" -o "$out/toolhub-$goos-$goarch" ./cmd/toolhub; then
		echo "cross-build: $target built in $((SECONDS - start))s"
	else
		echo "cross-build: $target FAILED" >&2
		echo "build $target" >"$out/failed-$goos-$goarch"
	fi
}

# vet GOOS: vets the packages the headless binary is made of, with their
# tests, and the test-only packages beside them (everything but the Fyne
# ones), on amd64.
vet() {
	local goos=$1 start=$SECONDS pkgs
	mapfile -t pkgs < <(GOOS=$goos go list -e -f '{{if not .Standard}}{{.ImportPath}}{{end}}' -deps ./cmd/toolhub ./internal/... |
		grep -E "^$module(/|$)" | grep -Ev "^$module/(ui|cmd/internal/desktop|cmd/toolhub-desktop)(/|$)" | sort -u)
	if GOOS=$goos GOARCH=amd64 go vet -trimpath "${pkgs[@]}"; then
		echo "cross-build: go vet for $goos passed (${#pkgs[@]} packages) in $((SECONDS - start))s"
	else
		echo "cross-build: go vet for $goos FAILED" >&2
		echo "vet $goos" >"$out/failed-vet-$goos"
	fi
}

# Downloading the modules once, first, keeps parallel builds from fetching
# the same ones side by side.
go mod download

running=0
for target in "${targets[@]}"; do
	if ((running >= jobs)); then
		wait -n || true
		running=$((running - 1))
	fi
	build "$target" &
	running=$((running + 1))
done
wait
# vet after the builds: it reuses what the amd64 builds compiled.
for goos in windows darwin; do
	vet "$goos" &
done
wait

shopt -s nullglob
failed=("$out"/failed-*)
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "cross-build: failed: $(cat "${failed[@]}" | paste -sd ' ')" >&2
	exit 1
fi
echo "cross-build: ${#targets[@]} targets built, windows and darwin vetted"
