#!/usr/bin/env bash
# Installs the Debian packages toolhub's build and tests need, only those that
# are missing (a warm machine skips apt entirely). Needs root or sudo.
set -euo pipefail
packages=(
  gcc libc6-dev      # cgo, for go test -race
  git ca-certificates
  nodejs npm         # the reference MCP servers and test clients
  procps             # ps, for the process-leak checks
  python3 bubblewrap # the python built-in tool and its sandbox
  pkg-config libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev
  libxxf86vm-dev libgl-dev                        # building the Fyne desktop app
  libgl1-mesa-dri xvfb xauth imagemagick          # a real window and its screenshots
  chromium           # checking the evaluation's HTML report renders
  rpm rpm2cpio cpio  # reading and unpacking the release .rpm
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node and npm may come from outside Debian (nvm, nodesource): accept those.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]}")
fi
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "install-system: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
if ! command -v go >/dev/null; then
  echo "install-system: Go 1.26 or newer is required (https://go.dev/doc/install); put it on PATH" >&2
  exit 1
fi
