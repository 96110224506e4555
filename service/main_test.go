package service

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// childEnv, when set, makes the test binary a program for Keep to run
// instead of the tests (keep_process_test.go).
const childEnv = "TOOLHUB_SERVICE_TEST_CHILD"

// TestMain runs the child programs, and fails the package's tests when
// Keep leaves a goroutine behind.
func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(runTestChild(role, os.Args[len(os.Args)-1]))
	}
	goleak.VerifyTestMain(m)
}

// runTestChild is one run of a child program. "fail-twice FILE" adds a
// line to FILE and exits 3 the first two times, 0 after; "wait" prints
// its process id and waits until it is stopped.
func runTestChild(role, arg string) int {
	switch role {
	case "fail-twice":
		f, err := os.OpenFile(arg, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return 2
		}
		_, _ = f.WriteString("run\n")
		_ = f.Close()
		data, _ := os.ReadFile(arg)
		if strings.Count(string(data), "run\n") <= 2 {
			fmt.Println("failing on purpose")
			return 3
		}
		return 0
	case "wait":
		fmt.Println("ready " + strconv.Itoa(os.Getpid()))
		time.Sleep(time.Hour) // until stopped
		return 0
	}
	return 2
}
