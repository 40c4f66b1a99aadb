//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// maxHandlers bounds the requests served at once; every request also has a
// deadline, so a stuck client holds a slot only for Timeout.
const maxHandlers = 4

// Listen makes this process the primary instance: it takes the lock,
// replaces a stale socket, and serves requests until the returned Closer is
// closed. onOpen receives the paths of each accepted request, from a
// goroutine of the listener, one call at a time; it should hand them to
// the UI (a channel the UI drains, or fyne.Do) and return, because Close
// waits for it. When another process holds the lock, Listen returns
// ErrRunning.
func (e *Endpoint) Listen(onOpen func(paths []string)) (io.Closer, error) {
	if onOpen == nil {
		return nil, errors.New("instance: Listen needs a function to hand paths to")
	}
	sock, err := e.SocketPath()
	if err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(sock+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("instance: %w", err)
	}
	if err := flock(lock); err != nil {
		lock.Close()
		return nil, err
	}
	l, err := listenReplacingStale(sock)
	if err != nil {
		lock.Close()
		return nil, err
	}
	s := &server{e: e, owner: ownerUID, sock: sock, lock: lock, l: l, onOpen: onOpen, slots: make(chan struct{}, maxHandlers), conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// flock takes the lock without waiting: a holder is a live primary.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrRunning
		default:
			return fmt.Errorf("instance: lock %s: %w", f.Name(), err)
		}
	}
}

// listenReplacingStale binds the socket. The caller holds the lock, so a
// socket file already there was left by a primary that died without
// cleaning up (connecting to it is refused); it is removed, but only if it
// is a socket, never some other file.
func listenReplacingStale(sock string) (*net.UnixListener, error) {
	if st, err := os.Lstat(sock); err == nil {
		if st.Mode().Type() != os.ModeSocket {
			return nil, fmt.Errorf("instance: %s exists and is not a socket", sock)
		}
		if err := os.Remove(sock); err != nil {
			return nil, fmt.Errorf("instance: remove stale socket: %w", err)
		}
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("instance: %w", err)
	}
	// Close removes the file itself, while still holding the lock.
	l.SetUnlinkOnClose(false)
	if err := os.Chmod(sock, 0o600); err != nil {
		l.Close()
		os.Remove(sock)
		return nil, fmt.Errorf("instance: %w", err)
	}
	return l, nil
}

type server struct {
	e      *Endpoint
	owner  int // the uid served
	sock   string
	lock   *os.File
	l      *net.UnixListener
	onOpen func([]string)
	slots  chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex // guards conns and closed
	conns  map[net.Conn]struct{}
	closed bool

	openMu sync.Mutex // serialises onOpen
	once   sync.Once
	err    error
}

func (s *server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.e.logf("instance: accept: %v", err)
			time.Sleep(50 * time.Millisecond) // e.g. out of file descriptors
			continue
		}
		s.slots <- struct{}{}
		if !s.track(c) {
			c.Close()
			<-s.slots
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-s.slots }()
			defer s.untrack(c)
			s.handle(c)
		}()
	}
}

func (s *server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// handle serves one request. Nothing in it is trusted until every check
// has passed; only then are the paths handed on.
func (s *server) handle(c *net.UnixConn) {
	c.SetDeadline(time.Now().Add(s.e.timeout()))
	if uid, checked, err := peerUID(c); err != nil {
		s.e.logf("instance: rejected a connection: cannot read the peer's credentials: %v", err)
		return
	} else if checked && uid != s.owner {
		s.e.logf("instance: rejected a connection from uid %d (expected %d)", uid, s.owner)
		return
	}
	msg, err := io.ReadAll(io.LimitReader(c, MaxMessage+1))
	if err != nil {
		s.e.logf("instance: rejected a request: %v", err)
		return
	}
	if len(msg) == 0 {
		return // a client that connected and gave up
	}
	paths, err := decodeRequest(msg)
	if err != nil {
		s.e.logf("instance: rejected a request of %d bytes: %v", len(msg), err)
		io.WriteString(c, replyError+err.Error()+"\n")
		return
	}
	// From here on the paths are handed over, so the sender must hear "ok"
	// even if Close comes meanwhile: otherwise it would open them again in
	// a window of its own.
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	delete(s.conns, c)
	s.mu.Unlock()
	s.openMu.Lock()
	s.onOpen(paths)
	s.openMu.Unlock()
	io.WriteString(c, replyOK)
}

// Close stops listening, removes the socket and releases the lock, in that
// order, so a new primary never finds this one's socket. Requests still
// being read are cut off; those already handed to onOpen are answered
// before Close returns.
func (s *server) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.err = s.l.Close()
		if err := os.Remove(s.sock); err != nil && !errors.Is(err, os.ErrNotExist) && s.err == nil {
			s.err = err
		}
		s.wg.Wait()
		if err := s.lock.Close(); err != nil && s.err == nil {
			s.err = err
		}
	})
	return s.err
}
