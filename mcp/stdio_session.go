package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/internal/queuemark"
)

// stdioSessionID names the one session of a stdio connection.
const stdioSessionID = "stdio"

// stdioSession is the client session of a stdio connection as mcp-go's
// server sees it: its notifications, log level and declared capabilities,
// and the requests toolhub makes of the client (sampling, elicitation,
// roots), sent as lines on the connection and answered by id.
type stdioSession struct {
	conn          *stdioConn
	notifications chan mcpgo.JSONRPCNotification
	initialized   atomic.Bool
	logLevel      atomic.Value // mcpgo.LoggingLevel

	infoMu sync.RWMutex
	info   mcpgo.Implementation
	caps   mcpgo.ClientCapabilities

	nextID  atomic.Int64
	pendMu  sync.Mutex
	pending map[int64]chan envelope // requests to the client awaiting an answer
	ended   chan struct{}           // closed when the client's input ends
	endOnce sync.Once

	marks queuemark.Marks
}

var (
	_ mcpserver.ClientSession          = (*stdioSession)(nil)
	_ mcpserver.SessionWithLogging     = (*stdioSession)(nil)
	_ mcpserver.SessionWithClientInfo  = (*stdioSession)(nil)
	_ mcpserver.SessionWithSampling    = (*stdioSession)(nil)
	_ mcpserver.SessionWithElicitation = (*stdioSession)(nil)
	_ mcpserver.SessionWithRoots       = (*stdioSession)(nil)
)

func newStdioSession(c *stdioConn) *stdioSession {
	return &stdioSession{
		conn:          c,
		notifications: make(chan mcpgo.JSONRPCNotification, 100),
		pending:       make(map[int64]chan envelope),
		ended:         make(chan struct{}),
	}
}

// endInput fails the requests to the client that wait for an answer, and
// those made later: with its input closed, the client cannot answer.
func (s *stdioSession) endInput() { s.endOnce.Do(func() { close(s.ended) }) }

func (s *stdioSession) SessionID() string { return stdioSessionID }

func (s *stdioSession) NotificationChannel() chan<- mcpgo.JSONRPCNotification {
	return s.notifications
}

func (s *stdioSession) Initialize() {
	s.logLevel.Store(mcpgo.LoggingLevelError)
	s.initialized.Store(true)
}

func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

func (s *stdioSession) SetLogLevel(level mcpgo.LoggingLevel) { s.logLevel.Store(level) }

func (s *stdioSession) GetLogLevel() mcpgo.LoggingLevel {
	if level, ok := s.logLevel.Load().(mcpgo.LoggingLevel); ok {
		return level
	}
	return mcpgo.LoggingLevelError
}

func (s *stdioSession) GetClientInfo() mcpgo.Implementation {
	s.infoMu.RLock()
	defer s.infoMu.RUnlock()
	return s.info
}

func (s *stdioSession) SetClientInfo(info mcpgo.Implementation) {
	s.infoMu.Lock()
	defer s.infoMu.Unlock()
	s.info = info
}

func (s *stdioSession) GetClientCapabilities() mcpgo.ClientCapabilities {
	s.infoMu.RLock()
	defer s.infoMu.RUnlock()
	return s.caps
}

func (s *stdioSession) SetClientCapabilities(caps mcpgo.ClientCapabilities) {
	s.infoMu.Lock()
	defer s.infoMu.Unlock()
	s.caps = caps
}

// writeNotifications writes the queued notifications in order until ctx
// ends; a mark (see await) is not written.
func (s *stdioSession) writeNotifications(ctx context.Context) {
	for {
		select {
		case n := <-s.notifications:
			if s.marks.Reached(n) {
				continue
			}
			s.conn.writeJSON(n)
		case <-ctx.Done():
			return
		}
	}
}

// RequestSampling asks the client's model for a message.
func (s *stdioSession) RequestSampling(ctx context.Context, req mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
	var result mcpgo.CreateMessageResult
	if err := s.ask(ctx, mcpgo.MethodSamplingCreateMessage, req.CreateMessageParams, &result); err != nil {
		return nil, err
	}
	content, err := mcpgo.ParseSamplingContent(result.Content)
	if err != nil {
		return nil, fmt.Errorf("sampling answer: %w", err)
	}
	result.Content = content
	return &result, nil
}

// RequestElicitation asks the client's user for input.
func (s *stdioSession) RequestElicitation(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	var result mcpgo.ElicitationResult
	if err := s.ask(ctx, mcpgo.MethodElicitationCreate, req.Params, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// ListRoots asks the client for its roots.
func (s *stdioSession) ListRoots(ctx context.Context, _ mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	var result mcpgo.ListRootsResult
	if err := s.ask(ctx, mcpgo.MethodListRoots, nil, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// ask sends one request to the client and decodes its answer into result.
func (s *stdioSession) ask(ctx context.Context, method mcpgo.MCPMethod, params, result any) error {
	select {
	case <-s.ended:
		return fmt.Errorf("%s request: %w", method, errInputClosed)
	default:
	}
	id := s.nextID.Add(1)
	answer := make(chan envelope, 1)
	s.pendMu.Lock()
	s.pending[id] = answer
	s.pendMu.Unlock()
	defer func() {
		s.pendMu.Lock()
		delete(s.pending, id)
		s.pendMu.Unlock()
	}()
	s.conn.writeJSON(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{mcpgo.JSONRPC_VERSION, id, string(method), params})
	select {
	case env := <-answer:
		return decodeAnswer(method, env, result)
	case <-s.ended:
		select {
		case env := <-answer: // read before the input ended
			return decodeAnswer(method, env, result)
		default:
			return fmt.Errorf("%s request: %w", method, errInputClosed)
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decodeAnswer reads the client's answer to a request into result.
func decodeAnswer(method mcpgo.MCPMethod, env envelope, result any) error {
	if len(env.Error) > 0 {
		var rpcErr struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(env.Error, &rpcErr)
		return fmt.Errorf("%s request failed: %s", method, rpcErr.Message)
	}
	if err := json.Unmarshal(env.Result, result); err != nil {
		return fmt.Errorf("decode the client's %s answer: %w", method, err)
	}
	return nil
}

// answered hands the client's response to the request waiting for it.
func (s *stdioSession) answered(env envelope) {
	id, err := strconv.ParseInt(string(env.ID), 10, 64)
	if err != nil {
		s.conn.s.log.Debug("stdio client answered an unknown request", "id", string(env.ID))
		return
	}
	s.pendMu.Lock()
	answer, ok := s.pending[id]
	s.pendMu.Unlock()
	if !ok {
		s.conn.s.log.Debug("stdio client answered an unknown request", "id", id)
		return
	}
	select {
	case answer <- env:
	default:
	}
}

// queuedOne and await make the session the delivery of its calls (see
// callRoute.awaitDelivered): await puts a mark behind everything queued
// and waits for the writer to reach it.
func (s *stdioSession) queuedOne() int64 { return 1 }

func (s *stdioSession) await(ctx context.Context, _ int64) {
	s.marks.Await(ctx, s.notifications, deliveryWait)
}
