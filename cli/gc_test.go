package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// TestCollectLate: the collector is off until the first collection, and
// works at the settings it had before once that collection has run.
func TestCollectLate(t *testing.T) {
	// collectLate may have run in this process already (a command run in
	// process): let its collection restore the settings first, or its
	// finalizer would undo the ones set here.
	runtime.GC()
	waitFor(func() bool { p, l := gcSettings(); return p != ^uint64(0) && l != collectFrom })
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	setCollectLate() // GOGC off reads as -1
	if p, l := gcSettings(); p != ^uint64(0) || l != collectFrom {
		t.Fatalf("after collectLate: GOGC %d, limit %d; want off and %d", p, l, collectFrom)
	}
	runtime.GC()
	if !waitFor(func() bool { p, l := gcSettings(); return p == 100 && l == math.MaxInt64 }) {
		p, l := gcSettings()
		t.Errorf("after a collection: GOGC %d, limit %d; want 100 and no limit", p, l)
	}
}

// waitFor polls cond for up to five seconds.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}
