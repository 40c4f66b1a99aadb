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
	if a, ok := r.(interface{ Addr() uintptr }); ok {
		*err = &FaultError{Addr: a.Addr()}
		return
	}
	panic(r)
}

// FaultError is ErrFault with the address that faulted (errors.Is(err,
// ErrFault) holds for it). A reader of memory it fills on demand (a remote
// file's blocks, fetched when first read) learns from Addr which block the
// code in CatchFault needed.
type FaultError struct{ Addr uintptr }

func (e *FaultError) Error() string        { return ErrFault.Error() }
func (e *FaultError) Is(target error) bool { return target == ErrFault }

// FaultAddr returns the faulting address of an error from CatchFault.
func FaultAddr(err error) (uintptr, bool) {
	var fe *FaultError
	if errors.As(err, &fe) {
		return fe.Addr, true
	}
	return 0, false
}
