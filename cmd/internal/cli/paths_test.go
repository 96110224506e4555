package cli

import "testing"

func TestPathsThatAreMissingOrOfTheWrongKind(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "index add of a missing path", args: []string{"index", "add", "HOME/nosuch"}, wantCode: 2,
			wantStderr: []string{"no file or folder at HOME/nosuch\n"}},
		{name: "config import of a missing file", args: []string{"config", "import", "HOME/nosuch.json"}, wantCode: 2,
			wantStderr: []string{"toolhub: no file at HOME/nosuch.json\n"}, notStderr: []string{"open "}},
		{name: "config import of a folder", args: []string{"config", "import", "HOME"}, wantCode: 2,
			wantStderr: []string{"HOME is a folder; config import wants an MCP client's JSON config file"}},
		{name: "eval of a missing tasks file", args: []string{"eval", "--tasks", "HOME/qa.jsonl", "--policy", "cheapest"}, wantCode: 2,
			wantStderr: []string{"toolhub: no file at HOME/qa.jsonl\n"}},
		{name: "eval of a tasks folder", args: []string{"eval", "--tasks", "HOME", "--policy", "cheapest"}, wantCode: 2,
			wantStderr: []string{"HOME is a folder; --tasks wants a JSONL file"}, notStderr: []string{"is a directory"}},
		{name: "a config that is a folder", args: []string{"--config", "HOME", "config", "check"}, wantCode: 2,
			wantStderr: []string{"HOME is a folder, not a config file (from --config)"}, notStderr: []string{"is a directory"}},
		{name: "a config that is a folder, for a command that runs the hub", args: []string{"--config", "HOME", "tools"}, wantCode: 2,
			wantStderr: []string{"HOME is a folder, not a config file (from --config)"}},
		{name: "a retrieval dataset that is missing", args: []string{"bench", "retrieval", "--dataset", "HOME/scifact"}, wantCode: 2,
			wantStderr: []string{"toolhub: no folder at HOME/scifact\n"}, notStderr: []string{"open corpus"}},
		{name: "a retrieval dataset that is a file", args: []string{"bench", "retrieval", "--dataset", "HOME/project/README"}, wantCode: 2,
			wantStderr: []string{"HOME/project/README is a file; --dataset wants a BEIR dataset folder"}},
		{name: "an idle bench of a missing server", args: []string{"bench", "idle", "--everything", "HOME/nosuch"}, wantCode: 2,
			wantStderr: []string{"toolhub: no file at HOME/nosuch\n"}},
		{name: "a proxy bench of a missing server", args: []string{"bench", "proxy", "--everything", "HOME/nosuch"}, wantCode: 2,
			wantStderr: []string{"toolhub: no file at HOME/nosuch\n"}},
	})
}
