package tensor

import (
	"errors"
	"runtime/debug"
)

// ErrFault reports that reading a tensor's storage faulted: a memory-mapped
// file was truncated (or its disk vanished) while it was open. Without this
// the process would die of SIGBUS; with it the reader gets an error.
var ErrFault = errors.New("reading the file's data failed: the file was truncated or changed on disk while open")

// CatchFault runs f with memory faults on the calling goroutine turned into
// ErrFault. Goroutines that read mapped storage outside the tensor core's
// own workers (decompressors, exporters, UI cells) run their reads in it.
func CatchFault(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverFault(&err)
	return f()
}

// recoverFault turns a recovered memory fault into ErrFault and re-panics
// with anything else.
func recoverFault(err *error) {
	r := recover()
	if r == nil {
		return
	}
	// The runtime's fault errors carry the faulting address.
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		*err = ErrFault
		return
	}
	panic(r)
}
