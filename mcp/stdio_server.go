package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/mcpwire"
)

// stdioWorkers is how many goroutines wait for requests; a request that
// finds them all busy gets a goroutine of its own.
const stdioWorkers = 8

// stdioConn serves one MCP client over a pair of streams (toolhub's stdin
// and stdout): one message per line each way. Requests are answered
// concurrently and notifications handled in order, by mcp-go's MCPServer;
// a tools/call of a catalog tool takes a shorter path straight to the hub
// (stdio_shortcall.go). Nothing but protocol messages is written to out.
type stdioConn struct {
	s       *Server
	session *stdioSession
	maxLine int
	grace   time.Duration // stdioDrainGrace; tests shorten it

	writeMu sync.Mutex
	out     io.Writer

	work     chan func()    // to the waiting workers
	working  sync.WaitGroup // the workers
	spawned  sync.WaitGroup // requests that found no worker waiting
	inflight sync.WaitGroup // requests not yet answered (drain)
	calls    sync.Map       // raw JSON id of a short-path call -> context.CancelCauseFunc
}

func newStdioConn(s *Server, out io.Writer, maxLine int) *stdioConn {
	c := &stdioConn{s: s, out: out, maxLine: maxLine, grace: stdioDrainGrace, work: make(chan func())}
	c.session = newStdioSession(c)
	return c
}

// serve reads messages from in until it ends or ctx is cancelled. When in
// ends, the requests still running are answered first (drain); then, as on
// cancellation, whatever still runs sees its context end, and the workers
// are waited for. A read blocked on in is left to end when in is closed.
func (c *stdioConn) serve(ctx context.Context, in io.Reader) error {
	if err := c.s.mcp.RegisterSession(ctx, c.session); err != nil {
		return fmt.Errorf("register the stdio session: %w", err)
	}
	defer c.s.mcp.UnregisterSession(context.WithoutCancel(ctx), c.session.SessionID())
	ctx = c.s.mcp.WithContext(ctx, c.session)
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.working.Wait()
	}()
	go c.session.writeNotifications(ctx)
	for range stdioWorkers {
		c.working.Go(func() {
			for {
				select {
				case f := <-c.work:
					f()
				case <-ctx.Done():
					return
				}
			}
		})
	}
	ended := make(chan error, 1)
	go func() { ended <- c.readMessages(ctx, in) }()
	select {
	case err := <-ended:
		if err == nil {
			c.drain(ctx, c.grace)
		}
		return err
	case <-ctx.Done():
		return nil
	}
}

// readMessages dispatches every line of in until in ends or ctx is done.
func (c *stdioConn) readMessages(ctx context.Context, in io.Reader) error {
	lines := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := c.readLine(lines)
		if ctx.Err() != nil {
			return nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(ctx, line)
		}
		var long *lineTooLongError
		switch {
		case errors.As(err, &long):
			// The reply names the request's id, found in the message's first
			// or last bytes, so that the client does not wait for it forever.
			id := mcpwire.IdentifyMessage(long.head, long.tail).ID
			c.writeError(id, mcpgo.INVALID_REQUEST, fmt.Sprintf(
				"message too large: toolhub accepts messages of at most %d bytes", c.maxLine))
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("read stdin: %w", err)
		}
	}
}

// lineTooLongError is a line longer than maxLine, read to its end and
// dropped; head and tail are its first and last bytes.
type lineTooLongError struct{ head, tail []byte }

func (e *lineTooLongError) Error() string { return "line too long" }

// longLineSample is how much of the start and of the end of a line too long
// is kept to find the id of the request it carries.
const longLineSample = 4 << 10

// add notes a further part of the line.
func (e *lineTooLongError) add(part []byte) {
	if room := longLineSample - len(e.head); room > 0 {
		e.head = append(e.head, part[:min(room, len(part))]...)
	}
	e.tail = append(e.tail, part...)
	if over := len(e.tail) - longLineSample; over > 0 {
		e.tail = append(e.tail[:0], e.tail[over:]...)
	}
}

