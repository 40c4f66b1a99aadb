//go:build !lite

package cli

import "runtime/debug"

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
