package hub

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Defaults for the sessions of clients' own.
const (
	defaultMaxClientSessions = 8
	defaultClientSessionIdle = 10 * time.Minute
)

// ClientSessionsFullError is returned when a server that uses its clients'
// roots already runs a session for as many clients as it may.
type ClientSessionsFullError struct {
	Server string
	Limit  int
}

func (e *ClientSessionsFullError) Error() string {
	return fmt.Sprintf("server %s already serves %d clients with a session of their own (it uses each "+
		"client's roots, so clients do not share it); try again once one of them disconnects", e.Server, e.Limit)
}

// clientSessions are the downstream sessions a server runs for one client
// each, once its shared session asked for roots. Each is a supervised
// downstream of its own (for stdio, a child process of its own), started on
// the client's first call and stopped when the client leaves, after it was
// idle for a while, or with the server. Safe for concurrent use.
type clientSessions struct {
	parent *downstream

	mu     sync.Mutex
	byKey  map[string]*clientSession
	start  func(*clientSession) // runs a session under the server's Run; nil before Run and after close
	closed bool
	nextID int
	wg     sync.WaitGroup // the sessions' Run goroutines
}

// clientSession is one client's own session of a server.
type clientSession struct {
	*downstream
	id   int
	done chan struct{} // closed when its Run returned

	useMu   sync.Mutex
	changed chan struct{} // closed and replaced on every state change
	users   int           // calls in flight
	idle    *time.Timer
	idleGen int
	dropped bool
}

func newClientSessions(parent *downstream) *clientSessions {
	return &clientSessions{parent: parent, byKey: map[string]*clientSession{}}
}

// open lets sessions start, each running under ctx (the server's Run).
func (s *clientSessions) open(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.start = func(cs *clientSession) {
		s.wg.Go(func() {
			defer close(cs.done)
			cs.Run(ctx)
		})
	}
}

// closeAll stops every session and waits until their processes are reaped.
func (s *clientSessions) closeAll() {
	s.mu.Lock()
	s.closed, s.start = true, nil
	for key, cs := range s.byKey {
		delete(s.byKey, key)
		cs.drop()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// count is how many client sessions run.
func (s *clientSessions) count() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byKey)
}

// lookup is the session of key, or nil.
func (s *clientSessions) lookup(key string) *clientSession {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKey[key]
}

// remove stops the session of key, if there is one.
func (s *clientSessions) remove(key string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	cs := s.byKey[key]
	delete(s.byKey, key)
	s.mu.Unlock()
	if cs != nil {
		cs.owner.leave()
		cs.drop()
	}
}

// acquire returns the ready session of the client c (key), starting it
// when there is none; release must be called when the request is done.
func (s *clientSessions) acquire(ctx context.Context, key string, c ClientRequester) (*downstream, func(), error) {
	cs, err := s.take(key)
	if err != nil {
		return nil, nil, err
	}
	cs.owner.remember(c)
	release := func() { s.release(cs) }
	if err := cs.awaitReady(ctx, s.parent.opts.ConnectTimeout); err != nil {
		release()
		return nil, nil, err
	}
	return cs.downstream, release, nil
}

// take finds or starts the session of key and counts one more user.
func (s *clientSessions) take(key string) (*clientSession, error) {
	cs, err := s.takeLocked(key)
	if errors.Is(err, errNotRunning) {
		st := s.parent.Status() // counts the sessions: not under s.mu
		if st.State == StateReady {
			st.State = StateStopped
		}
		return nil, Unavailable(st)
	}
	return cs, err
}

// errNotRunning: the server's Run has not started or has returned.
var errNotRunning = errors.New("not running")

func (s *clientSessions) takeLocked(key string) (*clientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.start == nil {
		return nil, errNotRunning
	}
	cs := s.byKey[key]
	if cs == nil {
		limit := s.parent.sessionCap()
		if len(s.byKey) >= limit {
			return nil, &ClientSessionsFullError{Server: s.parent.spec.Name, Limit: limit}
		}
		s.nextID++
		cs = s.newSession(key, s.nextID)
		s.byKey[key] = cs
		s.start(cs)
	}
	cs.useMu.Lock()
	cs.users++
	if cs.idle != nil {
		cs.idle.Stop()
		cs.idle = nil
	}
	cs.useMu.Unlock()
	return cs, nil
}

