package tsm

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// statsOfAll runs the tensor core's statistics over every tensor with
// data, as `tensorscope stats` does: numeric ones give finite results,
// opaque ones a clean ErrNotNumeric.
func statsOfAll(t *testing.T, doc *formats.Document) (numeric int) {
	t.Helper()
	for _, e := range doc.Tensors {
		if !e.HasData() {
			continue
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s, err := tensor.ComputeStats(context.Background(), x, nil)
		if !e.DType.Numeric() {
			if !errors.Is(err, tensor.ErrNotNumeric) {
				t.Errorf("%s (%s): %v", e.Name, e.DType, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if s.Count != int64(x.Len()) || s.Finite != s.Count || math.IsNaN(s.Mean) && s.Count > 0 {
			t.Errorf("%s: %+v", e.Name, s)
		}
		numeric++
	}
	return numeric
}

func TestStatsEveryConst(t *testing.T) {
	if n := statsOfAll(t, decodeDoc(t, readFixture(t, "all_dtypes.tsm"))); n == 0 {
		t.Errorf("no numeric tensors")
	}
	doc := openDoc(t, filepath.Join(samples.Dir(t, "tsm"), "face_detector.csta"))
	if n := statsOfAll(t, doc); n != 83 {
		t.Errorf("stats over %d tensors, want 83", n)
	}
}
