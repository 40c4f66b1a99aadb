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
