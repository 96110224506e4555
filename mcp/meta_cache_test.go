package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

const cachedMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"roots":{},"sampling":{}}}`

func TestReadCallMeta(t *testing.T) {
	for _, tc := range []struct {
		name       string
		meta       string
		ok, modern bool
		token      mcpgo.ProgressToken
		cached     int
	}{
		{"none", ``, true, false, nil, 0},
		{"null", `null`, true, false, nil, 0},
		{"empty", `{}`, true, false, nil, 0},
		{"progress token alone", `{"progressToken":"p1"}`, true, false, "p1", 0},
		{"2026-07-28 client", cachedMeta, true, true, nil, 1},
		{"2026-07-28 client asking for progress", cachedMeta[:len(cachedMeta)-1] + `,"progressToken":7}`, true, true, float64(7), 0},
		{"unknown key", `{"x":1}`, false, false, nil, 0},
		{"older version", `{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`, false, false, nil, 0},
		{"no capabilities", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, false, false, nil, 0},
		{"not an object", `[1]`, false, false, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{}
			for round := range 2 { // the second round reads what the first cached
				p := shortCallParams{Meta: json.RawMessage(tc.meta)}
				info, ok := s.readCallMeta(&p)
				if ok != tc.ok || (info != nil) != tc.modern {
					t.Fatalf("round %d: ok %v, info %+v; want ok %v, modern %v", round, ok, info, tc.ok, tc.modern)
				}
				if !reflect.DeepEqual(p.token, tc.token) {
					t.Errorf("round %d: token %#v, want %#v", round, p.token, tc.token)
				}
				if tc.modern && (info.ProtocolVersion != mcpgo.ProtocolVersion20260728 || info.ClientInfo.Name != "c" ||
					info.ClientCapabilities == nil || info.ClientCapabilities.Sampling == nil) {
					t.Errorf("round %d: info %+v", round, info)
				}
			}
			if got := s.metas.len(); got != tc.cached {
				t.Errorf("%d _meta cached, want %d", got, tc.cached)
			}
		})
	}
}

func TestMetaCacheHandsOutCopies(t *testing.T) {
	s := &Server{}
	read := func() *shortCallParams { return &shortCallParams{Meta: json.RawMessage(cachedMeta)} }
	first, _ := s.readCallMeta(read())
	second, _ := s.readCallMeta(read())
	if first == second {
		t.Fatal("two calls share one RequestProtocolInfo")
	}
	second.LogLevel = "debug"
	if third, _ := s.readCallMeta(read()); third.LogLevel != "" || !reflect.DeepEqual(first, third) {
		t.Errorf("a change to one call's info reached the cache: %+v", third)
	}
}

func TestMetaCacheKeepsNoLargeMeta(t *testing.T) {
	s := &Server{}
	large := cachedMeta[:len(cachedMeta)-1] + `,"io.modelcontextprotocol/clientInfo":{"name":"c","version":"` +
		strings.Repeat("9", maxCachedMeta) + `"}}`
	for range 2 {
		if _, ok := s.readCallMeta(&shortCallParams{Meta: json.RawMessage(large)}); !ok {
			t.Fatal("a large _meta was not read")
		}
	}
	if n := s.metas.len(); n != 0 {
		t.Errorf("%d _meta cached, want none larger than %d bytes", n, maxCachedMeta)
	}
}

func TestMetaCacheStaysBounded(t *testing.T) {
	var c metaCache
	for i := range 3 * metaCacheSize {
		s := &Server{}
		info, ok := s.readCallMeta(&shortCallParams{Meta: json.RawMessage(
			fmt.Sprintf(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c%d","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`, i))})
		if !ok {
			t.Fatal("not read")
		}
		c.put([]byte(fmt.Sprint(i)), info)
		if n := c.len(); n > metaCacheSize {
			t.Fatalf("%d entries cached, at most %d allowed", n, metaCacheSize)
		}
	}
}
