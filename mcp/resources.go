package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// ResourceSource is what the surface needs to offer downstream resources
// and prompts. *hub.Hub satisfies it; a Catalog without it offers none.
type ResourceSource interface {
	Resources() []hub.Resource
	ResourceTemplates() []hub.ResourceTemplate
	Prompts() []hub.Prompt
	ReadResource(ctx context.Context, uri string) (json.RawMessage, error)
	GetPrompt(ctx context.Context, name string, args map[string]string, answers *hub.InputAnswers) (json.RawMessage, error)
	// WatchResources calls fn after every change until stop is called; fn
	// must not block.
	WatchResources(fn func()) (stop func())
}

// resourceSurface remembers what the client-facing lists were built from,
// so that unchanged lists are not set again (each set notifies clients).
type resourceSurface struct {
	mu        sync.Mutex // one sync at a time: the follower or a first list
	src       ResourceSource
	synced    bool
	resources [sha256.Size]byte
	templates [sha256.Size]byte
	prompts   [sha256.Size]byte
}

// serveResources offers src's resources, templates and prompts and keeps
// them in step with it until the server closes.
func (s *Server) serveResources(src ResourceSource) {
	s.resources.src = src
	s.syncResources()
	kick := make(chan struct{}, 1)
	stop := src.WatchResources(func() {
		select {
		case kick <- struct{}{}:
		default: // a sync is pending; it reads the newest lists
		}
	})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		for {
			select {
			case <-s.done:
				return
			case <-kick:
				s.syncResources()
			}
		}
	}()
}

// syncResources sets every list that changed since the last sync (all of
// them the first time); without a source it does nothing.
func (s *Server) syncResources() {
	surface := &s.resources
	surface.mu.Lock()
	defer surface.mu.Unlock()
	src := surface.src
	if src == nil {
		return
	}
	first := !surface.synced
	surface.synced = true
	resources, templates, prompts := src.Resources(), src.ResourceTemplates(), src.Prompts()
	if sig := signatureOf(resources); first || sig != surface.resources {
		surface.resources = sig
		s.mcp.SetResources(s.exportResources(src, resources)...)
	}
	if sig := signatureOf(templates); first || sig != surface.templates {
		surface.templates = sig
		s.mcp.SetResourceTemplates(s.exportTemplates(src, templates)...)
	}
	if sig := signatureOf(prompts); first || sig != surface.prompts {
		surface.prompts = sig
		s.mcp.SetPrompts(s.exportPrompts(src, prompts)...)
	}
}

// signatureOf hashes what clients would see of a list.
func signatureOf(v any) [sha256.Size]byte {
	data, _ := json.Marshal(v)
	return sha256.Sum256(data)
}

func (s *Server) exportResources(src ResourceSource, list []hub.Resource) []mcpserver.ServerResource {
	out := make([]mcpserver.ServerResource, 0, len(list))
	for _, r := range list {
		var res mcpgo.Resource
		if err := json.Unmarshal(r.Raw, &res); err != nil {
			s.log.Warn("skipping resource", "server", r.Server, "uri", r.URI, "err", err)
			continue
		}
		out = append(out, mcpserver.ServerResource{Resource: res, Handler: s.readHandler(src)})
	}
	return out
}

func (s *Server) exportTemplates(src ResourceSource, list []hub.ResourceTemplate) []mcpserver.ServerResourceTemplate {
	out := make([]mcpserver.ServerResourceTemplate, 0, len(list))
	for _, t := range list {
		var tmpl mcpgo.ResourceTemplate
		if err := json.Unmarshal(t.Raw, &tmpl); err != nil || tmpl.URITemplate == nil {
			s.log.Warn("skipping resource template", "server", t.Server, "template", t.URITemplate, "err", err)
			continue
		}
		out = append(out, mcpserver.ServerResourceTemplate{Template: tmpl, Handler: mcpserver.ResourceTemplateHandlerFunc(s.readHandler(src))})
	}
	return out
}

func (s *Server) exportPrompts(src ResourceSource, list []hub.Prompt) []mcpserver.ServerPrompt {
	out := make([]mcpserver.ServerPrompt, 0, len(list))
	for _, p := range list {
		var prompt mcpgo.Prompt
		if err := json.Unmarshal(p.Raw, &prompt); err != nil {
			s.log.Warn("skipping prompt", "server", p.Server, "prompt", p.Original, "err", err)
			continue
		}
		prompt.Name = p.Name
		out = append(out, mcpserver.ServerPrompt{Prompt: prompt, Handler: s.promptHandler(src, p.Name)})
	}
	return out
}
