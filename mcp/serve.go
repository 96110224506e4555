package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/internal/httpstop"
)

// Defaults of HTTPOptions.
const (
	DefaultHTTPAddr       = "127.0.0.1:8765"
	DefaultHTTPPath       = "/mcp"
	DefaultMaxBodyBytes   = 4 << 20
	DefaultSessionIdleTTL = 24 * time.Hour
)

// shutdownGrace is how long Serve waits for requests in flight once its
// context ends.
const shutdownGrace = 5 * time.Second

// Limits of the HTTP server itself: the headers of a request must arrive
// within headerTimeout, and a kept-alive connection with no request in
// flight is closed after idleTimeout. Bodies have their own limits
// (bodyPace); answers have none, so event streams and long calls go on.
const (
	headerTimeout = 10 * time.Second
	idleTimeout   = 2 * time.Minute
)

// ErrUnauthenticatedNonLoopback is returned by ListenHTTP when asked to
// serve a non-loopback address without a token.
var ErrUnauthenticatedNonLoopback = errors.New("refusing to serve without authentication on an address " +
	"other machines can reach; only a loopback address (127.0.0.1, ::1, localhost) may go without a token")

// HTTPOptions configure the Streamable HTTP endpoint.
type HTTPOptions struct {
	Addr string // host:port to listen on; default DefaultHTTPAddr
	Path string // default DefaultHTTPPath
	// Token is the bearer token every request must carry. Empty disables
	// authentication, which is refused unless Addr is a loopback address.
	Token string
	// AllowOrigins are browser origins accepted besides loopback ones; CORS
	// answers them, so pages on those origins can connect.
	AllowOrigins []string
	// MaxBodyBytes caps a request body; larger ones get 413.
	MaxBodyBytes int64
	// SessionIdleTTL forgets sessions idle this long (default a day); their
	// clients get 404 and initialize again.
	SessionIdleTTL time.Duration
	// BodyReadTimeout bounds reading one request body (default
	// DefaultBodyReadTimeout). Once BodyRateGrace has passed (default
	// DefaultBodyRateGrace) a body must also arrive at MinBodyRate bytes a
	// second on average (default DefaultMinBodyRate). A body too slow gets
	// 408 and its connection is closed; answers are not limited.
	BodyReadTimeout time.Duration
	BodyRateGrace   time.Duration
	MinBodyRate     int64
}

// HTTPServer is a bound, not yet serving, Streamable HTTP endpoint.
type HTTPServer struct {
	srv        *http.Server
	streamable *mcpserver.StreamableHTTPServer
	ln         net.Listener
	url        string
	path       string
	fresh      *httpstop.Tracker
	log        *slog.Logger
}

// ListenHTTP binds the endpoint. Sessions are stateful (an unknown
// Mcp-Session-Id gets 404), mcp-go's Host check stays on, and in front of
// it every request passes the Origin check (403) and the bearer token
// (401), both answered as soon as the headers are in, the method check
// (405), the body's pace (408) and cap (413) and the session id checks
// (checkSessionIDs); a response alone on a stream goes out as JSON
// (plainResults), and a session's GET stream also carries what toolhub
// sends it outside its calls (listenStreams).
func (s *Server) ListenHTTP(opts HTTPOptions) (*HTTPServer, error) {
	opts = httpDefaults(opts)
	if opts.Token == "" && !isLoopbackAddr(opts.Addr) {
		return nil, fmt.Errorf("listen on %s: %w", opts.Addr, ErrUnauthenticatedNonLoopback)
	}
	origins, err := newOriginPolicy(opts.AllowOrigins)
	if err != nil {
		return nil, err
	}
	origins.loopbackCORS = opts.Token != ""
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", opts.Addr, err)
	}
	h := &HTTPServer{ln: ln, url: endpointURL(ln.Addr(), opts.Path), path: opts.Path, log: s.log}
	h.srv = &http.Server{
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	h.fresh = httpstop.Track(h.srv) // a client's spare connection does not hold a stop
	ids := &mcpserver.InsecureStatefulSessionIdManager{}
	h.streamable = s.newStreamable(opts, ids, h.srv)
	pace := bodyPace{timeout: opts.BodyReadTimeout, grace: opts.BodyRateGrace, minRate: opts.MinBodyRate}
	chain := allowMethods(pace, limitBody(opts.MaxBodyBytes, pace, refuseUnacceptable(acceptModernWithoutMeta(s.serveModernTasks(
		checkSessionIDs(ids, s.answerDownTools(s.shortHTTPCalls(ids, opts.SessionIdleTTL,
			trackDelivery(plainResults(rootsParams(s.listens.keep(passRemoteErrors(honourAccept(h.streamable))))))))))))))
	if opts.Token != "" {
		chain = requireBearer(opts.Token, pace, chain)
	}
	chain = origins.middleware(pace, origins.cors(chain))
	mux := http.NewServeMux()
	mux.Handle(opts.Path, chain)
	h.srv.Handler = mux
	return h, nil
}

