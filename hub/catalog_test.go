package hub

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawTools lists tools with the given names and an empty object schema.
func rawTools(names ...string) []RawTool {
	tools := make([]RawTool, len(names))
	for i, name := range names {
		tools[i] = RawTool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}
	}
	return tools
}

func toolNames(tools []*Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

func TestCatalogSnapshotContents(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "fs", Locality: LocalityLocal}, rawTools("write", "read"))
	c.SetServer(ServerMeta{Name: "web", Locality: LocalityRemote, CostPerCall: 0.01, CostPerSecond: 0.5}, rawTools("fetch"))
	c.SetServer(ServerMeta{Name: "builtin", Unprefixed: true}, rawTools("python"))
	snap := c.Snapshot()

	want := []string{"fs__read", "fs__write", "python", "web__fetch"}
	if got := toolNames(snap.Tools()); !slices.Equal(got, want) {
		t.Fatalf("Tools() = %v, want %v", got, want)
	}
	if snap.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", snap.Len(), len(want))
	}
	fetch, ok := snap.Lookup("web__fetch")
	if !ok {
		t.Fatal("Lookup(web__fetch) found nothing")
	}
	if fetch.Server != "web" || fetch.RawTool.Name != "fetch" || fetch.Locality != LocalityRemote || fetch.CostPerCall != 0.01 || fetch.CostPerSecond != 0.5 {
		t.Errorf("web__fetch = %+v", fetch)
	}
	if _, ok := snap.Lookup("fetch"); ok {
		t.Error("Lookup(fetch) found a tool under its original name")
	}
	if got := toolNames(snap.ServerTools("fs")); !slices.Equal(got, []string{"fs__read", "fs__write"}) {
		t.Errorf("ServerTools(fs) = %v", got)
	}
	if got := snap.ServerTools("nope"); got != nil {
		t.Errorf("ServerTools(nope) = %v", got)
	}
}

func TestCatalogDropsNamelessAndRepeatedTools(t *testing.T) {
	c := NewCatalog(nil)
	tools := rawTools("a", "", "a", "b")
	tools[2].Description = "second a"
	c.SetServer(ServerMeta{Name: "s"}, tools)
	snap := c.Snapshot()
	if got := toolNames(snap.Tools()); !slices.Equal(got, []string{"s__a", "s__b"}) {
		t.Fatalf("Tools() = %v", got)
	}
	if a, _ := snap.Lookup("s__a"); a.Description != "" {
		t.Errorf("kept the later duplicate: %q", a.Description)
	}
}

func TestCatalogOldSnapshotUnchanged(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "s"}, rawTools("a", "b"))
	old := c.Snapshot()
	oldTools := slices.Clone(old.Tools())

	c.SetServer(ServerMeta{Name: "s"}, rawTools("b", "c"))
	c.SetServer(ServerMeta{Name: "t"}, rawTools("x"))
	c.RemoveServer("s")

	if got := toolNames(old.Tools()); !slices.Equal(got, []string{"s__a", "s__b"}) {
		t.Errorf("old snapshot now lists %v", got)
	}
	if !slices.Equal(old.Tools(), oldTools) {
		t.Error("old snapshot's tools were replaced")
	}
	if _, ok := old.Lookup("s__a"); !ok {
		t.Error("old snapshot lost s__a")
	}
	if _, ok := old.Lookup("t__x"); ok {
		t.Error("old snapshot gained t__x")
	}
	if got := toolNames(c.Snapshot().Tools()); !slices.Equal(got, []string{"t__x"}) {
		t.Errorf("current snapshot lists %v", got)
	}
	if old.Version() >= c.Snapshot().Version() {
		t.Errorf("versions did not increase: %d then %d", old.Version(), c.Snapshot().Version())
	}
}

