package cli

import (
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

// lazyGC sets them and returns the function restoring the previous ones.
func lazyGC() (restore func()) {
	percent := debug.SetGCPercent(renderGCPercent)
	limit := debug.SetMemoryLimit(renderMemoryGoal)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// infoHeapFree is how much memory the Go runtime may take before info's
// first collection (see deferredGC).
const infoHeapFree = 64 << 20

// deferredGC turns the collector off until the process's Go memory
// reaches infoHeapFree, and gives it back its settings at that first
// collection (the memory limit forces it; a cleanup on an object
// unreachable from the start sees it). What info builds lives until it
// prints: from Go's 4 MB start, collecting each time the heap doubles
// marked the same live document over and over, a fifth of the CPU of
// info --json of a 30,000-tensor checkpoint. A document that needs more
// than infoHeapFree is collected as before once it passes it. The
// returned function restores the settings if no collection came.
func deferredGC() (restore func()) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(infoHeapFree)
	var once sync.Once
	restore = func() {
		once.Do(func() {
			debug.SetGCPercent(percent)
			debug.SetMemoryLimit(limit)
		})
	}
	runtime.AddCleanup(new([64]byte), func(restore func()) { restore() }, restore)
	return restore
}
