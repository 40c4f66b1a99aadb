package instance

import (
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"time"
)

// Errors callers tell apart; every error from this package that is not one
// of these is a failure of the mechanism itself (and the caller should open
// a new window rather than give up).
var (
	// ErrRunning means another process is the primary instance.
	ErrRunning = errors.New("instance: another instance is running")
	// ErrUnsupported means this platform has no single-instance support.
	ErrUnsupported = fmt.Errorf("instance: single instance is not supported on this system: %w", errors.ErrUnsupported)
	// ErrInvalidPath means a path given to Send is not an existing regular file.
	ErrInvalidPath = errors.New("instance: not an existing regular file")
	// ErrRejected means the running instance refused the request.
	ErrRejected = errors.New("instance: request rejected by the running instance")
)

// Limits of one request. A launch from a file manager passes every selected
// file at once; these leave room for hundreds of long paths while keeping
// what a listener reads small.
const (
	MaxMessage     = 256 << 10
	MaxPaths       = 1024
	DefaultTimeout = 3 * time.Second
)

// Endpoint names where the instances of one application meet.
type Endpoint struct {
	// AppID names the socket and lock files, e.g. "io.github.tensorscope".
	AppID string
	// Display, when set, is part of their names too (see DisplayKey): one
	// instance runs per display.
	Display string
	// Dir overrides the directory holding them (tests use a temporary one);
	// empty means the user's runtime directory.
	Dir string
	// Timeout bounds each request on both sides; zero means DefaultTimeout.
	Timeout time.Duration
	// Logf receives rejected requests and handler failures; nil means log.Printf.
	Logf func(format string, args ...any)
}

// Start makes this process the primary instance or hands paths to the
// running one. It returns a Closer when this process became primary (it
// must open paths itself and Close on exit), delivered=true when the
// running instance took the paths (this process should exit), and otherwise
// an error: ErrRunning when another instance runs but there were no paths
// to hand over, or a failure; either way the caller opens a window of its
// own.
func Start(appID string, paths []string, onOpen func(paths []string)) (primary io.Closer, delivered bool, err error) {
	e := &Endpoint{AppID: appID, Display: DisplayKey()}
	return e.Start(paths, onOpen)
}

// Start is the package-level Start for this endpoint.
func (e *Endpoint) Start(paths []string, onOpen func(paths []string)) (io.Closer, bool, error) {
	deadline := time.Now().Add(e.timeout())
	for {
		c, err := e.Listen(onOpen)
		if err == nil {
			return c, false, nil
		}
		if !errors.Is(err, ErrRunning) || len(paths) == 0 {
			return nil, false, err
		}
		ok, err := e.Send(paths)
		if ok || err != nil {
			return nil, ok, err
		}
		// The primary holds the lock but is not listening: it is starting
		// up (lock taken, socket not yet bound) or shutting down (socket
		// removed, lock not yet released). Either resolves in moments.
		if time.Now().After(deadline) {
			return nil, false, fmt.Errorf("instance: the running instance holds the lock but does not answer: %w", ErrRunning)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *Endpoint) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return DefaultTimeout
}

func (e *Endpoint) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// checkAppID keeps the id usable as a file name in the runtime directory.
func checkAppID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return fmt.Errorf("instance: app id %q cannot name a file", id)
	}
	return nil
}
