package config

import (
	"bytes"
	"testing"
)

func TestStarterParsesCleanly(t *testing.T) {
	f, err := Parse("starter.jsonc", Starter())
	if err != nil {
		t.Fatalf("the starter config has problems:\n%v", err)
	}
	if len(f.MCPServers) != 0 {
		t.Errorf("the starter starts %d servers, want none", len(f.MCPServers))
	}
	specs, err := f.Specs(fakeEnv(nil))
	if err != nil || len(specs) != 0 {
		t.Errorf("Specs = %v, %v", specs, err)
	}
}

func TestStarterExplainsEveryKey(t *testing.T) {
	text := Starter()
	keys := append(append(append([]string{}, serverKeys...), documentsKeys...), embedderKeys...)
	keys = append(keys, "models", "orchestrator", "preferences", "http", "${NAME}", "${NAME:-fallback}")
	for _, k := range keys {
		if !bytes.Contains(text, []byte(`"`+k+`"`)) && !bytes.Contains(text, []byte(k)) {
			t.Errorf("the starter does not mention %q", k)
		}
	}
}

func TestStarterIsACopy(t *testing.T) {
	a := Starter()
	a[0] = 'X'
	if Starter()[0] == 'X' {
		t.Error("Starter returned shared memory")
	}
}
