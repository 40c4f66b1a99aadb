//go:build linux || darwin || freebsd || netbsd || openbsd

package tensor

import (
	"os"
	"syscall"
)

func mapReadOnly(f *os.File, size int) ([]byte, func() error, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}

// mapAnonymous maps n zeroed, writable bytes outside the Go heap.
func mapAnonymous(n int) ([]byte, func() error, error) {
	data, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapPopulate)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
