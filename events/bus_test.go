package events

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPublishNumbersEventsAndDeliversInOrder(t *testing.T) {
	b := New(Options{})
	sub := b.Subscribe(Filter{})
	defer sub.Cancel()
	for i := range 5 {
		b.Publish(RunStep, "r1", i)
	}
	for want := int64(1); want <= 5; want++ {
		e := <-sub.C()
		if e.ID != want || e.Data.(int) != int(want-1) || e.Subject != "r1" || e.Type != RunStep {
			t.Fatalf("event %d: got %+v", want, e)
		}
	}
	if got := b.LastID(); got != 5 {
		t.Fatalf("LastID = %d, want 5", got)
	}
}

func TestFiltersByMaskAndSubject(t *testing.T) {
	tests := []struct {
		name   string
		filter Filter
		want   []int64
	}{
		{"everything", Filter{}, []int64{1, 2, 3, 4}},
		{"run steps", Filter{Mask: RunStep}, []int64{2, 3}},
		{"one run", Filter{Mask: RunEvents, Subject: "a"}, []int64{1, 2}},
		{"servers", Filter{Mask: ServerChanged}, []int64{4}},
		{"nothing of that type", Filter{Mask: IngestProgress}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New(Options{})
			sub := b.Subscribe(tc.filter)
			b.Publish(RunStarted, "a", nil)
			b.Publish(RunStep, "a", nil)
			b.Publish(RunStep, "b", nil)
			b.Publish(ServerChanged, "everything", nil)
			sub.Cancel()
			var got []int64
			for e := range sub.C() {
				got = append(got, e.ID)
			}
			if !equal(got, tc.want) {
				t.Fatalf("got ids %v, want %v", got, tc.want)
			}
			var since []int64
			for _, e := range b.Since(0, orAll(tc.filter.Mask)) {
				if tc.filter.Subject == "" || e.Subject == tc.filter.Subject {
					since = append(since, e.ID)
				}
			}
			if !equal(since, tc.want) {
				t.Fatalf("Since: got ids %v, want %v", since, tc.want)
			}
		})
	}
}

func TestAFullSubscriptionLosesEventsAndSaysSo(t *testing.T) {
	b := New(Options{})
	sub := b.Subscribe(Filter{Buffer: 2})
	defer sub.Cancel()
	for range 5 {
		b.Publish(RunStep, "", nil) // never blocks
	}
	if got := sub.Dropped(); got != 3 {
		t.Fatalf("Dropped = %d, want 3", got)
	}
	if e := <-sub.C(); e.ID != 1 {
		t.Fatalf("first kept event has id %d, want 1", e.ID)
	}
}

func TestSinceKeepsOnlyTheMostRecent(t *testing.T) {
	b := New(Options{Keep: 3})
	for range 10 {
		b.Publish(RunStep, "", nil)
	}
	got := b.Since(2, AllTypes)
	if len(got) != 3 || got[0].ID != 8 || got[2].ID != 10 {
		t.Fatalf("Since(2) = %v, want ids 8..10 (the bus keeps 3)", ids(got))
	}
	if got := b.Since(9, AllTypes); len(got) != 1 || got[0].ID != 10 {
		t.Fatalf("Since(9) = %v, want [10]", ids(got))
	}
}

func TestWaitReturnsOnceAnEventArrives(t *testing.T) {
	b := New(Options{})
	b.Publish(ServerChanged, "x", nil)
	var wg sync.WaitGroup
	wg.Add(1)
	var got []Event
	var err error
	go func() {
		defer wg.Done()
		got, err = b.Wait(context.Background(), 1, RunFinished)
	}()
	// Events that do not match do not end the wait; the matching one does.
	b.Publish(ServerChanged, "x", nil)
	b.Publish(RunFinished, "r", nil)
	wg.Wait()
	if err != nil || len(got) != 1 || got[0].Type != RunFinished {
		t.Fatalf("Wait = %v, %v; want the RunFinished event", ids(got), err)
	}
}

func TestWaitEndsWithItsContext(t *testing.T) {
	b := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Wait(ctx, 0, AllTypes); err == nil {
		t.Fatal("Wait on an ended context returned no error")
	}
}

func TestNilBusAcceptsPublish(t *testing.T) {
	var b *Bus
	if e := b.Publish(RunStep, "", nil); e.ID != 0 {
		t.Fatalf("nil bus gave id %d", e.ID)
	}
}

func TestCancelTwiceIsSafe(t *testing.T) {
	b := New(Options{Now: func() time.Time { return time.Unix(1, 0) }})
	sub := b.Subscribe(Filter{})
	sub.Cancel()
	sub.Cancel()
	b.Publish(RunStep, "", nil)
	if _, open := <-sub.C(); open {
		t.Fatal("a cancelled subscription still delivers")
	}
}

func orAll(m Type) Type {
	if m == 0 {
		return AllTypes
	}
	return m
}

func ids(es []Event) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFollowSeesEverythingPublishedBeforeStop(t *testing.T) {
	b := New(Options{})
	var got []int64
	stop, dropped := b.Follow(Filter{Mask: RunStep, Subject: "r"}, func(e Event) { got = append(got, e.ID) })
	b.Publish(RunStep, "r", nil)
	b.Publish(RunStep, "other", nil)
	b.Publish(RunStep, "r", nil)
	stop()
	if !equal(got, []int64{1, 3}) || dropped() != 0 {
		t.Fatalf("followed %v (dropped %d), want [1 3]", got, dropped())
	}
}
