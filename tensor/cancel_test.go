package tensor

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// longOps are the operations over data, each run on an 8M-element uint8
// tensor viewed as 2048×4096 (the plane for Downsample is its transpose, to
// exercise that path too).
func longOps(t *testing.T) map[string]func(ctx context.Context, p ProgressFunc) error {
	b := make([]byte, 8<<20)
	for i := range b {
		b[i] = byte(i * 31)
	}
	x, err := FromBytes(b, Uint8, []int{2048, 4096})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := x.Permute([]int{1, 0})
	return map[string]func(ctx context.Context, p ProgressFunc) error{
		"ComputeStats": func(ctx context.Context, p ProgressFunc) error {
			_, err := ComputeStats(ctx, x, p)
			return err
		},
		"ComputeHistogram": func(ctx context.Context, p ProgressFunc) error {
			_, err := ComputeHistogram(ctx, x, 256, 0, 0, p)
			return err
		},
		"Percentiles": func(ctx context.Context, p ProgressFunc) error {
			_, err := percentiles(ctx, x, []float64{50}, p)
			return err
		},
		"Downsample": func(ctx context.Context, p ProgressFunc) error {
			_, err := Downsample(ctx, tr, 100, 100, ReduceMean, p)
			return err
		},
		"ContiguousBytes": func(ctx context.Context, p ProgressFunc) error {
			_, err := tr.ContiguousBytes(ctx)
			return err
		},
		"Dequantize": func(ctx context.Context, p ProgressFunc) error {
			_, err := Dequantize(ctx, x, []float64{0.5}, []int64{3}, -1)
			return err
		},
	}
}

func TestProgressReporting(t *testing.T) {
	for name, op := range longOps(t) {
		var mu sync.Mutex
		calls, last, total := 0, int64(0), int64(0)
		err := op(context.Background(), func(done, tot int64) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			last, total = max(last, done), tot
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "ContiguousBytes" || name == "Dequantize" {
			continue // no progress callback
		}
		if calls == 0 || calls > 101 || last != total {
			t.Errorf("%s: %d progress calls, last done %d of %d", name, calls, last, total)
		}
	}
}

func TestCancellation(t *testing.T) {
	for name, op := range longOps(t) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		called := false
		if err := op(ctx, func(int64, int64) { called = true }); !errors.Is(err, context.Canceled) || called {
			t.Errorf("%s with a cancelled context: %v, progress called %v", name, err, called)
		}
	}
	// Cancelled at the first progress report, work stops within a few
	// steps per worker.
	for name, op := range longOps(t) {
		if name == "ContiguousBytes" || name == "Dequantize" {
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		var maxDone, total atomic.Int64
		err := op(ctx, func(done, tot int64) {
			cancel()
			total.Store(tot)
			for {
				old := maxDone.Load()
				if done <= old || maxDone.CompareAndSwap(old, done) {
					break
				}
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled mid-way returned %v", name, err)
		}
		if maxDone.Load() > total.Load()/4 {
			t.Errorf("%s: went on to %d of %d after cancellation", name, maxDone.Load(), total.Load())
		}
	}
}
