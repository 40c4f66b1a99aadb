//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos)

package instance

import "io"

// On these systems (Windows among them) every launch opens its own window:
// named pipes would need golang.org/x/sys/windows for their security
// descriptor, which is not worth a dependency.

// Listen reports ErrUnsupported.
func (e *Endpoint) Listen(onOpen func(paths []string)) (io.Closer, error) {
	return nil, ErrUnsupported
}

// Send reports ErrUnsupported.
func (e *Endpoint) Send(paths []string) (delivered bool, err error) {
	return false, ErrUnsupported
}

// SocketPath reports ErrUnsupported.
func (e *Endpoint) SocketPath() (string, error) {
	return "", ErrUnsupported
}
