package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Task is one question of a live eval with its known answer.
type Task struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Domain   string `json:"domain,omitempty"`
}

// TaskFileError is a problem at one line of a tasks file.
type TaskFileError struct {
	File string
	Line int
	Msg  string
}

func (e *TaskFileError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxTaskLine bounds one JSONL line (a long question with context).
const maxTaskLine = 16 << 20

// LoadTasks reads a JSONL file of tasks, one object per line; blank lines
// are skipped. Every task needs a unique id, a question and an answer.
func LoadTasks(path string) ([]Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	return ParseTasks(path, data)
}

// ParseTasks parses tasks from data; name labels errors.
func ParseTasks(name string, data []byte) ([]Task, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxTaskLine)
	var tasks []Task
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		t, msg := parseTask(text)
		if msg == "" {
			if first, dup := seen[t.ID]; dup {
				msg = fmt.Sprintf("task id %q already used on line %d", t.ID, first)
			}
		}
		if msg != "" {
			return nil, &TaskFileError{File: name, Line: line, Msg: msg}
		}
		seen[t.ID] = line
		tasks = append(tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, &TaskFileError{File: name, Line: line + 1, Msg: err.Error()}
	}
	if len(tasks) == 0 {
		return nil, &TaskFileError{File: name, Line: line, Msg: "no tasks"}
	}
	return tasks, nil
}

// parseTask decodes one line; msg says what is wrong with it.
func parseTask(text []byte) (Task, string) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	var t Task
	if err := dec.Decode(&t); err != nil {
		return t, "not a task object: " + err.Error()
	}
	if dec.More() {
		return t, "more than one JSON value on the line"
	}
	switch {
	case strings.TrimSpace(t.ID) == "":
		return t, `missing "id"`
	case strings.TrimSpace(t.Question) == "":
		return t, `missing "question"`
	case strings.TrimSpace(t.Answer) == "":
		return t, `missing "answer"`
	}
	return t, ""
}
