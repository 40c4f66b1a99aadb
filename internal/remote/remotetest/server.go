// Package remotetest serves files over local HTTP for tests and
// benchmarks of remote reading, with faults injected on demand: a server
// that ignores Range, fails with a status, drops connections, stalls,
// changes the file, adds latency, or redirects.
package remotetest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Faults says what the server does wrong; the zero value serves
// correctly. Fields may be changed between requests (under Server.Mu).
type Faults struct {
	IgnoreRange bool          // answer 200 with the whole body
	Status      int           // answer every request with this status
	FailFirst   int           // answer the first FailFirst requests 503
	DropAfter   int64         // send only this many body bytes of each of the next DropCount responses, then cut
	DropCount   int           // see DropAfter
	Latency     time.Duration // wait before each answer
	StallAfter  int64         // send this many bytes, then nothing until the client gives up (≥0 with Stall)
	Stall       bool
	ChangeAfter int    // from this request on (1-based) the file has another ETag and Last-Modified
	RedirectTo  string // answer 302 to this base URL + the request's path
	NeedToken   string // answer 401 without "Authorization: Bearer NeedToken"
}

// Server serves the files of a folder (or of Files) at /NAME.
type Server struct {
	*httptest.Server
	Dir   string            // served folder ("" for none)
	Files map[string][]byte // served in memory, before Dir

	Mu     sync.Mutex
	Faults Faults
	// Auth records the Authorization header of every request.
	Auth []string

	requests atomic.Int64
	bytes    atomic.Int64
	active   atomic.Int64 // requests being answered
	peak     atomic.Int64 // most requests answered at once
}

// New starts a server of dir's files; Close it when done.
func New(dir string) *Server {
	s := &Server{Dir: dir, Files: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL returns the address of the file name.
func (s *Server) URLOf(name string) string { return s.Server.URL + "/" + name }

// Traffic returns the requests answered and the body bytes sent.
func (s *Server) Traffic() (requests, bytes int64) { return s.requests.Load(), s.bytes.Load() }

// ResetTraffic zeroes the counters.
func (s *Server) ResetTraffic() {
	s.Settle() // or a response already received would be counted after the reset
	s.requests.Store(0)
	s.bytes.Store(0)
	s.peak.Store(0)
}

// Settle waits until the byte count stops changing: the server counts a
// response's bytes after writing them, which may come after the client
// has them. Call it before reading Traffic for a lower bound or an exact
// figure, and before ResetTraffic after a fetch.
func (s *Server) Settle() {
	last := s.bytes.Load()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(30 * time.Millisecond)
		now := s.bytes.Load()
		if now == last {
			return
		}
		last = now
	}
}

// Peak returns the most requests answered at once since the last
// ResetTraffic.
func (s *Server) Peak() int64 { return s.peak.Load() }

type countingWriter struct {
	http.ResponseWriter
	s     *Server
	limit int64 // -1: none
	stall bool
	done  <-chan struct{}
	sent  int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.limit >= 0 && w.sent+int64(len(p)) > w.limit {
		p = p[:max(w.limit-w.sent, 0)]
		n, _ := w.ResponseWriter.Write(p)
		w.sent += int64(n)
		w.s.bytes.Add(int64(n))
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		if w.stall {
			<-w.done // the client hangs up
		}
		panic(http.ErrAbortHandler) // cuts the connection
	}
	n, err := w.ResponseWriter.Write(p)
	w.sent += int64(n)
	w.s.bytes.Add(int64(n))
	return n, err
}

// ReadFrom lets a response without an injected cut go out through the
// server's own ReadFrom (sendfile from a file), as a real server's would.
func (w *countingWriter) ReadFrom(r io.Reader) (int64, error) {
	rf, ok := w.ResponseWriter.(io.ReaderFrom)
	if w.limit >= 0 || !ok {
		return io.Copy(struct{ io.Writer }{w}, r)
	}
	n, err := rf.ReadFrom(r)
	w.sent += n
	w.s.bytes.Add(n)
	return n, err
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	for a := s.active.Add(1); ; {
		p := s.peak.Load()
		if a <= p || s.peak.CompareAndSwap(p, a) {
			break
		}
	}
	defer s.active.Add(-1)
	s.Mu.Lock()
	f := s.Faults
	s.Auth = append(s.Auth, r.Header.Get("Authorization"))
	if f.FailFirst > 0 {
		s.Faults.FailFirst--
	}
	drop := int64(-1)
	if f.DropCount > 0 {
		s.Faults.DropCount--
		drop = f.DropAfter
	}
	s.Mu.Unlock()
	if f.Latency > 0 {
		time.Sleep(f.Latency)
	}
	switch {
	case f.NeedToken != "" && r.Header.Get("Authorization") != "Bearer "+f.NeedToken:
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	case f.Status != 0:
		http.Error(w, http.StatusText(f.Status), f.Status)
		return
	case f.FailFirst > 0:
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	case f.RedirectTo != "":
		http.Redirect(w, r, f.RedirectTo+r.URL.Path, http.StatusFound)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	content, size, mod, err := s.open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer content.Close()
	etag := fmt.Sprintf(`"%x-%x"`, size, mod.UnixNano())
	if f.ChangeAfter > 0 && n >= int64(f.ChangeAfter) {
		mod = mod.Add(time.Hour)
		etag = `"changed"`
	}
	w.Header().Set("ETag", etag)
	if f.IgnoreRange {
		r.Header.Del("Range")
		r.Header.Del("If-Range")
	}
	cw := &countingWriter{ResponseWriter: w, s: s, limit: drop}
	if f.Stall {
		cw.limit, cw.stall, cw.done = f.StallAfter, true, r.Context().Done()
	}
	http.ServeContent(cw, r, name, mod, content)
}

type readSeekCloser interface {
	io.ReadSeeker
	io.Closer
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func (s *Server) open(name string) (readSeekCloser, int64, time.Time, error) {
	s.Mu.Lock()
	b, ok := s.Files[name]
	s.Mu.Unlock()
	if ok {
		return nopCloser{bytes.NewReader(b)}, int64(len(b)), start, nil
	}
	if s.Dir == "" || strings.HasPrefix(name, "..") {
		return nil, 0, time.Time{}, os.ErrNotExist
	}
	fh, err := os.Open(filepath.Join(s.Dir, filepath.FromSlash(name)))
	if err != nil {
		return nil, 0, time.Time{}, err
	}
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() {
		fh.Close()
		return nil, 0, time.Time{}, os.ErrNotExist
	}
	return fh, st.Size(), st.ModTime(), nil
}
