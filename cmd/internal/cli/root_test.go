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
	})
}
