package safetensors_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/internal/samples"
)

// TestMutatedSamples runs the fuzz body over 3,000 deterministic random
// mutations of a real file, each bounded in time: a quick stand-in for the
// fuzzer in ordinary test runs.
func TestMutatedSamples(t *testing.T) {
	seed, err := os.ReadFile(filepath.Join(samples.Dir(t, "safetensors"), "mlverse-safetensors", "hello.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 3000; i++ {
		b := append([]byte(nil), seed...)
		for k := 0; k < 1+r.IntN(4); k++ {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		start := time.Now()
		fuzzBody(t, b)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("mutation %d took %v", i, d)
		}
	}
}