func TestCatalogOnChangeOnlyWhenSomethingChanged(t *testing.T) {
	var versions []uint64
	c := NewCatalog(func(s *Snapshot) { versions = append(versions, s.Version()) })
	if c.Snapshot().Version() != 0 || c.Snapshot().Len() != 0 {
		t.Fatal("a new catalog is not empty at version 0")
	}
	meta := ServerMeta{Name: "s", Locality: LocalityLocal}
	c.SetServer(meta, rawTools("a"))
	c.SetServer(meta, rawTools("a")) // same again
	c.RemoveServer("unknown")
	changed := rawTools("a")
	changed[0].Description = "now described"
	c.SetServer(meta, changed)
	meta.CostPerCall = 1
	c.SetServer(meta, changed)
	c.RemoveServer("s")

	if want := []uint64{1, 2, 3, 4}; !slices.Equal(versions, want) {
		t.Errorf("onChange saw versions %v, want %v", versions, want)
	}
}

func TestCatalogOnChangeMayChangeTheCatalog(t *testing.T) {
	var c *Catalog
	var seen []int
	c = NewCatalog(func(s *Snapshot) {
		seen = append(seen, s.Len())
		if s.Len() == 1 {
			c.SetServer(ServerMeta{Name: "second"}, rawTools("x"))
		}
	})
	done := make(chan struct{})
	go func() {
		c.SetServer(ServerMeta{Name: "first"}, rawTools("x"))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SetServer from inside onChange deadlocked")
	}
	if !slices.Equal(seen, []int{1, 2}) {
		t.Errorf("onChange saw sizes %v, want [1 2]", seen)
	}
}

func TestCatalogStatsPersistAcrossRebuilds(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "s"}, rawTools("a", "b"))
	a, _ := c.Snapshot().Lookup("s__a")
	a.Stats.Record(100*time.Millisecond, false)

	described := rawTools("a", "b")
	described[0].Description = "changed"
	c.SetServer(ServerMeta{Name: "s"}, described)
	c.SetServer(ServerMeta{Name: "s x"}, rawTools("a")) // unrelated server
	c.RemoveServer("s")
	c.SetServer(ServerMeta{Name: "s", Locality: LocalityRemote}, rawTools("a"))

	again, _ := c.Snapshot().Lookup("s__a")
	if again.Stats != a.Stats {
		t.Fatal("s__a got a new ToolStats")
	}
	if v := again.Stats.View(); v.Calls != 1 || v.Latency != 100*time.Millisecond {
		t.Errorf("stats after rebuilds: %+v", v)
	}
	other, _ := c.Snapshot().Lookup("s_x__a")
	if other.Stats == a.Stats {
		t.Error("two tools share one ToolStats")
	}
}

func TestCatalogReusesUnchangedTools(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "s"}, rawTools("a"))
	before, _ := c.Snapshot().Lookup("s__a")
	c.SetServer(ServerMeta{Name: "t"}, rawTools("b"))
	after, _ := c.Snapshot().Lookup("s__a")
	if before != after {
		t.Error("an unchanged tool was rebuilt, losing its compiled schema")
	}
}

func TestCatalogConcurrentReadersAndWriters(t *testing.T) {
	c := NewCatalog(func(*Snapshot) {})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 2 {
		wg.Go(func() {
			for i := range 200 {
				server := fmt.Sprintf("srv%d", (w*7+i)%5)
				if i%4 == 3 {
					c.RemoveServer(server)
					continue
				}
				c.SetServer(ServerMeta{Name: server}, rawTools("read", "write", fmt.Sprintf("t%d", i%3)))
			}
		})
	}
	var readers sync.WaitGroup
	for range 6 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := checkSnapshot(c.Snapshot()); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
}

// checkSnapshot verifies what must hold for every snapshot.
func checkSnapshot(s *Snapshot) error {
	tools := s.Tools()
	if len(tools) != s.Len() {
		return fmt.Errorf("Len %d but %d tools", s.Len(), len(tools))
	}
	if !slices.IsSortedFunc(tools, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) }) {
		return fmt.Errorf("tools not sorted: %v", toolNames(tools))
	}
	for _, tool := range tools {
		if found, ok := s.Lookup(tool.Name); !ok || found != tool {
			return fmt.Errorf("Lookup(%q) does not find the listed tool", tool.Name)
		}
		tool.Stats.Record(time.Millisecond, false)
	}
	s.Suggest("srv1__raed", 3)
	return nil
}
