package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// MaxWholeBody is the largest file read from a server that ignores Range
// requests (and answers 200 with the whole body): such a file is kept in
// memory whole; a larger one is refused.
const MaxWholeBody = 64 << 20

// Errors a caller may test for (errors.Is).
var (
	// ErrChanged: the file's ETag or Last-Modified changed between two
	// requests; mixing bytes of two versions would be wrong data.
	ErrChanged = errors.New("the file changed on the server while it was read")
	// ErrNoRange: the server ignores Range requests and the file is too
	// large to read whole.
	ErrNoRange = errors.New("the server does not answer range requests")
	// ErrAuth: the server asks for credentials (401) or refuses them (403).
	ErrAuth = errors.New("access refused")
	// ErrStalled: the server sent nothing for Options.StallTimeout.
	ErrStalled = errors.New("the server stopped sending")
)

// Options tune the transport; the zero value takes every default.
type Options struct {
	Client       *http.Client  // nil: a client of the package's own
	Retries      int           // further attempts after a failed request: 5
	Backoff      time.Duration // first wait before a retry, doubled each time: 250 ms
	StallTimeout time.Duration // no byte for this long fails the request: 30 s
}

func (o Options) withDefaults() Options {
	if o.Retries == 0 {
		o.Retries = 5
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Backoff == 0 {
		o.Backoff = 250 * time.Millisecond
	}
	if o.StallTimeout == 0 {
		o.StallTimeout = 30 * time.Second
	}
	return o
}

// DefaultOptions is what Open uses when given none; tests shorten it.
var DefaultOptions Options

// Counters of the traffic of every File (tests and benchmarks assert
// what an operation transferred).
var (
	requests      atomic.Int64
	bytesReceived atomic.Int64
)

// Traffic returns the number of requests made and body bytes received
// since the process started.
func Traffic() (requestCount, bytes int64) { return requests.Load(), bytesReceived.Load() }

// File is a remote file read with range requests.
type File struct {
	Target *Target
	size   int64
	etag   string
	mod    string
	whole  []byte // the whole body, when the server ignores Range
	opts   Options
	client *http.Client
}

// Size is the file's size in bytes.
func (f *File) Size() int64 { return f.size }

// Open makes the first request: bytes [0, first) of the file, which it
// returns with the File (fewer when the file is shorter). The response
// gives the file's size and validators.
func Open(ctx context.Context, t *Target, first int64, opts *Options) (*File, []byte, error) {
	o := DefaultOptions
	if opts != nil {
		o = *opts
	}
	o = o.withDefaults()
	f := &File{Target: t, opts: o, size: -1}
	f.client = o.Client
	if f.client == nil {
		f.client = defaultClient
	}
	f.client = f.withRedirectPolicy(f.client)
	buf := make([]byte, first)
	n, err := f.read(ctx, buf, 0, nil)
	if err != nil {
		return nil, nil, err
	}
	return f, buf[:n], nil
}

var defaultClient = &http.Client{Transport: &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	MaxIdleConns:        64,
	MaxIdleConnsPerHost: 32,
	IdleConnTimeout:     90 * time.Second,
	TLSHandshakeTimeout: 15 * time.Second,
	ForceAttemptHTTP2:   true,
}}

// withRedirectPolicy returns a copy of c that follows at most 10
// redirects and drops the token on any hop to another host than the
// token's (Go's own rule would keep it for a subdomain).
func (f *File) withRedirectPolicy(c *http.Client) *http.Client {
	cc := *c
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		if req.URL.Host != f.Target.tokenHost || req.URL.Scheme != via[0].URL.Scheme {
			req.Header.Del("Authorization")
		}
		return nil
	}
	return &cc
}

// ReadAt fills p with the bytes at off, retrying failed requests and
// resuming after the last byte received; progress (may be nil) is called
// with the bytes received so far. Reading past the end fails.
func (f *File) ReadAt(ctx context.Context, p []byte, off int64, progress func(n int64)) error {
	if off < 0 || off+int64(len(p)) > f.size {
		return fmt.Errorf("%s: read of bytes [%d, %d) past the end of a %d-byte file", f.Target, off, off+int64(len(p)), f.size)
	}
	if f.whole != nil {
		copy(p, f.whole[off:])
		if progress != nil {
			progress(int64(len(p)))
		}
		return nil
	}
	n, err := f.read(ctx, p, off, progress)
	if err == nil && n != len(p) {
		err = fmt.Errorf("%s: the server sent %d of %d bytes at %d", f.Target, n, len(p), off)
	}
	return err
}

