#!/usr/bin/env bash
# Runs the Windows (amd64) tests of toolhub's packages under Wine on
# Debian 12: each package's test binary is built with GOOS=windows and run by
# wine64, with its helper programs built for Windows too. This exercises the
# build-tagged Windows code for real (job objects, pipes, paths, process
# tables, the service's scheduled task, the token banner) on a Linux machine.
#
# usage: scripts/test-windows.sh [package ...]   (default: every package
#        with tests but the root's import check, which runs the go command;
#        the desktop app's, which need cgo, with mingw-w64's gcc)
#
# Wine 8 (Debian 12's) lacks five things Windows 10 and later have:
#   - bcryptprimitives.dll's ProcessPrng, which the Go runtime loads at
#     start: a small DLL built with mingw-w64 calls RtlGenRandom instead;
#   - FileDispositionInformationEx, which os.RemoveAll uses: the test
#     binaries are built with an overlay of Go's internal/syscall/windows
#     that takes Go's own fallback for older Windows on any error;
#   - EmptyWorkingSet does nothing: its test is skipped by name;
#   - a symbolic link it makes cannot be read: the tests that need one skip
#     themselves, as on a Windows without the privilege to make links;
#   - Unix sockets (the desktop's second-start check): those tests skip
#     themselves too, as on a Windows older than 10 1803.
# Go is not installed inside Wine: `go build -o OUT PKG`, which some tests
# run to build a helper program, is answered by a stand-in go.exe that
# copies the helper built here beforehand.
#
# Needs root for apt-get the first time (wine64, gcc-mingw-w64-x86-64).
# WINE_TEST_DIR (default /tmp/toolhub-wine) holds the Wine prefix and the
# builds; WINE_TEST_TIMEOUT (default 1200) is each package's limit in
# seconds. Prints one line per package and exits 1 when any failed; the
# output of each is in WINE_TEST_DIR/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
repo=$(pwd)
work=$(realpath -m "${WINE_TEST_DIR:-/tmp/toolhub-wine}")
limit=${WINE_TEST_TIMEOUT:-1200}
wine=/usr/lib/wine/wine64
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

if [[ ! -x $wine ]] || ! command -v x86_64-w64-mingw32-gcc > /dev/null; then
	if [[ $(id -u) -ne 0 ]]; then
		echo "test-windows: wine64 and gcc-mingw-w64-x86-64 are missing; install them as root (apt-get install wine64 gcc-mingw-w64-x86-64)" >&2
		exit 1
	fi
	echo "test-windows: installing wine64 and gcc-mingw-w64-x86-64"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wine64 gcc-mingw-w64-x86-64 > /dev/null
fi
mkdir -p "$work"/{bin,programs,out,overlay}

# The prefix, and the ProcessPrng stand-in in its system32.
if [[ ! -d $WINEPREFIX/drive_c/windows/system32 ]]; then
	echo "test-windows: creating the Wine prefix $WINEPREFIX"
	"$wine" wineboot --init > /dev/null 2>&1 || true
fi
x86_64-w64-mingw32-gcc -shared -O2 -o "$work/bcryptprimitives.dll" \
	scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

# The overlay: Go's Deleteat takes its fallback on any error.
goroot=$(go env GOROOT)
at=$goroot/src/internal/syscall/windows/at_windows.go
perl -0pe 's/(\n\tswitch err \{\n\tcase nil:\n\t\treturn nil\n\tcase STATUS_INVALID_INFO_CLASS,)/\n\tif err != nil {\n\t\treturn deleteatFallback(h)\n\t}$1/' \
	"$at" > "$work/overlay/at_windows.go"
if cmp -s "$at" "$work/overlay/at_windows.go"; then
	echo "test-windows: $at is not as expected; the RemoveAll overlay does not apply to this Go" >&2
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/overlay/at_windows.go" > "$work/overlay.json"
build() { GOOS=windows GOARCH=amd64 CGO_ENABLED=${CGO_ENABLED:-0} go "$1" -overlay "$work/overlay.json" "${@:2}"; }

# The helper programs the tests build, and the go.exe that hands them out.
for p in hub/testdata/faultyserver hub/testdata/modernserver retriever/internal/ingestchild \
	modelhost/testdata/fakemodelserver cmd/toolhub; do
	build build -o "$work/programs/$(basename "$p").exe" "./$p"
done
build build -o "$work/programs/conformance.exe" github.com/mark3labs/mcp-go/examples/conformance
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$WINEPREFIX/drive_c/windows/go.exe" scripts/wine/fakego.go
export TOOLHUB_WINE_PROGRAMS="Z:${work//\//\\}\\programs"

# Wine's gaps, skipped by name.
skip='TestReleaseEmptiesTheWorkingSet'

pkgs=("$@")
if [[ ${#pkgs[@]} -eq 0 ]]; then
	mapfile -t pkgs < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{end}}' ./... |
		sed "s#^$repo/\?##" | grep .)
fi
failed=0
for p in "${pkgs[@]}"; do
	name=${p//\//_}
	exe=$work/bin/$name.test.exe
	cgo=0 # the desktop app's packages (Fyne) need cgo: mingw-w64's gcc
	if [[ $p == ui* || $p == cmd/internal/desktop* || $p == cmd/toolhub-desktop ]]; then cgo=1; fi
	if ! CGO_ENABLED=$cgo CC=x86_64-w64-mingw32-gcc build test -c -o "$exe" "./$p" > "$work/out/$name.txt" 2>&1; then
		echo "FAIL  $p (does not build for windows; $work/out/$name.txt)"
		failed=1
		continue
	fi
	start=$(date +%s)
	if (cd "$p" && timeout "$limit" "$wine" "$exe" -test.short -test.skip "$skip" -test.timeout="$((limit - 30))s" \
		> "$work/out/$name.txt" 2>&1); then
		echo "ok    $p ($(($(date +%s) - start)) s)"
	else
		echo "FAIL  $p ($work/out/$name.txt)"
		failed=1
	fi
done
exit $failed
