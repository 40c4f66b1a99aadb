//go:build unix

package fifo

import (
	"os"
	"syscall"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// release opens the pipe read-write (which Linux never blocks on) and
// closes it: a reader blocked in open(2) then gets a writer and EOF.
func release(path string) {
	if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}
