package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/ui"
)

// SetupState implements ui.GuideBackend.
func (b *Backend) SetupState(ctx context.Context) (ui.SetupState, error) {
	roots, err := b.DocumentRoots(ctx)
	if err != nil {
		return ui.SetupState{}, err
	}
	s := ui.SetupState{Folders: len(roots), ModelConfigured: modelConfigured(b.currentModels())}
	if m := b.currentModels(); m != nil {
		s.Model = ui.ModelSetup{BaseURL: m.Orchestrator.BaseURL, Model: m.Orchestrator.ModelID, Preset: launchPreset(m.Launch)}
	}
	for name := range b.opts.Config.MCPServers {
		if !strings.HasPrefix(name, "toolhub-") {
			s.Servers++
		}
	}
	return s, nil
}

// modelConfigured reports whether the user set an orchestrator: one other
// than the default endpoint, or one toolhub launches.
func modelConfigured(m *config.Models) bool {
	if m == nil {
		return false
	}
	o := m.Orchestrator
	return m.Launch != nil || o.Sampling || o.BaseURL != config.DefaultOrchestratorURL || o.ModelID != config.DefaultOrchestratorModel
}

// TestModel implements ui.GuideBackend: GET baseURL/models, as the
// orchestrator's health is probed.
func (b *Backend) TestModel(ctx context.Context, baseURL string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	url := strings.TrimSuffix(strings.TrimSpace(baseURL), "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL toolhub can ask", baseURL)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("no answer from %s (%s); is the server running?", baseURL, lastCause(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s: is it an OpenAI-compatible server (the URL usually ends in /v1)?", url, resp.Status)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return nil, fmt.Errorf("%s did not answer with a model list: %w", url, err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// ModelPresets implements ui.GuideBackend: the launch presets, whether each
// one's program is installed, and the GPU found.
func (b *Backend) ModelPresets(ctx context.Context) []ui.ModelPreset {
	gpu, memory := localGPU(ctx)
	gpuText := "no NVIDIA GPU found"
	if gpu != "" {
		gpuText = "GPU " + gpu + ", " + memory
	}
	var out []ui.ModelPreset
	for _, p := range config.LaunchPresets() {
		_, err := exec.LookPath(p.Binary)
		out = append(out, ui.ModelPreset{Name: p.Name, Command: strings.Join(p.Command, " "), BaseURL: p.BaseURL,
			Model: p.Model, Needs: p.Needs, Installed: err == nil, GPU: gpuText})
	}
	return out
}

// SaveModel implements ui.GuideBackend: the orchestrator is written to the
// config file and used by the next episode, without a restart.
func (b *Backend) SaveModel(_ context.Context, m ui.ModelSetup) error {
	path := b.opts.Config.Path
	if path == "" {
		return errors.New("this config is held in memory only (started without a config file); nothing can be saved")
	}
	setup := config.OrchestratorSetup{BaseURL: m.BaseURL, Model: m.Model}
	if m.Preset != "" {
		p, ok := presetNamed(m.Preset)
		if !ok {
			return fmt.Errorf("no preset %q", m.Preset)
		}
		setup.Launch, setup.Health = p.Command, p.Health
	}
	if err := config.SetOrchestrator(path, setup); err != nil {
		return err
	}
	models, err := daemon.LoadModels(b.opts.Config)
	if err != nil {
		return err
	}
	if err := b.opts.Daemon.ApplyModels(models); err != nil {
		return err
	}
	b.watch.recheck()
	return nil
}

// launchPreset names the preset whose command toolhub launches; "" for
// none or a command of the user's own.
func launchPreset(l *config.Launch) string {
	if l == nil {
		return ""
	}
	for _, p := range config.LaunchPresets() {
		if slices.Equal(p.Command, l.Command) {
			return p.Name
		}
	}
	return ""
}

func presetNamed(name string) (config.LaunchPreset, bool) {
	for _, p := range config.LaunchPresets() {
		if p.Name == name {
			return p, true
		}
	}
	return config.LaunchPreset{}, false
}
