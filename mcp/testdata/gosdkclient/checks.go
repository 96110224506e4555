package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// checks are the interop checks of mcp/testdata/interop/checks.mjs, in its
// order and under its names.
func (s *state) checks() []check {
	return []check{
		{"apps_ui", s.appsUI},
		{"list", s.list},
		{"call", s.callContaining("everything__echo", map[string]any{"message": "interop"}, "interop")},
		{"progress", s.progressCheck},
		{"cancel", s.cancel},
		{"resources", s.resources},
		{"prompts", s.prompts},
		{"completion", s.completion},
		{"sampling", s.callContaining("everything__trigger-sampling-request", map[string]any{"prompt": "say something", "maxTokens": 5}, sampled)},
		{"elicitation", s.callContaining("everything__trigger-elicitation-request", map[string]any{}, elicited)},
		{"task_tool", s.callContaining("everything__simulate-research-query", map[string]any{"topic": "python", "ambiguous": true}, research)},
		{"roots", s.callContaining("everything__get-roots-list", map[string]any{}, rootURI)},
		{"ping", func(ctx context.Context) (string, error) { return "pong", s.cs.Ping(ctx, nil) }},
		{"setLevel", func(ctx context.Context) (string, error) {
			return "warning", s.cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "warning"})
		}},
		{"list_changed", s.listChangedCheck},
	}
}

func (s *state) appsUI(ctx context.Context) (string, error) {
	res, err := s.cs.ListResources(ctx, nil)
	if err != nil {
		return "", err
	}
	i := slices.IndexFunc(res.Resources, func(r *sdk.Resource) bool { return strings.HasPrefix(r.URI, "ui://") })
	if i < 0 {
		return "", fmt.Errorf("no ui:// resource among %d", len(res.Resources))
	}
	uri := res.Resources[i].URI
	read, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(read.Contents) == 0 || !strings.Contains(read.Contents[0].Text, "<html") {
		return "", fmt.Errorf("%s is not an HTML page", uri)
	}
	// A host finds the page from the tool's _meta.ui.resourceUri.
	tools, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		return "", err
	}
	j := slices.IndexFunc(tools.Tools, func(t *sdk.Tool) bool {
		ui, _ := t.Meta["ui"].(map[string]any)
		return ui["resourceUri"] == uri
	})
	if j < 0 {
		return "", fmt.Errorf("no tool names %s in _meta.ui.resourceUri", uri)
	}
	return fmt.Sprintf("%s (%s, %d bytes), the page of %s", uri, read.Contents[0].MIMEType, len(read.Contents[0].Text), tools.Tools[j].Name), nil
}

func (s *state) list(ctx context.Context) (string, error) {
	res, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(res.Tools, func(t *sdk.Tool) bool { return t.Name == "everything__echo" }) {
		return "", fmt.Errorf("everything__echo not among %d tools", len(res.Tools))
	}
	return fmt.Sprintf("%d tools", len(res.Tools)), nil
}

func (s *state) progressCheck(ctx context.Context) (string, error) {
	if _, _, err := s.call(ctx, "everything__trigger-long-running-operation", map[string]any{"duration": 1, "steps": 3}, "interop-progress"); err != nil {
		return "", err
	}
	n := s.progressOf("interop-progress")
	if n == 0 {
		return "", errors.New("no progress notification arrived")
	}
	return fmt.Sprintf("%d progress notifications", n), nil
}

func (s *state) cancel(ctx context.Context) (string, error) {
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := s.call(callCtx, "everything__trigger-long-running-operation", map[string]any{"duration": 60, "steps": 120}, "interop-cancel")
		done <- err
	}()
	if err := until(ctx, func() bool { return s.progressOf("interop-cancel") > 0 }); err != nil {
		return "", fmt.Errorf("no progress before cancelling: %w", err)
	}
	cancel()
	err := <-done
	if err == nil {
		return "", errors.New("the cancelled call returned a result")
	}
	if _, _, err := s.call(ctx, "everything__echo", map[string]any{"message": "after cancel"}, ""); err != nil {
		return "", fmt.Errorf("the client is unusable after cancelling: %w", err)
	}
	return "rejected: " + err.Error(), nil
}

func (s *state) resources(ctx context.Context) (string, error) {
	res, err := s.cs.ListResources(ctx, nil)
	if err != nil {
		return "", err
	}
	i := slices.IndexFunc(res.Resources, func(r *sdk.Resource) bool {
		return strings.HasPrefix(r.URI, "demo://resource/static/document/")
	})
	if i < 0 {
		return "", fmt.Errorf("no server-everything document among %d resources", len(res.Resources))
	}
	read, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: res.Resources[i].URI})
	if err != nil {
		return "", err
	}
	if len(read.Contents) == 0 {
		return "", fmt.Errorf("%s read empty", res.Resources[i].URI)
	}
	return fmt.Sprintf("%d resources, read %s", len(res.Resources), res.Resources[i].URI), nil
}

func (s *state) prompts(ctx context.Context) (string, error) {
	res, err := s.cs.ListPrompts(ctx, nil)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(res.Prompts, func(p *sdk.Prompt) bool { return p.Name == "everything__simple-prompt" }) {
		return "", fmt.Errorf("everything__simple-prompt not among %d prompts", len(res.Prompts))
	}
	got, err := s.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "everything__simple-prompt"})
	if err != nil {
		return "", err
	}
	if len(got.Messages) == 0 {
		return "", errors.New("simple-prompt has no messages")
	}
	return fmt.Sprintf("%d prompts, simple-prompt has %d messages", len(res.Prompts), len(got.Messages)), nil
}

func (s *state) completion(ctx context.Context) (string, error) {
	res, err := s.cs.Complete(ctx, &sdk.CompleteParams{
		Ref:      &sdk.CompleteReference{Type: "ref/prompt", Name: "everything__completable-prompt"},
		Argument: sdk.CompleteParamsArgument{Name: "department", Value: "Eng"},
	})
	if err != nil {
		return "", err
	}
	if !slices.Contains(res.Completion.Values, "Engineering") {
		return "", fmt.Errorf("completion %v", res.Completion.Values)
	}
	return strings.Join(res.Completion.Values, ", "), nil
}

func (s *state) listChangedCheck(ctx context.Context) (string, error) {
	before := s.listChanged.Load()
	if err := os.WriteFile(os.Getenv("INTEROP_CONFIG"), []byte(os.Getenv("INTEROP_CONFIG_CHANGED")), 0o600); err != nil {
		return "", err
	}
	if err := until(ctx, func() bool { return s.listChanged.Load() > before }); err != nil {
		return "", fmt.Errorf("no tools/list_changed: %w", err)
	}
	res, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		return "", err
	}
	n := 0
	for _, t := range res.Tools {
		if strings.HasPrefix(t.Name, "memory__") {
			n++
		}
	}
	if n == 0 {
		return "", fmt.Errorf("after list_changed no memory__ tool among %d", len(res.Tools))
	}
	return fmt.Sprintf("%d list_changed, then %d memory__ tools", s.listChanged.Load()-before, n), nil
}

// until polls cond until it holds or ctx ends.
func until(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
