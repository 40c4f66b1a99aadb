package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// deferredGC turns the collector off under a memory limit, and the first
// collection (or restore) gives back the settings it found.
func TestDeferredGC(t *testing.T) {
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	restore := deferredGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent %d while deferred", p)
	}
	if l := debug.SetMemoryLimit(-1); l != infoHeapFree {
		t.Fatalf("memory limit %d while deferred", l)
	}
	runtime.GC() // the collection the limit would force
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetGCPercent(-1) != 77 {
		if time.Now().After(deadline) {
			t.Fatal("the first collection did not give the collector its settings back")
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after the first collection", l)
	}
	debug.SetGCPercent(12)
	restore() // already restored: leaves what came since alone
	if p := debug.SetGCPercent(-1); p != 12 {
		t.Errorf("restore after the collection changed the GC percent to %d", p)
	}

	debug.SetGCPercent(77)
	restore = deferredGC()
	restore()
	if p := debug.SetGCPercent(-1); p != 77 {
		t.Errorf("restore without a collection: GC percent %d", p)
	}
}
