package cli

import "testing"

func TestUsageMistakesExitTwo(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "an unknown command", args: []string{"frobnicate"}, wantCode: 2,
			wantStderr: []string{`unknown command "frobnicate" for "toolhub" (see toolhub --help)`}},
		{name: "a mistyped command gets suggestions", args: []string{"serch", "x"}, wantCode: 2,
			wantStderr: []string{`unknown command "serch" for "toolhub"; did you mean`, "search"}},
		{name: "an unknown subcommand", args: []string{"index", "remove", "/x"}, wantCode: 2,
			wantStderr: []string{`unknown command "remove" for "toolhub index"`}},
		{name: "a mistyped subcommand", args: []string{"config", "chek"}, wantCode: 2,
			wantStderr: []string{`did you mean check?`}},
		{name: "a command group alone prints its help", args: []string{"index"},
			wantStdout: []string{"Available Commands:", "rm"}},
		{name: "an empty query", args: []string{"search", " "}, wantCode: 2,
			wantStderr: []string{"the query is empty"}},
		{name: "an HTTP address without a port", args: []string{"serve", "--http=garbage"}, wantCode: 2,
			wantStderr: []string{"--http=garbage:", "want HOST:PORT"}},
		{name: "help of an unknown command", args: []string{"help", "nosuch"}, wantCode: 2,
			wantStderr: []string{`unknown command "nosuch" for "toolhub" (see toolhub --help)`}},
		{name: "help of an unknown subcommand", args: []string{"help", "index", "nosuch"}, wantCode: 2,
			wantStderr: []string{`unknown command "nosuch" for "toolhub index"`}},
		{name: "help of a command prints its help", args: []string{"help", "search"},
			wantStdout: []string{"Searches the indexed documents."}},
		{name: "completion for an unknown shell", args: []string{"completion", "nosuch"}, wantCode: 2,
			wantStderr: []string{`unknown shell "nosuch" (bash, fish, powershell, zsh)`}},
		{name: "completion alone prints its help", args: []string{"completion"},
			wantStdout: []string{"Available Commands:", "powershell"}},
		{name: "completion for a shell prints its script", args: []string{"completion", "bash"},
			wantStdout: []string{"bash completion V2 for toolhub"}},
	})
}

func TestHelpNamesCatalogToolsAndToolhubsOwn(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "the root help", args: []string{"--help"},
			wantStdout: []string{"named server__tool, beside toolhub's own tools (python,", "which keep their bare names"}},
		{name: "call's help", args: []string{"call", "--help"},
			wantStdout: []string{"toolhub call TOOL", "SERVER__TOOL for a catalog tool", "the bare name for one of toolhub's own"}},
		{name: "tools' help", args: []string{"tools", "--help"},
			wantStdout: []string{"server__tool (at most 60 characters) for a server's", "the bare name for toolhub's own"}},
		{name: "a call without a tool", args: []string{"call"}, wantCode: 2,
			wantStderr: []string{"call needs a tool name as toolhub tools lists it: SERVER__TOOL for a catalog tool, the bare name for one of toolhub's own (such as python)"}},
	})
}
