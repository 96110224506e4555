package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

const (
	// maxToolPages bounds tools/list pagination against a server that never
	// stops handing out cursors.
	maxToolPages = 100
	// listChangedMaxWait bounds how long a continuous storm of
	// tools/list_changed can postpone a re-list.
	listChangedMaxWait = 2 * time.Second
)

// listTools fetches tools/list raw, following nextCursor, so every tool keeps
// its schemas exactly as the server wrote them.
func listTools(ctx context.Context, conn *connection) ([]RawTool, error) {
	var all []RawTool
	seen := map[string]bool{}
	cursor := ""
	for range maxToolPages {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		result, err := conn.request(ctx, "tools/list", params)
		if err != nil {
			if cursor == "" && offersNoTools(err) {
				return nil, nil
			}
			return nil, err
		}
		tools, err := ParseRawTools(result)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		all = append(all, tools...)
		next, err := nextCursor(result)
		if err != nil || next == "" {
			if err == nil && conn.routingHeaders && conn.era.modern {
				conn.headerTools.remember(all)
			}
			return all, err
		}
		if seen[next] {
			return nil, fmt.Errorf("tools/list: cursor %q repeated", next)
		}
		seen[next] = true
		cursor = next
	}
	return nil, fmt.Errorf("tools/list: more than %d pages", maxToolPages)
}

// offersNoTools reports whether err says the server has no tools/list at
// all (a server of resources or prompts only).
func offersNoTools(err error) bool {
	var remote *RemoteError
	return errors.As(err, &remote) && remote.Code == mcpgo.METHOD_NOT_FOUND
}

func nextCursor(result json.RawMessage) (string, error) {
	var page struct {
		NextCursor string `json:"nextCursor"`
	}
	if err := json.Unmarshal(result, &page); err != nil {
		return "", fmt.Errorf("tools/list: %w", err)
	}
	return page.NextCursor, nil
}

// followToolChanges re-lists the tools after tools/list_changed until the
// connection closes. A burst of notifications is coalesced: the re-list
// waits until the notifications have been quiet for ListChangedQuiet (or
// listChangedMaxWait has passed), so a storm of them costs a bounded number
// of re-lists.
func (d *downstream) followToolChanges(ctx context.Context, conn *connection) {
	for {
		select {
		case <-conn.done:
			return
		case <-ctx.Done():
			return
		case <-conn.listChanged:
		}
		if !d.awaitQuiet(ctx, conn) {
			return
		}
		tools, err := d.relist(ctx, conn)
		if err != nil {
			d.log.Warn("re-listing tools failed", "err", err)
			continue
		}
		d.setTools(conn, tools)
	}
}

// relist lists the tools again, giving up when the connection closes (an
// in-process server may not watch ctx).
func (d *downstream) relist(ctx context.Context, conn *connection) ([]RawTool, error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.CallTimeout)
	defer cancel()
	go func() {
		select {
		case <-conn.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return listTools(ctx, conn)
}

// awaitQuiet absorbs further list_changed notifications until none arrives
// for the quiet period. It reports false when the connection or ctx ended.
func (d *downstream) awaitQuiet(ctx context.Context, conn *connection) bool {
	return awaitQuietOn(ctx, conn, conn.listChanged, d.opts.ListChangedQuiet)
}
