package eval

import (
	"strings"
	"testing"
)

func TestGradeTaskFileErrorsSayFileAndLine(t *testing.T) {
	good := `{"id":"a","question":"q","answer":"1"}`
	cases := []struct{ name, text, want string }{
		{"bad json", good + "\n{oops\n", "t.jsonl:2: not a task object"},
		{"missing answer", good + "\n\n" + `{"id":"b","question":"q"}`, `t.jsonl:3: missing "answer"`},
		{"missing id", `{"question":"q","answer":"1"}`, `t.jsonl:1: missing "id"`},
		{"unknown field", `{"id":"a","question":"q","answer":"1","anwser":"2"}`, "t.jsonl:1: not a task object"},
		{"duplicate id", good + "\n" + good, `t.jsonl:2: task id "a" already used on line 1`},
		{"two values", good + good, "t.jsonl:1: more than one JSON value"},
		{"empty", "\n\n", "t.jsonl:2: no tasks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTasks("t.jsonl", []byte(tc.text))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
	tasks, err := ParseTasks("t.jsonl", []byte(good+"\n"+`{"id":"b","question":"q2","answer":"x","domain":"geo"}`+"\n"))
	if err != nil || len(tasks) != 2 || tasks[1].Domain != "geo" {
		t.Fatalf("tasks %+v, %v", tasks, err)
	}
}
