//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package tensor

import (
	"io"
	"os"
)

// mapReadOnly falls back to reading the file where mmap is not wired up.
func mapReadOnly(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, nil, nil
}

// mapAnonymous falls back to the Go heap.
func mapAnonymous(n int) ([]byte, func() error, error) { return make([]byte, n), nil, nil }
