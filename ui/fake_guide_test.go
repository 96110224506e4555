package ui

import (
	"context"
	"errors"
)

// fakeGuide is the fake backend's part for the setup guide: a server at
// "http://up/v1" serves "orch-8b"; any other URL does not answer.
type fakeGuide struct {
	setup  SetupState
	saved  []ModelSetup
	tested []string
}

func (f *fakeBackend) SetupState(context.Context) (SetupState, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.guide.setup, nil
}

func (f *fakeBackend) TestModel(_ context.Context, url string) ([]string, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guide.tested = append(f.guide.tested, url)
	if url != "http://up/v1" {
		return nil, errors.New("no answer from " + url + " (connection refused)")
	}
	return []string{"orch-8b"}, nil
}

func (f *fakeBackend) ModelPresets(context.Context) []ModelPreset {
	f.note()
	return []ModelPreset{{Name: "llama.cpp", Command: "llama-server -hf x --port 8080", BaseURL: "http://127.0.0.1:8080/v1",
		Model: "orch-gguf", Needs: "a GPU", GPU: "no NVIDIA GPU found"}}
}

func (f *fakeBackend) SaveModel(_ context.Context, m ModelSetup) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.guide.saved = append(f.guide.saved, m)
	f.guide.setup.ModelConfigured = true
	return nil
}
