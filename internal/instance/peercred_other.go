//go:build darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"net"
	"os"
)

var ownerUID = os.Getuid()

// peerUID is not available here through package syscall (getpeereid and
// LOCAL_PEERCRED need golang.org/x/sys), so the private directory is the
// only barrier; checked=false says so.
func peerUID(c *net.UnixConn) (uid int, checked bool, err error) {
	return 0, false, nil
}
