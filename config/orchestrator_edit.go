package config

import (
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// OrchestratorSetup is what the desktop's first-run guide sets of the
// orchestrator: where it answers, which model, and optionally how toolhub
// starts its server.
type OrchestratorSetup struct {
	BaseURL string
	Model   string
	// Launch, when set, is written as "orchestrator.launch": the command
	// and the health URL; empty removes nothing and adds nothing.
	Launch []string
	Health string
}

// SetOrchestrator writes s into the "orchestrator" section of the config at
// path, keeping the user's comments, layout and every other key of the
// section; a missing config starts from the starter. The result must parse,
// or nothing is written.
func SetOrchestrator(path string, s OrchestratorSetup) error {
	if !isHTTPURL(s.BaseURL) {
		return fmt.Errorf("the orchestrator's URL %q is not an http:// or https:// URL", s.BaseURL)
	}
	if s.Model == "" {
		return fmt.Errorf("the orchestrator needs a model id")
	}
	path = resolveLink(path)
	data, perm, err := readOrStarter(path)
	if err != nil {
		return err
	}
	if _, err := Parse(path, data); err != nil {
		return fmt.Errorf("the config has problems; fix them first: %w", err)
	}
	doc, err := hujson.Parse(data)
	if err != nil {
		return fmt.Errorf("parse config: %w", err)
	}
	e, err := newEditor(&doc)
	if err != nil {
		return err
	}
	if doc.Find("/orchestrator") == nil {
		if err := e.add("", "orchestrator", []byte(`{}`)); err != nil {
			return err
		}
	}
	if err := e.set("/orchestrator", "baseUrl", s.BaseURL); err != nil {
		return err
	}
	if err := e.set("/orchestrator", "model", s.Model); err != nil {
		return err
	}
	if len(s.Launch) > 0 {
		launch := map[string]any{"command": s.Launch}
		if s.Health != "" {
			launch["health"] = s.Health
		}
		if err := e.set("/orchestrator", "launch", launch); err != nil {
			return err
		}
	}
	return writeChecked(path, doc.Pack(), perm)
}

// set gives member name of the object at parent the value v: replaced in
// place when it is there, added after the last member otherwise.
func (e *editor) set(parent, name string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	ptr := parent + "/" + escapePointer(name)
	if e.root.Find(ptr) == nil {
		return e.add(parent, name, body)
	}
	pointer, err := json.Marshal(ptr)
	if err != nil {
		return fmt.Errorf("encode patch: %w", err)
	}
	patch := `[{"op": "replace", "path": ` + string(pointer) + `, "value": ` + string(body) + `}]`
	if err := e.root.Patch([]byte(patch)); err != nil {
		return fmt.Errorf("set %s: %w", ptr, err)
	}
	return nil
}
