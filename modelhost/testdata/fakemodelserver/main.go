// Command fakemodelserver stands in for a model server (vLLM, llama-server,
// Ollama) in the hosting supervisor's tests. It serves GET /health (503
// while "loading", 200 once loaded) and GET /v1/models, and can load slowly,
// crash after a while, never become healthy, or leave a child process behind.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "listen address")
	model := flag.String("model", "fake/orchestrator", "model id listed by /v1/models")
	loadDelay := flag.Duration("load-delay", 0, "how long /health answers 503 before 200")
	crashAfter := flag.Duration("crash-after", 0, "exit with status 3 this long after start (0: never)")
	neverHealthy := flag.Bool("never-healthy", false, "answer 503 on /health forever")
	spawnChild := flag.Bool("spawn-child", false, "start a long sleeping child process")
	sleeper := flag.Bool("sleeper", false, "sleep 300 s and serve nothing (the spawned child)")
	flag.Parse()
	if *sleeper {
		time.Sleep(300 * time.Second)
		return
	}

	fmt.Fprintf(os.Stderr, "fakemodelserver: loading %s on %s\n", *model, *addr)
	if *spawnChild {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakemodelserver: spawn child:", err)
			os.Exit(1)
		}
		// This program again, so that the child runs on every system.
		child := exec.Command(self, "-sleeper")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fakemodelserver: spawn child:", err)
			os.Exit(1)
		}
	}
	var loaded atomic.Bool
	go func() {
		time.Sleep(*loadDelay)
		if !*neverHealthy {
			// Printed before /health turns 200, as real servers log it.
			fmt.Fprintln(os.Stderr, "fakemodelserver: model loaded")
			loaded.Store(true)
		}
	}()
	if *crashAfter > 0 {
		go func() {
			time.Sleep(*crashAfter)
			fmt.Fprintln(os.Stderr, "fakemodelserver: CUDA error: out of memory (simulated crash)")
			os.Exit(3)
		}()
	}
	http.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) {
		if !loaded.Load() {
			http.Error(w, `{"error":"loading model"}`, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"status":"ok"}`)
	})
	http.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","owned_by":"fake"}]}`, *model)
	})
	if err := http.ListenAndServe(*addr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "fakemodelserver:", err)
		os.Exit(1)
	}
}