// release counts one user less; the last one arms the idle timer.
func (s *clientSessions) release(cs *clientSession) {
	cs.useMu.Lock()
	defer cs.useMu.Unlock()
	cs.users--
	if cs.users > 0 || cs.dropped {
		return
	}
	cs.idleGen++
	gen := cs.idleGen
	cs.idle = time.AfterFunc(s.parent.opts.ClientSessionIdle, func() { s.expire(cs, gen) })
}

// expire stops a session that stayed idle since its timer was armed.
func (s *clientSessions) expire(cs *clientSession, gen int) {
	s.mu.Lock()
	cs.useMu.Lock()
	idle := cs.users == 0 && cs.idleGen == gen && !cs.dropped
	cs.useMu.Unlock()
	if idle && s.byKey[cs.owner.key] == cs {
		delete(s.byKey, cs.owner.key)
	} else {
		idle = false
	}
	s.mu.Unlock()
	if idle {
		cs.log.Info("client session idle; stopping it")
		cs.drop()
	}
}

// forget takes a session that gave up out of the set.
func (s *clientSessions) forget(cs *clientSession) {
	s.mu.Lock()
	if s.byKey[cs.owner.key] == cs {
		delete(s.byKey, cs.owner.key)
	}
	s.mu.Unlock()
	cs.drop()
}

// newSession builds the session of key: the server's own spec and
// options, reporting its state only to itself and its notifications
// (progress, logs) to the hub like the shared session's.
func (s *clientSessions) newSession(key string, id int) *clientSession {
	p := s.parent
	cs := &clientSession{id: id, done: make(chan struct{}), changed: make(chan struct{})}
	opts := p.opts
	opts.Logger = p.log.With("client_session", id)
	opts.OnTools, opts.OnExtras = nil, nil
	opts.OnState = func(st ServerStatus) {
		cs.signal()
		if st.State == StateFailed {
			s.forget(cs)
		}
	}
	cs.downstream = newDownstream(p.spec, opts)
	cs.clients = nil
	cs.owner = &sessionOwner{key: key}
	return cs
}

// drop stops the session; its Run returns after the process is reaped.
func (cs *clientSession) drop() {
	cs.useMu.Lock()
	cs.dropped = true
	if cs.idle != nil {
		cs.idle.Stop()
		cs.idle = nil
	}
	cs.useMu.Unlock()
	cs.Stop()
	cs.signal()
}

func (cs *clientSession) signal() {
	cs.useMu.Lock()
	close(cs.changed)
	cs.changed = make(chan struct{})
	cs.useMu.Unlock()
}

// awaitReady waits until the session takes calls, within limit and ctx.
func (cs *clientSession) awaitReady(ctx context.Context, limit time.Duration) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		cs.useMu.Lock()
		changed, dropped := cs.changed, cs.dropped
		cs.useMu.Unlock()
		st := cs.Status()
		switch {
		case dropped:
			st.State = StateStopped
			return Unavailable(st)
		case st.State == StateReady:
			return nil
		case st.Down():
			return Unavailable(st)
		}
		select {
		case <-changed:
		case <-cs.done:
		case <-timer.C:
			return Unavailable(cs.Status())
		case <-ctx.Done():
			return fmt.Errorf("server %s: wait for the client's own session: %w", cs.spec.Name, ctx.Err())
		}
	}
}

// sessionCap is how many clients' own sessions d runs at once: its entry's
// maxClientSessions, else the hub's MaxClientSessions.
func (d *downstream) sessionCap() int {
	if d.spec.MaxClientSessions > 0 {
		return d.spec.MaxClientSessions
	}
	return d.opts.MaxClientSessions
}
