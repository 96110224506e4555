// Command scriptedmodel serves a script of chat replies on an
// OpenAI-compatible endpoint, standing in for an Orchestrator-8B backend in
// demos and manual runs:
//
//	scriptedmodel -script replies.json -addr 127.0.0.1:8000 [-loading 5s] [-loop]
//
// The script format is described in package scriptedmodel (ParseScript).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "scriptedmodel:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8000", "listen address")
	scriptPath := flag.String("script", "", "JSON script of replies (required)")
	model := flag.String("model", scriptedmodel.DefaultModel, "model id to report")
	loading := flag.Duration("loading", 0, "answer 503 for this long after start, like a backend loading weights")
	loop := flag.Bool("loop", false, "start the script over when it runs out")
	flag.Parse()
	if *scriptPath == "" {
		flag.Usage()
		return errors.New("-script is required")
	}
	script, err := scriptedmodel.LoadScript(*scriptPath)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	h := scriptedmodel.NewHandler(script...)
	h.SetModel(*model)
	h.SetLoop(*loop)
	if *loading > 0 {
		h.SetLoading(true)
		time.AfterFunc(*loading, func() { h.SetLoading(false); log.Info("model loaded") })
	}
	return serve(h, *addr, len(script), log)
}

func serve(h *scriptedmodel.Handler, addr string, replies int, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("serving", "addr", addr, "replies", replies)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	h.Shutdown()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped", "requests", len(h.Requests()))
	return nil
}