// read fetches bytes [off, off+len(p)) into p with retries. The first
// request of a File (size unknown) may get fewer bytes (a shorter file).
func (f *File) read(ctx context.Context, p []byte, off int64, progress func(int64)) (int, error) {
	got := 0
	wait := f.opts.Backoff
	for attempt := 0; ; attempt++ {
		n, err := f.request(ctx, p[got:], off+int64(got))
		got += n
		if progress != nil && n > 0 {
			progress(int64(got))
		}
		if err == nil {
			return got, nil
		}
		var te *transient
		if !errors.As(err, &te) || attempt >= f.opts.Retries || ctx.Err() != nil {
			if ctx.Err() != nil {
				return got, ctx.Err()
			}
			if te != nil {
				err = fmt.Errorf("%s: %w (gave up after %d attempts, %d of %d bytes at %d received)", f.Target, te.err, attempt+1, got, len(p), off)
			}
			return got, err
		}
		if n > 0 { // progress was made: this is a resumption, not a repeat failure
			wait = f.opts.Backoff
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return got, ctx.Err()
		}
		wait *= 2
	}
}

// transient is a failure worth another attempt: a 5xx, a dropped
// connection, a stalled transfer.
type transient struct{ err error }

func (t *transient) Error() string { return t.err.Error() }
func (t *transient) Unwrap() error { return t.err }

// request makes one range request for p at off and copies what arrives
// into p; it returns how many bytes it stored.
func (f *File) request(ctx context.Context, p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, f.Target.URL, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", f.Target, err)
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1))
	req.Header.Set("User-Agent", "tensorscope")
	// Compressed transfer would make byte ranges meaningless.
	req.Header.Set("Accept-Encoding", "identity")
	if f.Target.token != "" && req.URL.Host == f.Target.tokenHost {
		req.Header.Set("Authorization", "Bearer "+f.Target.token)
	}
	if f.etag != "" && !strings.HasPrefix(f.etag, "W/") {
		req.Header.Set("If-Range", f.etag)
	}
	stall := newStallTimer(f.opts.StallTimeout, cancel)
	defer stall.stop()
	requests.Add(1)
	resp, err := f.client.Do(req)
	if err != nil {
		if stall.fired() {
			return 0, &transient{fmt.Errorf("%w for %v", ErrStalled, f.opts.StallTimeout)}
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) && strings.Contains(err.Error(), "redirect") {
			return 0, fmt.Errorf("%s: %v", f.Target, err)
		}
		return 0, &transient{err}
	}
	defer resp.Body.Close()
	if err := f.checkStatus(resp, off, len(p)); err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusOK {
		return f.readWhole(resp, p, off, stall)
	}
	want := len(p)
	if rest := f.size - off; rest < int64(want) { // the first request, of a shorter file
		want = int(max(rest, 0))
	}
	n, err := readFull(resp.Body, p[:want], stall)
	bytesReceived.Add(int64(n))
	if err != nil {
		if stall.fired() {
			err = fmt.Errorf("%w for %v", ErrStalled, f.opts.StallTimeout)
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		return n, &transient{err}
	}
	if n < want {
		return n, &transient{fmt.Errorf("the connection ended after %d of %d bytes", n, want)}
	}
	return n, nil
}

