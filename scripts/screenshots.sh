#!/usr/bin/env bash
# Renders one PNG per desktop tab into docs/screenshots (or $1) by running the
# real toolhub-desktop under Xvfb over a demo configuration: the npm
# reference servers (when installed), a server that fails to start, a
# scripted orchestrator, a small indexed folder and a few stored runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/screenshots}
width=1280
height=800
settle=${SCREENSHOT_SETTLE:-8}

for tool in xvfb-run xauth /usr/bin/import; do
	if ! command -v "$tool" >/dev/null; then
		echo "screenshots: $tool is missing; run scripts/install-system.sh (xvfb, xauth, imagemagick, libgl1-mesa-dri)" >&2
		exit 1
	fi
done

demo=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$demo"
}
trap cleanup EXIT

# free_port prints a loopback port nothing listens on.
free_port() {
	local port
	while :; do
		port=$(shuf -i 20000-60000 -n 1)
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
}

echo "screenshots: building" >&2
mkdir -p "$demo/bin" "$out"
(cd "$root" && go build -tags no_animations -o "$demo/bin/toolhub-desktop" ./cmd/toolhub-desktop \
	&& go build -o "$demo/bin/toolhub" ./cmd/toolhub \
	&& go build -o "$demo/bin/scriptedmodel" ./internal/scriptedmodel/cmd/scriptedmodel)

# A small folder of notes to index and search.
mkdir -p "$demo/docs"
cat >"$demo/docs/launch.md" <<'MD'
# Q3 launch plan

The launch is on October 3. Marketing starts two weeks before the launch;
the beta list gets access on September 26.

## Risks
The payment provider migration must finish before the launch.
MD
cat >"$demo/docs/travel.md" <<'MD'
# Travel policy

The per diem for business travel is 42 euros a day, paid monthly.
Book trains over flights under four hours.
MD
cat >"$demo/docs/oncall.md" <<'MD'
# On-call handbook

Page the on-call engineer for any outage longer than five minutes.
Write the incident report within two days of the launch of a fix.
MD

# The scripted orchestrator: search the notes, echo, then answer; looping.
cat >"$demo/orchestrator.json" <<'JSON'
[
  {"message": {"role": "assistant", "content": null, "tool_calls": [
    {"id": "call-1", "type": "function", "function": {"name": "search_documents", "arguments": "{\"query\": \"launch date\"}"}}]},
   "finish_reason": "tool_calls", "usage": {"prompt_tokens": 2100, "completion_tokens": 40, "total_tokens": 2140}},
  {"message": {"role": "assistant", "content": null, "tool_calls": [
    {"id": "call-2", "type": "function", "function": {"name": "everything__echo", "arguments": "{\"message\": \"October 3\"}"}}]},
   "finish_reason": "tool_calls", "usage": {"prompt_tokens": 2600, "completion_tokens": 30, "total_tokens": 2630}},
  {"message": {"role": "assistant", "content": null, "tool_calls": [
    {"id": "call-3", "type": "function", "function": {"name": "search_documents", "arguments": "{\"query\": \"risks before launch\"}"}}]},
   "finish_reason": "tool_calls", "usage": {"prompt_tokens": 3000, "completion_tokens": 30, "total_tokens": 3030}},
  {"content": "The launch is on October 3; the payment provider migration must finish first.",
   "usage": {"prompt_tokens": 3400, "completion_tokens": 60, "total_tokens": 3460}}
]
JSON
orch_port=$(free_port)
"$demo/bin/scriptedmodel" -script "$demo/orchestrator.json" -addr "127.0.0.1:$orch_port" -loop \
	-model nvidia/Orchestrator-8B 2>"$demo/orchestrator.log" &
pids+=($!)