// readLine reads one line of at most maxLine bytes. A longer line is read
// to its end and dropped, reported as a *lineTooLongError.
func (c *stdioConn) readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > c.maxLine {
			long := &lineTooLongError{}
			long.add(line)
			long.add(chunk)
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = r.ReadSlice('\n')
				long.add(chunk)
			}
			if err == nil {
				err = long
			}
			return nil, err
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// envelope is what routing a message needs of it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (e *envelope) hasID() bool { return len(e.ID) > 0 && !bytes.Equal(e.ID, []byte("null")) }

// dispatch routes one message: a response to one of toolhub's requests to
// the request waiting for it, a notification to the server in order, a
// request to a worker.
func (c *stdioConn) dispatch(ctx context.Context, line []byte) {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		c.writeError(nil, mcpgo.PARSE_ERROR, "parse error: "+err.Error())
		return
	}
	switch {
	case env.Method == "" && env.hasID() && len(env.Result) == 0 && len(env.Error) == 0:
		c.writeError(env.ID, mcpgo.INVALID_REQUEST,
			"invalid request: a message with an id needs a method (a request) or a result or an error (an answer)")
	case env.Method != "" && len(env.ID) > 0 && !validID(env.ID):
		c.writeError(nil, mcpgo.INVALID_REQUEST,
			"invalid request: a request's id is a string or an integer, never null; a notification has no id at all")
	case env.Method != "" && inexactID(env.ID):
		c.writeError(env.ID, mcpgo.INVALID_REQUEST, "invalid request: "+inexactIDProblem)
	case env.Method == "" && env.hasID():
		c.session.answered(env)
	case !env.hasID():
		if env.Method == string(mcpgo.MethodNotificationCancelled) && c.cancelShortCall(env.Params) {
			return
		}
		c.handle(ctx, line)
	default:
		problem := paramsProblem(env)
		if problem == "" && env.Method == string(mcpgo.MethodInitialize) && !modernEra(nil, line) {
			problem = initializeProblem(env) // 2026-07-28 has no initialize: mcp-go answers that
		}
		if problem != "" {
			c.writeError(env.ID, mcpgo.INVALID_PARAMS, problem)
			return
		}
		if reply, _, ok := c.s.modernTaskReply(ctx, ctx, line); ok {
			c.writeLine(reply)
			return
		}
		if call, info, ok := c.s.shortCallOf(env); ok {
			callCtx, cancel := c.trackShortCall(ctx, env.ID)
			c.run(func() { c.serveShortCall(callCtx, cancel, env.ID, call, info) })
			return
		}
		c.run(func() { c.handle(ctx, line) })
	}
}

// run hands f to a waiting worker, or to a new goroutine when none waits:
// the read loop never blocks, so a cancellation is read while requests run.
func (c *stdioConn) run(f func()) {
	f = c.track(f)
	select {
	case c.work <- f:
	default:
		c.spawned.Go(f)
	}
}

// handle lets mcp-go's server answer one message, turning a panic into an
// internal error.
func (c *stdioConn) handle(ctx context.Context, line []byte) {
	defer func() {
		if r := recover(); r != nil {
			c.s.log.Error("stdio request handler panicked", "panic", r)
			var env envelope
			if json.Unmarshal(line, &env) == nil && env.hasID() {
				c.writeError(env.ID, mcpgo.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r))
			}
		}
	}()
	ctx, slot := withRemoteErrorSlot(ctx, line)
	resp := c.s.mcp.HandleMessage(ctx, line)
	if resp == nil {
		return
	}
	if slot != nil {
		resp = passOnMessage(resp, slot, modernEra(nil, line))
	}
	c.writeJSON(resp)
}

// writeJSON writes one message.
func (c *stdioConn) writeJSON(msg any) {
	body, err := json.Marshal(msg)
	if err != nil {
		c.s.log.Error("encode a message for the stdio client", "err", err)
		return
	}
	c.writeLine(withRootsParams(body))
}

// writeLine writes body and a newline in one write.
func (c *stdioConn) writeLine(body []byte) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(append(body, '\n')); err != nil {
		c.s.log.Debug("write to the stdio client", "err", err)
	}
}

// writeError answers id (nil when unknown) with a JSON-RPC error.
func (c *stdioConn) writeError(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	c.writeLine(rpcError(id, code, message))
}