// checkStatus turns a response that is not the expected range into an
// error, and records (first response) or checks (later ones) the file's
// size and validators.
func (f *File) checkStatus(resp *http.Response, off int64, n int) error {
	switch c := resp.StatusCode; {
	case c == http.StatusPartialContent:
	case c == http.StatusOK:
	case c == http.StatusNotFound || c == http.StatusGone:
		return fmt.Errorf("%s: %w (HTTP %d)", f.Target, fs.ErrNotExist, c)
	case c == http.StatusUnauthorized || c == http.StatusForbidden:
		hint := "the server needs a token: set HF_TOKEN (or log in with huggingface-cli) for the Hub"
		if f.Target.HasToken() {
			hint = "the token was refused: check HF_TOKEN and your access to the repository"
		}
		return fmt.Errorf("%s: %w (HTTP %d): %s", f.Target, ErrAuth, c, hint)
	case c == http.StatusRequestedRangeNotSatisfiable:
		if f.size >= 0 {
			return fmt.Errorf("%s: %w: bytes [%d, %d) of a %d-byte file are no longer there (HTTP 416)", f.Target, ErrChanged, off, off+int64(n), f.size)
		}
		return fmt.Errorf("%s: the server refused the range of the first %d bytes (HTTP 416): is the file empty?", f.Target, n)
	case c >= 500 || c == http.StatusTooManyRequests || c == http.StatusRequestTimeout:
		return &transient{fmt.Errorf("HTTP %s", resp.Status)}
	default:
		return fmt.Errorf("%s: unexpected answer HTTP %s", f.Target, resp.Status)
	}
	etag, mod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	size := int64(-1)
	if resp.StatusCode == http.StatusPartialContent {
		var start, end int64
		var total string
		cr := resp.Header.Get("Content-Range")
		if _, err := fmt.Sscanf(cr, "bytes %d-%d/%s", &start, &end, &total); err != nil || start != off || end < start {
			return fmt.Errorf("%s: the server answered range %d-%d with Content-Range %q", f.Target, off, off+int64(n)-1, cr)
		}
		if total != "*" {
			t, err := strconv.ParseInt(total, 10, 64)
			if err != nil || t < 0 {
				return fmt.Errorf("%s: bad Content-Range %q", f.Target, cr)
			}
			size = t
		}
	} else if resp.ContentLength >= 0 {
		size = resp.ContentLength
	}
	if f.size < 0 { // the first response
		if size < 0 {
			return fmt.Errorf("%s: the server does not say the file's size", f.Target)
		}
		f.size, f.etag, f.mod = size, etag, mod
		return nil
	}
	if resp.StatusCode == http.StatusOK {
		// A 200 to If-Range means the entity changed; without a validator,
		// a server that stopped honouring Range.
		if f.etag != "" && etag != f.etag || f.mod != "" && mod != f.mod {
			return fmt.Errorf("%s: %w (ETag %s → %s)", f.Target, ErrChanged, f.etag, etag)
		}
		return fmt.Errorf("%s: %w: a range request got the whole file", f.Target, ErrNoRange)
	}
	if (f.etag != "" && etag != f.etag) || (f.mod != "" && mod != f.mod) || (size >= 0 && size != f.size) {
		return fmt.Errorf("%s: %w (size %d → %d, ETag %q → %q, Last-Modified %q → %q)", f.Target, ErrChanged, f.size, size, f.etag, etag, f.mod, mod)
	}
	return nil
}

// readWhole handles the first response of a server that ignores Range:
// a file of at most MaxWholeBody bytes is read and kept whole.
func (f *File) readWhole(resp *http.Response, p []byte, off int64, stall *stallTimer) (int, error) {
	if f.size > MaxWholeBody {
		return 0, fmt.Errorf("%s: %w, and the file of %d bytes is larger than the %d MiB read whole", f.Target, ErrNoRange, f.size, MaxWholeBody>>20)
	}
	whole := make([]byte, f.size)
	n, err := readFull(resp.Body, whole, stall)
	bytesReceived.Add(int64(n))
	if err != nil || int64(n) != f.size {
		return 0, &transient{fmt.Errorf("the whole body ended after %d of %d bytes: %v", n, f.size, err)}
	}
	f.whole = whole
	if off >= f.size {
		return 0, nil
	}
	return copy(p, whole[off:]), nil
}

// readFull reads r into p until p is full or r ends; every read feeds the
// stall timer.
func readFull(r io.Reader, p []byte, stall *stallTimer) (int, error) {
	n := 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if m > 0 {
			stall.reset()
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// stallTimer cancels a request that receives nothing for d.
type stallTimer struct {
	d     time.Duration
	t     *time.Timer
	fire  atomic.Bool
	since atomic.Int64
}

func newStallTimer(d time.Duration, cancel func()) *stallTimer {
	s := &stallTimer{d: d}
	s.t = time.AfterFunc(d, func() { s.fire.Store(true); cancel() })
	return s
}

func (s *stallTimer) reset()      { s.t.Reset(s.d) }
func (s *stallTimer) stop()       { s.t.Stop() }
func (s *stallTimer) fired() bool { return s.fire.Load() }
