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
	n, err := f.read(ctx, &sliceDest{p: buf}, 0, first, nil)
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
	return f.readRange(ctx, &sliceDest{p: p}, off, int64(len(p)), progress)
}

// CopyAt writes the n bytes at off to w at the same offsets, through
// buf (reused, so that the bytes arrive in memory the process already
// has mapped: see fetchPiece), with the retries of ReadAt.
func (f *File) CopyAt(ctx context.Context, w io.WriterAt, buf []byte, off, n int64, progress func(n int64)) error {
	return f.readRange(ctx, &writerDest{w: w, buf: buf, base: off}, off, n, progress)
}

func (f *File) readRange(ctx context.Context, d dest, off, n int64, progress func(n int64)) error {
	if off < 0 || n < 0 || off+n > f.size {
		return fmt.Errorf("%s: read of bytes [%d, %d) past the end of a %d-byte file", f.Target, off, off+n, f.size)
	}
	if f.whole != nil {
		if err := d.put(f.whole[off : off+n]); err != nil {
			return err
		}
		if progress != nil {
			progress(n)
		}
		return nil
	}
	got, err := f.read(ctx, d, off, n, progress)
	if err == nil && got != n {
		err = fmt.Errorf("%s: the server sent %d of %d bytes at %d", f.Target, got, n, off)
	}
	return err
}

// dest is where a range's bytes go, in order: a slice, or a file through
// a buffer.
type dest interface {
	// fill reads from r into the destination's next bytes, at most n.
	fill(r io.Reader, n int64) (int, error)
	// put stores b as the next bytes.
	put(b []byte) error
}

type sliceDest struct {
	p []byte
	n int // bytes stored
}

func (d *sliceDest) fill(r io.Reader, n int64) (int, error) {
	m, err := r.Read(d.p[d.n : d.n+int(min(n, int64(len(d.p)-d.n)))])
	d.n += m
	return m, err
}

func (d *sliceDest) put(b []byte) error { d.n += copy(d.p[d.n:], b); return nil }

type writerDest struct {
	w    io.WriterAt
	buf  []byte
	base int64 // where the destination's first byte goes
	n    int64 // bytes stored
}

func (d *writerDest) fill(r io.Reader, n int64) (int, error) {
	// A whole buffer a write: the reads under it feed the stall timer
	// (readFull's stallReader).
	b := d.buf[:min(n, int64(len(d.buf)))]
	m, err := io.ReadFull(r, b)
	if m > 0 {
		if werr := d.put(b[:m]); werr != nil {
			return 0, werr
		}
	}
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return m, err
}

func (d *writerDest) put(b []byte) error {
	if _, err := d.w.WriteAt(b, d.base+d.n); err != nil {
		return &sinkError{err}
	}
	d.n += int64(len(b))
	return nil
}

// sinkError is a failure to store received bytes: not the network's, so
// not retried.
type sinkError struct{ err error }

func (e *sinkError) Error() string { return "storing fetched bytes: " + e.err.Error() }
func (e *sinkError) Unwrap() error { return e.err }

// read fetches n bytes at off into d with retries. The first request of
// a File (size unknown) may get fewer bytes (a shorter file).
func (f *File) read(ctx context.Context, d dest, off, n int64, progress func(int64)) (int64, error) {
	var got int64
	wait := f.opts.Backoff
	for attempt := 0; ; attempt++ {
		k, err := f.request(ctx, d, off+got, n-got)
		got += k
		if progress != nil && k > 0 {
			progress(got)
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
				err = fmt.Errorf("%s: %w (gave up after %d attempts, %d of %d bytes at %d received)", f.Target, te.err, attempt+1, got, n, off)
			}
			return got, err
		}
		if k > 0 { // progress was made: this is a resumption, not a repeat failure
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

// request makes one range request for n bytes at off and stores what
// arrives in d; it returns how many bytes it stored.
func (f *File) request(ctx context.Context, d dest, off, n int64) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, f.Target.URL, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", f.Target, err)
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+n-1))
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
	if err := f.checkStatus(resp, off, n); err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusOK {
		return f.readWhole(resp, d, off, n, stall)
	}
	want := n
	if rest := f.size - off; rest < want { // the first request, of a shorter file
		want = max(rest, 0)
	}
	got, err := readFull(resp.Body, d, want, stall)
	bytesReceived.Add(got)
	if err != nil {
		var se *sinkError
		switch {
		case errors.As(err, &se):
			return got, err
		case stall.fired():
			err = fmt.Errorf("%w for %v", ErrStalled, f.opts.StallTimeout)
		case ctx.Err() != nil:
			return got, ctx.Err()
		}
		return got, &transient{err}
	}
	if got < want {
		return got, &transient{fmt.Errorf("the connection ended after %d of %d bytes", got, want)}
	}
	return got, nil
}

// checkStatus turns a response that is not the expected range into an
// error, and records (first response) or checks (later ones) the file's
// size and validators.
func (f *File) checkStatus(resp *http.Response, off, n int64) error {
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
			return fmt.Errorf("%s: %w: bytes [%d, %d) of a %d-byte file are no longer there (HTTP 416)", f.Target, ErrChanged, off, off+n, f.size)
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
			return fmt.Errorf("%s: the server answered range %d-%d with Content-Range %q", f.Target, off, off+n-1, cr)
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
func (f *File) readWhole(resp *http.Response, d dest, off, n int64, stall *stallTimer) (int64, error) {
	if f.size > MaxWholeBody {
		return 0, fmt.Errorf("%s: %w, and the file of %d bytes is larger than the %d MiB read whole", f.Target, ErrNoRange, f.size, MaxWholeBody>>20)
	}
	whole := make([]byte, f.size)
	got, err := readFull(resp.Body, &sliceDest{p: whole}, f.size, stall)
	bytesReceived.Add(got)
	if err != nil || got != f.size {
		return 0, &transient{fmt.Errorf("the whole body ended after %d of %d bytes: %v", got, f.size, err)}
	}
	f.whole = whole
	if off >= f.size {
		return 0, nil
	}
	b := whole[off:min(off+n, f.size)]
	if err := d.put(b); err != nil {
		return 0, err
	}
	return int64(len(b)), nil
}

// readFull reads n bytes of r into d, fewer if r ends first; every read
// feeds the stall timer.
func readFull(r io.Reader, d dest, n int64, stall *stallTimer) (int64, error) {
	var got int64
	r = stallReader{r, stall}
	for got < n {
		m, err := d.fill(r, n-got)
		got += int64(m)
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
	}
	return got, nil
}

// stallReader resets the stall timer on every read that brings bytes.
type stallReader struct {
	r     io.Reader
	stall *stallTimer
}

func (s stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.stall.reset()
	}
	return n, err
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
