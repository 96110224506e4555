package mcpwire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// StdoutFramer sits between a stdio child's stdout and mcp-go's stdio
// transport, which reads whole lines with no size limit. It passes complete
// JSON lines through; a response line longer than limit is skipped without
// being held in memory and replaced by a JSON-RPC error for the same request,
// so only that call fails. Anything that is not JSON (a banner, a stray
// print) ends the stream: the server broke the protocol and is restarted.
type StdoutFramer struct {
	src   *bufio.Reader
	limit int

	// onOversize is told the id of a response that was replaced.
	onOversize func(id json.RawMessage, size int64)
	// onViolation is told why the stream was ended.
	onViolation func(err error)
	// onEnd is called once when the child's stdout ends (closed, or failed).
	onEnd func()
	ended bool

	line []byte // reused line buffer
	err  error  // the end of the stream, once reached
}

// FramerHooks tell the connection what the framer saw.
type FramerHooks struct {
	Oversize  func(id json.RawMessage, size int64) // a response was replaced
	Violation func(err error)                      // the stream was ended on purpose
	End       func()                               // the child's stdout ended
}

func NewStdoutFramer(src io.Reader, limit int, hooks FramerHooks) *StdoutFramer {
	return &StdoutFramer{
		src:         bufio.NewReaderSize(src, 64<<10),
		limit:       limit,
		onOversize:  hooks.Oversize,
		onViolation: hooks.Violation,
		onEnd:       hooks.End,
	}
}

// NextMessage serves the filtered stream one message at a time: a line
// with its newline (valid until the next call), or the error that ends the
// stream.
func (f *StdoutFramer) NextMessage() ([]byte, error) {
	for {
		if f.err != nil {
			return nil, f.err
		}
		line, err := f.nextLine()
		if err != nil {
			f.err = err
			if !f.ended {
				f.ended = true
				f.onEnd()
			}
		}
		if len(line) > 0 || err != nil {
			return line, err
		}
	}
}

// nextLine returns the next line to pass on (with its newline), nil for a
// line to drop, or an error that ends the stream.
func (f *StdoutFramer) nextLine() ([]byte, error) {
	if cap(f.line) > 1<<20 {
		f.line = nil // do not hold on to the buffer of one large line
	}
	f.line = f.line[:0]
	for {
		chunk, err := f.src.ReadSlice('\n')
		f.line = append(f.line, chunk...)
		if len(f.line) > f.limit+1 {
			return f.skipOversized(err)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(bytes.TrimSpace(f.line)) == 0 {
			return nil, err
		}
		line, verr := f.checkLine(f.line)
		if verr != nil {
			return nil, verr
		}
		if err != nil {
			return line, err
		}
		return line, nil
	}
}

// checkLine accepts a JSON object or batch; blank lines are dropped.
func (f *StdoutFramer) checkLine(line []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return append(trimmed, '\n'), nil
	}
	return nil, f.violation(fmt.Errorf("server wrote non-JSON to stdout: %q", clip(trimmed, 80)))
}

// skipOversized reads past the rest of a line that is over the limit,
// keeping only its first and last bytes, and answers it with an error.
func (f *StdoutFramer) skipOversized(err error) ([]byte, error) {
	head := bytes.Clone(f.line[:min(len(f.line), oversizeSample)])
	tail := NewTail(oversizeSample)
	_, _ = tail.Write(f.line)
	size := int64(len(f.line))
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = f.src.ReadSlice('\n')
		_, _ = tail.Write(chunk)
		size += int64(len(chunk))
	}
	id := IdentifyMessage(head, bytes.TrimSpace([]byte(tail.String())))
	if id.ID == nil || id.HasMethod {
		return nil, f.violation(fmt.Errorf("server sent a %d-byte message, over the %d-byte limit", size, f.limit))
	}
	f.onOversize(id.ID, size)
	reply := oversizeReply(id.ID, size, f.limit)
	if err != nil {
		return reply, err
	}
	return reply, nil
}

func (f *StdoutFramer) violation(err error) error {
	f.onViolation(err)
	return io.EOF
}

// oversizeReply is the JSON-RPC error that stands in for a response over the
// limit.
func oversizeReply(id json.RawMessage, size int64, limit int) []byte {
	reply := map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{
			"code":    -32603,
			"message": fmt.Sprintf("response of %d bytes exceeds the %d-byte limit", size, limit),
		},
	}
	encoded, _ := json.Marshal(reply)
	return append(encoded, '\n')
}

// clip shortens b to at most n bytes for error messages.
func clip(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[:n]
}
