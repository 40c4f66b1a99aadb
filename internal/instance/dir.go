//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package instance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// maxSocketPath is the room in sockaddr_un.sun_path (104 on the BSDs and
// macOS, 108 on Linux) less the terminating NUL.
const maxSocketPath = 103

// SocketPath returns the socket's path, creating the private directory
// that holds it when it is the per-user temporary one or Dir.
func (e *Endpoint) SocketPath() (string, error) {
	if err := checkAppID(e.AppID); err != nil {
		return "", err
	}
	dir := e.Dir
	if dir == "" {
		var err error
		if dir, err = runtimeDir(e.AppID); err != nil {
			return "", err
		}
	} else if err := ensurePrivateDir(dir); err != nil {
		return "", err
	}
	name := e.AppID
	if e.Display != "" {
		name += "@" + fileNamePart(e.Display)
	}
	sock := filepath.Join(dir, name+".sock")
	if len(sock) > maxSocketPath {
		return "", fmt.Errorf("instance: socket path %s is longer than the %d bytes a Unix socket address holds", sock, maxSocketPath)
	}
	return sock, nil
}

// runtimeDir picks $XDG_RUNTIME_DIR when it is safe (absolute, ours, 0700
// as the XDG spec requires), else <tmp>/<app id>-<uid>.
func runtimeDir(appID string) (string, error) {
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) && checkPrivateDir(x) == nil {
		return x, nil
	}
	dir := filepath.Join(os.TempDir(), appID+"-"+strconv.Itoa(os.Getuid()))
	return dir, ensurePrivateDir(dir)
}

// ensurePrivateDir creates dir with mode 0700 if it is missing, then checks
// it: in a shared /tmp another user could have created it first.
func ensurePrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("instance: %w", err)
	}
	return checkPrivateDir(dir)
}

// checkPrivateDir requires a real directory (not a symbolic link) owned by
// this user with no permissions for group or others.
func checkPrivateDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("instance: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("instance: %s is not a directory", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int64(sys.Uid) != int64(os.Getuid()) {
		return fmt.Errorf("instance: %s is not owned by this user", dir)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("instance: %s is open to other users (mode %04o)", dir, perm)
	}
	return nil
}
