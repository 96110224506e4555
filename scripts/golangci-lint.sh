#!/usr/bin/env bash
# Runs the pinned golangci-lint over the module, building it once from the
# Go module proxy into ~/.cache/toolhub/bin (reused by later runs).
set -euo pipefail
cd "$(dirname "$0")/.."
version=v2.15.0
bin="${XDG_CACHE_HOME:-$HOME/.cache}/toolhub/bin/golangci-lint-$version"
if [[ ! -x "$bin" ]]; then
  echo "golangci-lint: building $version (once)" >&2
  mkdir -p "$(dirname "$bin")"
  tmp=$(mktemp -d)
  GOBIN="$tmp" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
  mv "$tmp/golangci-lint" "$bin"
  rmdir "$tmp"
fi
# --build-only: build it (once) and stop, so that a caller can build it
# beside other work.
if [[ ${1:-} == --build-only ]]; then
  exit 0
fi
exec "$bin" run "$@" ./...
