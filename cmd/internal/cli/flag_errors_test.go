package cli

import "testing"

func TestFlagValuesOfTheWrongTypeAreToldInWords(t *testing.T) {
	raw := []string{"strconv.", "invalid argument", "time: invalid duration"}
	runCLICases(t, []cliCase{
		{name: "a word for a whole number", args: []string{"search", "--k", "abc", "q"}, wantCode: 2,
			wantStderr: []string{`--k wants a whole number, not "abc"`}, notStderr: raw},
		{name: "a word for a number", args: []string{"run", "--budget", "abc", "a task"}, wantCode: 2,
			wantStderr: []string{`--budget wants a number, not "abc"`}, notStderr: raw},
		{name: "a word for a number on eval", args: []string{"eval", "--l2", "x"}, wantCode: 2,
			wantStderr: []string{`--l2 wants a number, not "x"`}, notStderr: raw},
		{name: "a negative number for a count", args: []string{"eval", "--seed", "-1"}, wantCode: 2,
			wantStderr: []string{`--seed wants a whole number of 0 or more, not "-1"`}, notStderr: raw},
		{name: "a number without a unit for a duration", args: []string{"auth", "login", "--timeout", "30", "s"}, wantCode: 2,
			wantStderr: []string{`--timeout wants a duration such as 30s, not "30"`}, notStderr: raw},
		{name: "a word for true or false", args: []string{"runs", "ls", "--json=maybe"}, wantCode: 2,
			wantStderr: []string{`--json wants true or false, not "maybe"`}, notStderr: raw},
		{name: "a whole number too large", args: []string{"runs", "ls", "--limit", "99999999999999999999"}, wantCode: 2,
			wantStderr: []string{`--limit "99999999999999999999" is out of range`}, notStderr: raw},
		{name: "an unknown flag stays a usage error", args: []string{"search", "--nosuch", "q"}, wantCode: 2,
			wantStderr: []string{"unknown flag: --nosuch"}},
	})
}

func TestNumbersOutOfTheirRangeAreRefused(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "no servers to measure", args: []string{"bench", "catalog", "--servers", "-1"}, wantCode: 2,
			wantStderr: []string{"--servers wants a whole number of 1 or more, not -1"}},
		{name: "no episodes", args: []string{"bench", "episode", "--episodes", "0"}, wantCode: 2,
			wantStderr: []string{"--episodes wants a whole number of 1 or more, not 0"}},
		{name: "more turns than an episode has", args: []string{"bench", "episode", "--turns", "100"}, wantCode: 2,
			wantStderr: []string{"--turns wants a whole number of at most 50, not 100"}},
		{name: "no callers", args: []string{"bench", "proxy", "--concurrency", "0"}, wantCode: 2,
			wantStderr: []string{"--concurrency wants a whole number of 1 or more, not 0"}},
		{name: "a negative limit", args: []string{"runs", "ls", "--limit", "-5"}, wantCode: 2,
			wantStderr: []string{"--limit wants a whole number of 0 or more, not -5"}},
		{name: "a negative export limit", args: []string{"runs", "export", "--limit", "-1"}, wantCode: 2,
			wantStderr: []string{"--limit wants a whole number of 0 or more, not -1"}},
		{name: "a sign-in that may not wait", args: []string{"auth", "login", "notes", "--timeout", "-5s"}, wantCode: 2,
			wantStderr: []string{"--timeout wants a duration above 0 such as 30s, not -5s"}},
	})
}
