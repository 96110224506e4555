package hub

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// maxListPages bounds the pagination of resources/list,
// resources/templates/list and prompts/list.
const maxListPages = 100

// Resource is one downstream resource. URIs are offered to clients as the
// server wrote them; the hub routes reads back by URI.
type Resource struct {
	Server string
	URI    string
	Name   string
	Raw    json.RawMessage // the entry exactly as resources/list gave it
}

// ResourceTemplate is one downstream resource template (RFC 6570).
type ResourceTemplate struct {
	Server      string
	URITemplate string
	Name        string
	Raw         json.RawMessage // the entry exactly as resources/templates/list gave it
}

// Prompt is one downstream prompt under its exposed name (server__prompt,
// named like tools).
type Prompt struct {
	Server   string
	Name     string // exposed name
	Original string // the server's own name
	Raw      json.RawMessage
}

// serverExtras is what one server offers besides tools, as listed.
type serverExtras struct {
	resources []json.RawMessage
	templates []json.RawMessage
	prompts   []json.RawMessage
}

// listExtras lists the resources, templates and prompts the server declared
// in its capabilities.
func listExtras(ctx context.Context, conn *connection, caps mcpgo.ServerCapabilities) (serverExtras, error) {
	var out serverExtras
	var err error
	if caps.Resources != nil {
		if out.resources, err = listPaged(ctx, conn, "resources/list", "resources"); err != nil {
			return out, err
		}
		if out.templates, err = listPaged(ctx, conn, "resources/templates/list", "resourceTemplates"); err != nil {
			return out, err
		}
	}
	if caps.Prompts != nil {
		if out.prompts, err = listPaged(ctx, conn, "prompts/list", "prompts"); err != nil {
			return out, err
		}
	}
	return out, nil
}

// listPaged fetches every page of a list method and returns the raw entries
// found under field. A server without the method lists nothing.
func listPaged(ctx context.Context, conn *connection, method, field string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	seen := map[string]bool{}
	cursor := ""
	for range maxListPages {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		result, err := conn.request(ctx, method, params)
		if err != nil {
			if cursor == "" && offersNoTools(err) {
				return nil, nil
			}
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(result, &page); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var entries []json.RawMessage
		if raw, ok := page[field]; ok {
			if err := json.Unmarshal(raw, &entries); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", method, field, err)
			}
		}
		all = append(all, entries...)
		var next string
		if raw, ok := page["nextCursor"]; ok {
			if err := json.Unmarshal(raw, &next); err != nil {
				return nil, fmt.Errorf("%s: nextCursor: %w", method, err)
			}
		}
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("%s: cursor %q repeated", method, next)
		}
		seen[next] = true
		cursor = next
	}
	return nil, fmt.Errorf("%s: more than %d pages", method, maxListPages)
}

// Request sends one request to the server and returns its result raw, with
// the server's timeout and the same error classification as Call.
// Reads, prompts and completions of a server that uses its clients' roots
// go through the calling client's own session; subscriptions stay on the
// shared session, which relays their updates to every subscriber.
func (d *downstream) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	target := d
	if method == "resources/subscribe" || method == "resources/unsubscribe" {
		if conn, _ := d.currentConn(); conn != nil && conn.era.modern {
			return d.subscribeByListening(ctx, conn, method, params)
		}
	} else {
		t, release, err := d.sessionFor(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		target = t
	}
	return target.request(ctx, method, params)
}

// request sends one request on this session's connection.
func (d *downstream) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	conn, st := d.currentConn()
	if conn == nil {
		return nil, Unavailable(st)
	}
	timeout := d.callTimeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	leave := d.calls.enter(callCtx)
	defer leave()
	result, err := conn.requestIn(callCtx, conn.era.forClient(ClientFrom(ctx), false), method, params)
	if err == nil {
		return result, nil
	}
	return nil, d.callError(ctx, callCtx, conn, method, timeout, err)
}
