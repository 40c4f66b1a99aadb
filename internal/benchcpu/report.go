package benchcpu

import "testing"

// Report runs body once per benchmark iteration and adds the CPU time per
// operation (all goroutines, the collector's included) to the output: on
// the shared machine wall time depends on who else runs, and with n cores
// free it approaches cpu-ms/op divided by n.
func Report(b *testing.B, body func()) {
	b.ResetTimer()
	start := ProcessTime()
	for b.Loop() {
		body()
	}
	if cpu := ProcessTime() - start; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
