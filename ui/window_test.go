package ui

import (
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

func TestTrayKeepRunningIsRemembered(t *testing.T) {
	h := newHarness(t, nil)
	menu := h.d.trayMenu()
	keep := menu.Items[3]
	if keep.Label != "Keep running in background" || keep.Checked {
		t.Fatalf("tray item %q checked=%v", keep.Label, keep.Checked)
	}
	keep.Action()
	if !h.d.KeepRunning || !keep.Checked {
		t.Fatal("keep running not switched on")
	}
	if !h.d.App.Preferences().Bool(prefKeepRunning) {
		t.Fatal("keep running not remembered")
	}
	// A new desktop on the same app starts with the remembered choice.
	again := New(h.d.App, h.fb, Options{Post: h.q.Post, ProbeEvery: time.Hour})
	defer again.Stop()
	if !again.KeepRunning {
		t.Fatal("keep running forgotten")
	}
}

// TestKeepRunningIsInTheViewMenuToo: without a tray (no D-Bus) the View
// menu holds the same choice, and the two never disagree.
func TestKeepRunningIsInTheViewMenuToo(t *testing.T) {
	h := newHarness(t, nil)
	tray := h.d.trayMenu().Items[3]
	var view *fyne.MenuItem
	for _, item := range h.d.Window.MainMenu().Items[0].Items {
		if item.Label == "Keep running in background" {
			view = item
		}
	}
	if view == nil {
		t.Fatal("the View menu has no Keep running in background")
	}
	view.Action()
	if !h.d.KeepRunning || !view.Checked || !tray.Checked {
		t.Fatalf("after the View menu: keep %v, view %v, tray %v", h.d.KeepRunning, view.Checked, tray.Checked)
	}
	tray.Action()
	if h.d.KeepRunning || view.Checked || tray.Checked {
		t.Fatalf("after the tray: keep %v, view %v, tray %v", h.d.KeepRunning, view.Checked, tray.Checked)
	}
}

// TestEveryWayToQuitSaysQuitting: the window, the tray and Quit all close
// Quitting (the app's main watches it), and only they do.
func TestEveryWayToQuitSaysQuitting(t *testing.T) {
	cases := []struct {
		name string
		keep bool
		act  func(h *harness)
		want bool
	}{
		{"Quit", false, func(h *harness) { h.d.Quit() }, true},
		{"closing the window", false, func(h *harness) { h.d.closeRequested() }, true},
		{"the tray's Quit", false, func(h *harness) { h.d.trayMenu().Items[4].Action() }, true},
		{"closing the window while kept running", true, func(h *harness) { h.d.closeRequested() }, false},
		{"nothing", false, func(*harness) {}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.d.KeepRunning = c.keep
			c.act(h)
			h.q.Drain()
			select {
			case <-h.d.Quitting():
				if !c.want {
					t.Fatal("Quitting is closed")
				}
			default:
				if c.want {
					t.Fatal("Quitting is still open")
				}
			}
		})
	}
}

func TestThrottleCoalescesAndDeliversTheLast(t *testing.T) {
	q := NewQueue()
	b := newBridge(q.Post, time.Second)
	defer b.close()
	var mu sync.Mutex
	var shown []int
	th := newThrottle(b, func(v int) { mu.Lock(); shown = append(shown, v); mu.Unlock() })
	for i := 1; i <= 1000; i++ {
		th.offer(i)
	}
	th.flush()
	q.Drain()
	if len(shown) == 0 || len(shown) > 3 || shown[len(shown)-1] != 1000 {
		t.Fatalf("shown %v; want at most a few values ending with 1000", shown)
	}
}

func TestClosedBridgeCancelsRunningCalls(t *testing.T) {
	b := newBridge(NewQueue().Post, time.Hour)
	ctx, release := b.cancellable()
	defer release()
	b.close()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a running call was not cancelled by close")
	}
	late, release2 := b.callContext()
	defer release2()
	if late.Err() == nil {
		t.Fatal("a call started after close is not cancelled")
	}
}
