package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// renderGCPercent and renderMemoryGoal are the collector's settings
// while render runs. A render is one
// short process that builds a scene, draws it and exits; at Go's default
// (collect when the heap doubles) the collector ran several times over
// objects that live to the end anyway, about a fifth of the CPU of a
// 5,000-operator graph (0.45 → 0.37 s whole process at 400). The memory
// limit keeps the heap a render may grow to bounded all the same: near
// it the collector works as hard as it must.
const (
	renderGCPercent  = 400
	renderMemoryGoal = 512 << 20
)

// lazyGC sets them, backs the heap by huge pages where it can
// (heapOnHugePages), and returns the function restoring the settings.
func lazyGC() (restore func()) {
	heapOnHugePages() // a 5,000-operator graph: 0.37 → 0.25 s
	percent := debug.SetGCPercent(renderGCPercent)
	limit := debug.SetMemoryLimit(renderMemoryGoal)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// collectFrom is the heap a reading command (info, stats, summary) grows
// to before its first collection. Such a command is one short process:
// opening a 2,000-tensor checkpoint allocates 7 MB, nearly all of it live
// to the end, and at Go's default (the first collection at 4 MB) about a
// tenth of its CPU went to collections that freed little.
const collectFrom = 48 << 20

// collectLate prepares the heap for a short reading command: backed by
// huge pages where the kernel allows (heapOnHugePages), and collected late.
// It turns the collector off until the heap reaches collectFrom;
// after that first collection it works as before (GOGC=100, no limit), so
// a file with a large header (an archive of 100,000 members) keeps the
// heap the default policy gives it. It acts once per process: commands run
// in one process (tests) must not take each other's settings for the
// defaults.
func collectLate() { collectLateOnce.Do(setCollectLate) }

var collectLateOnce sync.Once

func setCollectLate() {
	heapOnHugePages() // first: it collects, and would run the finalizer below
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return // the user's settings win
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(collectFrom)
	first := new([16]byte) // not tiny-allocated, so its finalizer runs
	runtime.SetFinalizer(first, func(*[16]byte) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
