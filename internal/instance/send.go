//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"
)

// Send asks the running instance to open paths, which may be relative to
// this process's working directory. It returns delivered=false with a nil
// error when no instance is running (no socket, or a stale one), and an
// error wrapping ErrInvalidPath, ErrRejected or another failure otherwise.
func (e *Endpoint) Send(paths []string) (delivered bool, err error) {
	abs, err := resolvePaths(paths)
	if err != nil {
		return false, err
	}
	msg, err := encodeRequest(abs)
	if err != nil {
		return false, err
	}
	sock, err := e.SocketPath()
	if err != nil {
		return false, err
	}
	d := net.Dialer{Timeout: e.timeout()}
	conn, err := d.Dial("unix", sock)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return false, nil
		}
		return false, fmt.Errorf("instance: %w", err)
	}
	c := conn.(*net.UnixConn)
	defer c.Close()
	c.SetDeadline(time.Now().Add(e.timeout()))
	if _, err := c.Write(msg); err != nil {
		return false, sendError(err)
	}
	if err := c.CloseWrite(); err != nil {
		return false, sendError(err)
	}
	reply, err := io.ReadAll(io.LimitReader(c, 4096))
	if errors.Is(err, syscall.ECONNRESET) {
		return false, sendError(err)
	}
	if err != nil {
		return false, fmt.Errorf("instance: no reply from the running instance: %w", err)
	}
	switch r := string(reply); {
	case r == replyOK:
		return true, nil
	case strings.HasPrefix(r, replyError):
		return false, fmt.Errorf("%w: %s", ErrRejected, strings.TrimSpace(strings.TrimPrefix(r, replyError)))
	case r == "":
		return false, fmt.Errorf("%w: the connection was closed without a reply", ErrRejected)
	default:
		return false, fmt.Errorf("%w: unexpected reply %s", ErrRejected, quoteShort(r))
	}
}

// sendError tells a listener that hung up on us before reading everything
// (it refuses this peer) from other failures.
func sendError(err error) error {
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("%w: the connection was closed before the request was sent", ErrRejected)
	}
	return fmt.Errorf("instance: send: %w", err)
}
