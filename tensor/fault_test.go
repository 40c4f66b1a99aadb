package tensor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestTruncatedMappedFile: a mapped file cut short while open must give
// ErrFault from the computations, not kill the process with SIGBUS.
func TestTruncatedMappedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.bin")
	const n = 1 << 22 // 16 MiB of float32: several chunks, both workers busy
	if err := os.WriteFile(path, make([]byte, 4*n), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, err := New(s, 0, Float32, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	if _, err := ComputeStats(context.Background(), x, nil); !errors.Is(err, ErrFault) {
		t.Errorf("stats over a truncated mapping: %v, want ErrFault", err)
	}
	if _, err := ComputeHistogram(context.Background(), x, 16, 0, 1, nil); !errors.Is(err, ErrFault) {
		t.Errorf("histogram over a truncated mapping: %v, want ErrFault", err)
	}
	plane, _ := x.View([]int{1024, 4096})
	if _, err := Downsample(context.Background(), plane, 64, 64, ReduceMean, nil); !errors.Is(err, ErrFault) {
		t.Errorf("downsample over a truncated mapping: %v, want ErrFault", err)
	}
	err = CatchFault(func() error {
		_, err := x.Float64At([]int{n - 1})
		return err
	})
	if !errors.Is(err, ErrFault) {
		t.Errorf("element read: %v", err)
	}
}

func TestCatchFaultPassesOtherPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a non-fault panic must propagate")
		}
	}()
	CatchFault(func() error { panic("boom") })
}
