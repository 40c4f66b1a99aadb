//go:build unix

// Package benchcpu measures the process's CPU time for benchmarks: on the
// shared 2-core machine it tells compute cost apart from waiting for a core.
package benchcpu

import (
	"syscall"
	"time"
)

// ProcessTime is the user+system CPU time of the process so far.
func ProcessTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