tools=$root/.tools/node_modules/.bin
servers=""
if [[ -x $tools/mcp-server-everything && -x $tools/mcp-server-memory ]]; then
	servers=$(printf '"everything": {"command": "%s", "args": ["stdio"]},
    "memory": {"command": "%s", "env": {"MEMORY_FILE_PATH": "%s"}},' \
		"$tools/mcp-server-everything" "$tools/mcp-server-memory" "$demo/memory.jsonl")
else
	echo "screenshots: .tools is absent (scripts/install-tools.sh); the demo has fewer servers" >&2
fi
cat >"$demo/toolhub.json" <<JSON
{
  "mcpServers": {
    $servers
    "jira": {"command": "sh", "args": ["-c", "echo 'Error: Cannot find module @acme/mcp-jira' >&2; exit 1"]},
    "web": {"url": "https://mcp.invalid/mcp", "costPerCall": 0.002, "timeout": "5s"}
  },
  "documents": {"roots": ["$demo/docs"], "dir": "$demo/index"},
  "models": {
    "qwen-local": {"baseUrl": "http://127.0.0.1:$orch_port/v1", "model": "qwen3-32b", "roles": ["search", "reason"], "priceIn": 0, "priceOut": 0},
    "gpt-5": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "apiKeyEnv": "OPENAI_API_KEY", "roles": ["answer", "expert"], "priceIn": 1.25, "priceOut": 10}
  },
  "orchestrator": {"baseUrl": "http://127.0.0.1:$orch_port/v1", "model": "nvidia/Orchestrator-8B", "priceIn": 0.2, "priceOut": 0.6, "temperature": 0}
}
JSON

export XDG_CONFIG_HOME=$demo/config XDG_DATA_HOME=$demo/data HOME=$demo/home LANG=en_US.UTF-8 LC_ALL=
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$HOME"

echo "screenshots: indexing the demo notes and storing runs" >&2
timeout -k 5 300 "$demo/bin/toolhub" --config "$demo/toolhub.json" index add "$demo/docs" >/dev/null
for task in "When is the Q3 launch?" "What must finish before the launch?" "Summarise the launch risks"; do
	timeout -k 5 300 "$demo/bin/toolhub" --config "$demo/toolhub.json" run --mode tools "$task" >/dev/null 2>>"$demo/runs.log" || true
done

# shot NAME TAB [ARGS...] renders the desktop showing TAB into NAME.png.
shot() {
	local name=$1 tab=$2
	shift 2
	local port
	port=$(free_port)
	local w=${SHOT_WIDTH:-$width} h=${SHOT_HEIGHT:-$height}
	xvfb-run -a -s "-screen 0 ${w}x${h}x24" bash -c '
		"$0" --config "$1" --http "127.0.0.1:$2" --tab "$3" --width "$4" --height "$5" "${@:9}" 2>>"$8" &
		app=$!
		sleep "$6"
		/usr/bin/import -window root "$7"
		kill "$app"
		for _ in $(seq 1 120); do kill -0 "$app" 2>/dev/null || break; sleep 0.5; done
		if kill -0 "$app" 2>/dev/null; then
			echo "screenshots: toolhub-desktop did not exit within 60 s of SIGTERM; the end of its log:" >&2
			tail -n 40 "$8" >&2
			kill -9 "$app"
			exit 1
		fi
		wait "$app" || true
	' "$demo/bin/toolhub-desktop" "$demo/toolhub.json" "$port" "$tab" "$w" "$h" "$settle" \
		"$out/$name.png" "$demo/$name.log" "$@"
	echo "screenshots: $out/$name.png" >&2
}

shot preferences "Preferences"
shot servers "Servers and models"
shot documents "Documents" --search "launch"
shot runs "Runs" --run "When is the Q3 launch, and what could delay it?"
shot guide "Preferences" --guide
shot servers-expanded "Servers and models" --expand-server everything
shot runs-step "Runs" --expand-step 2 --run "When is the Q3 launch, and what could delay it?"
SHOT_WIDTH=800 SHOT_HEIGHT=600 shot small "Runs" --expand-step 2 --run "When is the Q3 launch?"
