package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// budget bounds the whole run; the suite itself gives a client 30 s.
const budget = 25 * time.Second

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient [ignored...] SERVER_URL")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if err := run(ctx, os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceclient:", err)
		os.Exit(1)
	}
}

// scenarioContext is what the suite passes in MCP_CONFORMANCE_CONTEXT.
type scenarioContext struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

func run(ctx context.Context, url string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	spec := hub.ServerSpec{Name: "conformance", Transport: hub.TransportHTTP, URL: url, Locality: hub.LocalityLocal}
	var sc scenarioContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if sc.ClientID != "" {
		spec.OAuth = &hub.OAuthSpec{ClientID: sc.ClientID, ClientSecret: sc.ClientSecret}
	}
	creds := hub.NewCredentials(newMemorySecrets(), errNotFound)
	h, err := hub.New([]hub.ServerSpec{spec}, hub.Options{
		Logger: log, Credentials: creds, Version: "conformance", ConnectTimeout: 10 * time.Second, CallTimeout: 10 * time.Second,
	})
	if err != nil {
		return err
	}
	defer h.Close()
	h.Start(ctx)
	st, err := settle(ctx, h, time.Time{})
	if err != nil {
		return err
	}
	if st.State == hub.StateNeedsSignIn {
		log.Info("signing in")
		if _, err := creds.SignIn(ctx, spec, hub.SignInOptions{OpenBrowser: approve, Timeout: 10 * time.Second}); err != nil {
			return err
		}
		signedIn := time.Now()
		if st, err = settle(ctx, h, signedIn); err != nil {
			return err
		}
	}
	if st.State != hub.StateReady {
		return fmt.Errorf("server is %s: %s", st.State, st.Detail())
	}
	return callEach(ctx, h)
}

// settle waits until the server is ready, or waits for something other
// than connecting (sign-in, a retry) since after.
func settle(ctx context.Context, h *hub.Hub, after time.Time) (hub.ServerStatus, error) {
	for {
		st := h.Servers()[0]
		switch st.State {
		case hub.StateReady, hub.StateFailed:
			return st, nil
		case hub.StateNeedsSignIn, hub.StateRetrying:
			if st.Since.After(after) {
				return st, nil
			}
		}
		select {
		case <-ctx.Done():
			return st, fmt.Errorf("server still %s: %w", st.State, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// callEach calls every tool with the least arguments its schema allows.
func callEach(ctx context.Context, h *hub.Hub) error {
	var errs []error
	for _, tool := range h.Snapshot().Tools() {
		args := minimalArguments(tool.RawTool.InputSchema)
		res, err := h.Call(ctx, tool.Name, args, hub.CallOptions{})
		if err != nil {
			errs = append(errs, fmt.Errorf("call %s: %w", tool.Name, err))
			continue
		}
		fmt.Printf("%s: %s\n", tool.Name, res.Raw)
	}
	return errors.Join(errs...)
}

// approve is the browser: it follows the authorization server's redirects
// back to the loopback listener, as the suite's authorization endpoint
// expects of a user who approves.
func approve(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var errNotFound = errors.New("secret not found")

// memorySecrets keeps the sign-in for the run only.
type memorySecrets struct {
	mu sync.Mutex
	m  map[string]string
}

func newMemorySecrets() *memorySecrets { return &memorySecrets{m: map[string]string{}} }

func (s *memorySecrets) Get(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[name]; ok {
		return v, nil
	}
	return "", errNotFound
}

func (s *memorySecrets) Set(name, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = value
	return nil
}

func (s *memorySecrets) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, name)
	return nil
}