// newStreamable is mcp-go's Streamable HTTP transport as toolhub runs it:
// stateful, its session ids issued and checked by ids.
func (s *Server) newStreamable(opts HTTPOptions, ids mcpserver.SessionIdManager,
	srv *http.Server,
) *mcpserver.StreamableHTTPServer {
	streamableOpts := []mcpserver.StreamableHTTPOption{
		mcpserver.WithEndpointPath(opts.Path),
		mcpserver.WithSessionIdManager(ids),
		mcpserver.WithSessionIdleTTL(opts.SessionIdleTTL),
		mcpserver.WithStreamableHTTPLogger(s.log),
		mcpserver.WithStreamableHTTPServer(srv), // so that Shutdown stops it too
	}
	return mcpserver.NewStreamableHTTPServer(s.mcp, streamableOpts...)
}

func httpDefaults(o HTTPOptions) HTTPOptions {
	if o.Addr == "" {
		o.Addr = DefaultHTTPAddr
	}
	if o.Path == "" {
		o.Path = DefaultHTTPPath
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.SessionIdleTTL <= 0 {
		o.SessionIdleTTL = DefaultSessionIdleTTL
	}
	if o.BodyReadTimeout <= 0 {
		o.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if o.BodyRateGrace <= 0 {
		o.BodyRateGrace = DefaultBodyRateGrace
	}
	if o.MinBodyRate <= 0 {
		o.MinBodyRate = DefaultMinBodyRate
	}
	return o
}

// endpointURL is the URL clients use; an unspecified listen address
// (0.0.0.0, ::) is reached as 127.0.0.1 from this machine.
func endpointURL(addr net.Addr, path string) string {
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + path
	}
	ip := ap.Addr()
	if ip.IsUnspecified() {
		ip = netip.MustParseAddr("127.0.0.1")
	}
	return "http://" + netip.AddrPortFrom(ip, ap.Port()).String() + path
}

// URL is the endpoint's address, e.g. http://127.0.0.1:8765/mcp.
func (h *HTTPServer) URL() string { return h.url }

// Close releases an endpoint that will not be served.
func (h *HTTPServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	_ = h.streamable.Shutdown(ctx) // stops its session sweeper; nothing is being served
	return h.ln.Close()
}

// Serve answers requests until ctx ends, then stops accepting, closes every
// session and waits up to shutdownGrace for requests in flight.
func (h *HTTPServer) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- h.srv.Serve(h.ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := h.streamable.Shutdown(shutdownCtx); err != nil {
		h.log.Warn("shutdown grace ran out: requests still in flight were cut off",
			"grace", shutdownGrace, "err", err)
		h.srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve http: %w", err)
	}
	return nil
}

// ServeStdio speaks MCP over in and out (the process's stdin and stdout)
// until in ends or ctx is cancelled (see stdioConn). Nothing but protocol
// messages is written to out. Pipes are read and written through the
// poller (pollableStdio).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	in, out, release := pollableStdio(in, out)
	defer release()
	err := newStdioConn(s, out, int(s.opts.MaxMessageBytes)).serve(s.withRootsMemory(ctx), in)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
