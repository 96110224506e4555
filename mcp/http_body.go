package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// Defaults of the limits on reading a request body.
const (
	// DefaultBodyReadTimeout is how long a whole request body may take.
	DefaultBodyReadTimeout = 2 * time.Minute
	// DefaultBodyRateGrace is how long a body may take before
	// DefaultMinBodyRate applies.
	DefaultBodyRateGrace = 10 * time.Second
	// DefaultMinBodyRate is the slowest a body may arrive, in bytes a
	// second on average since the request's headers, once the grace is over.
	DefaultMinBodyRate = 1 << 10
)

// bodyPace bounds how long reading one request body may take: all of it
// within timeout and, once grace is over, at least minRate bytes a second
// on average. Only reading the request is limited: the answer, a long tool
// call's or an event stream's, may take as long as it takes.
type bodyPace struct {
	timeout time.Duration
	grace   time.Duration
	minRate int64
}

// deadline is when more than n bytes of a body begun at start must have
// arrived.
func (p bodyPace) deadline(start time.Time, n int64) time.Time {
	rate := time.Duration(p.minRate)
	allowed := p.grace + time.Duration(n/p.minRate)*time.Second + time.Duration(n%p.minRate)*time.Second/rate
	return start.Add(min(allowed, p.timeout))
}

// refuseUnread prepares an answer sent before the request's body was read:
// the connection closes after it, and the rest of the body is waited for no
// longer than the grace. Without this, net/http would read up to 256 KiB of
// the body, at the client's pace, before the connection could go.
func (p bodyPace) refuseUnread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength == 0 {
		return
	}
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(p.grace))
}

// pacedReader reads a body under the pace, moving the connection's read
// deadline as the bytes arrive.
type pacedReader struct {
	r     io.Reader
	rc    *http.ResponseController
	pace  bodyPace
	start time.Time
	n     int64
	// unpaced is set when the connection takes no read deadline (a
	// ResponseWriter other than net/http's); the body is then read as is.
	unpaced bool
}

func (p *pacedReader) Read(b []byte) (int, error) {
	if !p.unpaced && p.rc.SetReadDeadline(p.pace.deadline(p.start, p.n)) != nil {
		p.unpaced = true
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	return n, err
}

// readPaced reads the whole body, at most max bytes, under the pace. The
// deadline ends with the body: once a body has been read to its end,
// net/http clears the connection's read deadline (it watches for the
// client going away from then on), so an answer streamed for hours is not
// cut.
func readPaced(w http.ResponseWriter, r *http.Request, max int64, pace bodyPace) ([]byte, error) {
	return io.ReadAll(&pacedReader{r: http.MaxBytesReader(w, r.Body, max), rc: http.NewResponseController(w),
		pace: pace, start: time.Now()})
}

// limitBody reads the request body before the handlers after it: under the
// pace (408 and the connection closed when it arrives too slowly) and at
// most max bytes (413). mcp-go reads the whole body itself and turns a read
// error into a JSON-RPC parse error, so the body is read here and handed on
// from memory.
func limitBody(max int64, pace bodyPace, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			tooLarge(w, max)
			return
		}
		body, err := readPaced(w, r, max, pace)
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			tooLarge(w, max)
			return
		case errors.Is(err, os.ErrDeadlineExceeded):
			tooSlow(w, pace)
			return
		case err != nil:
			w.Header().Set("Connection", "close")
			http.Error(w, "reading the request body failed: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r.WithContext(withBody(r.Context(), body)))
	})
}

// tooLarge answers 413 and closes the connection: the rest of the body
// would otherwise have to be read and thrown away.
func tooLarge(w http.ResponseWriter, max int64) {
	w.Header().Set("Connection", "close")
	http.Error(w, fmt.Sprintf("request body too large: toolhub accepts at most %d bytes "+
		"(toolhub serve --max-body raises the limit)", max), http.StatusRequestEntityTooLarge)
}

// tooSlow answers 408 to a body that did not arrive in time and closes the
// connection.
func tooSlow(w http.ResponseWriter, pace bodyPace) {
	w.Header().Set("Connection", "close")
	http.Error(w, fmt.Sprintf("request body too slow: toolhub reads a body within %s and, after %s, "+
		"at least %d bytes a second", pace.timeout, pace.grace, pace.minRate), http.StatusRequestTimeout)
}
