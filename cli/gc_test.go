package cli

import (
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
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	// collectLate may have run in this process already. GOGC off reads as -1.
	setCollectLate()
	if p, l := gcSettings(); p != ^uint64(0) || l != collectFrom {
		t.Fatalf("after collectLate: GOGC %d, limit %d; want off and %d", p, l, collectFrom)
	}
	runtime.GC()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if p, l := gcSettings(); p == 100 && l != collectFrom {
			return
		}
	}
	p, l := gcSettings()
	t.Errorf("after a collection: GOGC %d, limit %d; want 100 and no limit", p, l)
}
