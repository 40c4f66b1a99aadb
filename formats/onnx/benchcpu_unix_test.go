//go:build unix

package onnx_test

import (
	"syscall"
	"time"
)

// processCPUTime is the user+system CPU time of the process so far. On the
// shared machine it tells decoding cost apart from waiting for a core.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
