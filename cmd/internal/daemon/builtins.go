package daemon

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/tools"
)

// builtinPrefix starts the names of toolhub's own providers.
const builtinPrefix = "toolhub-"

// builtinSpec puts one of toolhub's own providers in the hub as an
// unprefixed in-process server: its tools keep their own names. A zero
// timeout is the hub's default.
func builtinSpec(name string, srv *mcpserver.MCPServer, locality hub.Locality, timeout time.Duration) hub.ServerSpec {
	return hub.ServerSpec{
		Name:       builtinPrefix + name,
		Transport:  hub.TransportInProcess,
		InProcess:  srv,
		Unprefixed: true,
		Locality:   locality,
		Timeout:    timeout,
	}
}

// documentsSpec puts the documents provider in the hub, local.
func documentsSpec(docs *tools.Documents) hub.ServerSpec {
	return builtinSpec(tools.DocumentsServerName, docs.Server(), hub.LocalityLocal, 0)
}

func documentsOptions(docs config.Documents, bus *events.Bus, log *slog.Logger) tools.DocumentsOptions {
	home, _ := os.UserHomeDir()
	return tools.DocumentsOptions{
		Roots:        docs.ResolvedRoots(home),
		Exclude:      docs.Exclude,
		MaxFileBytes: docs.MaxFileBytes,
		Logger:       log,
		Events:       bus,
	}
}

// withBuiltin adds a built-in provider, refusing a configured server that
// took its name.
func withBuiltin(specs []hub.ServerSpec, b hub.ServerSpec) ([]hub.ServerSpec, error) {
	for _, s := range specs {
		if s.Name == b.Name {
			return nil, fmt.Errorf("server name %q is reserved for toolhub's built-in tools; rename it in the config", s.Name)
		}
	}
	return append(specs, b), nil
}
