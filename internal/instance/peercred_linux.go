package instance

import (
	"net"
	"os"
	"syscall"
)

// ownerUID is the only uid whose requests are served; a variable so a test
// can play a foreign user.
var ownerUID = os.Getuid()

// peerUID reads the connecting process's uid from the kernel (SO_PEERCRED),
// which the peer cannot forge.
func peerUID(c *net.UnixConn) (uid int, checked bool, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return int(cred.Uid), true, nil
}
