package tensor

import (
	"context"
	"errors"
	"testing"
)

func mustStrided(t *testing.T, shape, strides []int) *Tensor {
	t.Helper()
	n := 1
	for i, d := range shape {
		if d > 0 {
			n += (d - 1) * strides[i]
		}
	}
	x, err := NewStrided(NewStorage(make([]byte, 4*n)), 0, Float32, shape, strides)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestViewOps(t *testing.T) {
	c234 := seqTensor(t, 2, 3, 4)
	tr43 := func() *Tensor { // [3,4] transposed: shape [4,3], strides [1,4]
		x, err := seqTensor(t, 3, 4).Permute([]int{1, 0})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}()
	odd := mustStrided(t, []int{2, 1, 3}, []int{3, 7, 1}) // size-1 dim with a stray stride
	perm14, _ := seqTensor(t, 1, 4).Permute([]int{1, 0})  // [4,1] strides [1,4]

	tests := []struct {
		name       string
		op         func() (*Tensor, error)
		shape      []int
		strides    []int
		offset     int // bytes
		contiguous bool
	}{
		{"contiguous [2,3,4]", func() (*Tensor, error) { return c234, nil }, []int{2, 3, 4}, []int{12, 4, 1}, 0, true},
		{"view [1,24,1]", func() (*Tensor, error) { return c234.View([]int{1, 24, 1}) }, []int{1, 24, 1}, []int{24, 1, 1}, 0, true},
		{"view [6,4]", func() (*Tensor, error) { return c234.View([]int{6, 4}) }, []int{6, 4}, []int{4, 1}, 0, true},
		{"view [4,6]", func() (*Tensor, error) { return c234.View([]int{4, 6}) }, []int{4, 6}, []int{6, 1}, 0, true},
		{"view [24]", func() (*Tensor, error) { return c234.View([]int{24}) }, []int{24}, []int{1}, 0, true},
		{"view [2,3,4,1]", func() (*Tensor, error) { return c234.View([]int{2, 3, 4, 1}) }, []int{2, 3, 4, 1}, []int{12, 4, 1, 1}, 0, true},
		{"view [1,2,3,4]", func() (*Tensor, error) { return c234.View([]int{1, 2, 3, 4}) }, []int{1, 2, 3, 4}, []int{24, 12, 4, 1}, 0, true},
		{"slice dim 1", func() (*Tensor, error) { return c234.Slice(1, 1, 2) }, []int{2, 2, 4}, []int{12, 4, 1}, 16, false},
		{"slice dim 0 to size 1", func() (*Tensor, error) { return c234.Slice(0, 1, 1) }, []int{1, 3, 4}, []int{12, 4, 1}, 48, true},
		{"slice whole dim", func() (*Tensor, error) { return c234.Slice(2, 0, 4) }, []int{2, 3, 4}, []int{12, 4, 1}, 0, true},
		{"slice last dim", func() (*Tensor, error) { return c234.Slice(2, 3, 1) }, []int{2, 3, 1}, []int{12, 4, 1}, 12, false},
		{"select dim 1", func() (*Tensor, error) { return c234.Select(1, 2) }, []int{2, 4}, []int{12, 1}, 32, false},
		{"select dim 0", func() (*Tensor, error) { return c234.Select(0, 1) }, []int{3, 4}, []int{4, 1}, 48, true},
		{"select to scalar", func() (*Tensor, error) {
			x, _ := seqTensor(t, 5).Select(0, 3)
			return x, nil
		}, []int{}, []int{}, 12, true},
		{"permute", func() (*Tensor, error) { return c234.Permute([]int{2, 0, 1}) }, []int{4, 2, 3}, []int{1, 12, 4}, 0, false},
		{"permute identity", func() (*Tensor, error) { return c234.Permute([]int{0, 1, 2}) }, []int{2, 3, 4}, []int{12, 4, 1}, 0, true},
		{"merge 0..1", func() (*Tensor, error) { return c234.DimMerge(0, 1) }, []int{6, 4}, []int{4, 1}, 0, true},
		{"merge 1..2", func() (*Tensor, error) { return c234.DimMerge(1, 2) }, []int{2, 12}, []int{12, 1}, 0, true},
		{"merge all", func() (*Tensor, error) { return c234.DimMerge(0, 2) }, []int{24}, []int{1}, 0, true},
		{"merge one dim", func() (*Tensor, error) { return c234.DimMerge(1, 1) }, []int{2, 3, 4}, []int{12, 4, 1}, 0, true},
		{"split last", func() (*Tensor, error) { return c234.DimSplit(2, []int{2, 2}) }, []int{2, 3, 2, 2}, []int{12, 4, 2, 1}, 0, true},
		{"split first with 1", func() (*Tensor, error) { return c234.DimSplit(0, []int{1, 2}) }, []int{1, 2, 3, 4}, []int{24, 12, 4, 1}, 0, true},
		{"split into itself", func() (*Tensor, error) { return c234.DimSplit(1, []int{3}) }, []int{2, 3, 4}, []int{12, 4, 1}, 0, true},
		{"transposed", func() (*Tensor, error) { return tr43, nil }, []int{4, 3}, []int{1, 4}, 0, false},
		{"transposed view [4,1,3]", func() (*Tensor, error) { return tr43.View([]int{4, 1, 3}) }, []int{4, 1, 3}, []int{1, 1, 4}, 0, false},
		{"transposed view [2,2,3]", func() (*Tensor, error) { return tr43.View([]int{2, 2, 3}) }, []int{2, 2, 3}, []int{2, 1, 4}, 0, false},
		{"transposed split", func() (*Tensor, error) { return tr43.DimSplit(0, []int{2, 2}) }, []int{2, 2, 3}, []int{2, 1, 4}, 0, false},
		{"transposed slice", func() (*Tensor, error) { return tr43.Slice(1, 1, 2) }, []int{4, 2}, []int{1, 4}, 16, false},
		// A size-1 dimension's stride never matters for addressing: View and
		// DimMerge accept it where the reference refuses, IsContiguous
		// stays strict as in the reference.
		{"size-1 stray stride", func() (*Tensor, error) { return odd, nil }, []int{2, 1, 3}, []int{3, 7, 1}, 0, false},
		{"size-1 stray stride view [6]", func() (*Tensor, error) { return odd.View([]int{6}) }, []int{6}, []int{1}, 0, true},
		{"size-1 stray stride merge", func() (*Tensor, error) { return odd.DimMerge(0, 2) }, []int{6}, []int{1}, 0, true},
		{"size-1 stray stride merge 1..2", func() (*Tensor, error) { return odd.DimMerge(1, 2) }, []int{2, 3}, []int{3, 1}, 0, true},
		{"permuted [1,4] is not contiguous", func() (*Tensor, error) { return perm14, nil }, []int{4, 1}, []int{1, 4}, 0, false},
		{"permuted [1,4] view [4]", func() (*Tensor, error) { return perm14.View([]int{4}) }, []int{4}, []int{1}, 0, true},
		{"permuted [1,4] view [2,2]", func() (*Tensor, error) { return perm14.View([]int{2, 2}) }, []int{2, 2}, []int{2, 1}, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := tc.op()
			if err != nil {
				t.Fatal(err)
			}
			if !eqInts(x.Shape(), tc.shape) || !eqInts(x.Strides(), tc.strides) || x.Offset() != tc.offset {
				t.Errorf("got shape %v strides %v offset %d, want %v %v %d",
					x.Shape(), x.Strides(), x.Offset(), tc.shape, tc.strides, tc.offset)
			}
			if got := x.IsContiguous(); got != tc.contiguous {
				t.Errorf("IsContiguous = %v, want %v", got, tc.contiguous)
			}
		})
	}
}

// Elements seen through a view are the elements the view's definition
// says: checked here on the transposed example, by value.
func TestViewElements(t *testing.T) {
	x, err := seqTensor(t, 3, 4).Permute([]int{1, 0}) // x[i][j] = 4j + i
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.View([]int{2, 2, 3}) // v[a][b][j] = x[2a+b][j]
	if err != nil {
		t.Fatal(err)
	}
	forEachIndex(v.Shape(), func(idx []int) {
		want := float64(4*idx[2] + 2*idx[0] + idx[1])
		got, err := v.Float64At(idx)
		if err != nil || got != want {
			t.Fatalf("v%v = %v, %v; want %v", idx, got, err, want)
		}
	})
	b, err := v.ContiguousBytes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, _ := FromBytes(b, Float32, v.Shape())
	if got, want := naiveValues(c), naiveValues(v); !equalFloats(got, want) {
		t.Fatalf("ContiguousBytes = %v, want %v", got, want)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameFloat(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestViewErrors(t *testing.T) {
	c234 := seqTensor(t, 2, 3, 4)
	tr43, _ := seqTensor(t, 3, 4).Permute([]int{1, 0})
	scalar, _ := seqTensor(t, 1).Select(0, 0)
	empty := seqTensor(t, 2, 0)
	tests := []struct {
		name string
		op   func() (*Tensor, error)
	}{
		{"slice dim -1", func() (*Tensor, error) { return c234.Slice(-1, 0, 1) }},
		{"slice dim 3", func() (*Tensor, error) { return c234.Slice(3, 0, 1) }},
		{"slice len 0", func() (*Tensor, error) { return c234.Slice(0, 0, 0) }},
		{"slice len -1", func() (*Tensor, error) { return c234.Slice(0, 1, -1) }},
		{"slice start -1", func() (*Tensor, error) { return c234.Slice(1, -1, 1) }},
		{"slice past end", func() (*Tensor, error) { return c234.Slice(1, 2, 2) }},
		{"slice start at end", func() (*Tensor, error) { return c234.Slice(1, 3, 1) }},
		{"slice huge", func() (*Tensor, error) { return c234.Slice(1, 1<<62, 1<<62) }},
		{"slice scalar", func() (*Tensor, error) { return scalar.Slice(0, 0, 1) }},
		{"select dim -1", func() (*Tensor, error) { return c234.Select(-1, 0) }},
		{"select dim 3", func() (*Tensor, error) { return c234.Select(3, 0) }},
		{"select index -1", func() (*Tensor, error) { return c234.Select(0, -1) }},
		{"select index = size", func() (*Tensor, error) { return c234.Select(2, 4) }},
		{"select empty dim", func() (*Tensor, error) { return empty.Select(1, 0) }},
		{"permute short", func() (*Tensor, error) { return c234.Permute([]int{0, 1}) }},
		{"permute long", func() (*Tensor, error) { return c234.Permute([]int{0, 1, 2, 3}) }},
		{"permute repeat", func() (*Tensor, error) { return c234.Permute([]int{0, 1, 1}) }},
		{"permute out of range", func() (*Tensor, error) { return c234.Permute([]int{0, 1, 3}) }},
		{"permute negative", func() (*Tensor, error) { return c234.Permute([]int{0, -1, 2}) }},
		{"merge start > end", func() (*Tensor, error) { return c234.DimMerge(2, 1) }},
		{"merge end = rank", func() (*Tensor, error) { return c234.DimMerge(1, 3) }},
		{"merge start -1", func() (*Tensor, error) { return c234.DimMerge(-1, 1) }},
		{"split dim 3", func() (*Tensor, error) { return c234.DimSplit(3, []int{1}) }},
		{"split dim -1", func() (*Tensor, error) { return c234.DimSplit(-1, []int{1}) }},
		{"split no sizes", func() (*Tensor, error) { return c234.DimSplit(0, nil) }},
		{"split wrong product", func() (*Tensor, error) { return c234.DimSplit(2, []int{3, 2}) }},
		{"split zero", func() (*Tensor, error) { return c234.DimSplit(2, []int{0, 4}) }},
		{"split negative", func() (*Tensor, error) { return c234.DimSplit(2, []int{-2, -2}) }},
		{"split overflowing product", func() (*Tensor, error) { return c234.DimSplit(2, []int{1 << 40, 1 << 40, 4}) }},
		{"split empty dim", func() (*Tensor, error) { return empty.DimSplit(1, []int{0}) }},
		{"view transposed as [12]", func() (*Tensor, error) { return tr43.View([]int{12}) }},
		{"view transposed as [3,4]", func() (*Tensor, error) { return tr43.View([]int{3, 4}) }},
		{"view transposed as [6,2]", func() (*Tensor, error) { return tr43.View([]int{6, 2}) }},
		{"view wrong count", func() (*Tensor, error) { return c234.View([]int{5, 5}) }},
		{"view zero size", func() (*Tensor, error) { return c234.View([]int{0, 24}) }},
		{"view negative", func() (*Tensor, error) { return c234.View([]int{-1, -24}) }},
		{"view overflowing count", func() (*Tensor, error) { return c234.View([]int{1 << 40, 1 << 40}) }},
		{"view rank-0", func() (*Tensor, error) { return scalar.View([]int{1}) }},
		{"view empty", func() (*Tensor, error) { return empty.View([]int{0}) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := tc.op()
			if err == nil {
				t.Fatalf("succeeded: %v strides %v", x.Shape(), x.Strides())
			}
			if !errors.Is(err, ErrView) {
				t.Fatalf("error %v does not wrap ErrView", err)
			}
		})
	}
}

func TestNewStrided(t *testing.T) {
	s := NewStorage(make([]byte, 48))
	ok := []struct {
		off     int64
		shape   []int
		strides []int
	}{
		{0, []int{3, 4}, []int{1, 3}},  // column-major 12 floats
		{4, []int{2, 2}, []int{5, 1}},  // padded rows, last element at 4+(5+1)*4 = 28
		{0, []int{12}, []int{1}},       // exactly the storage
		{48, []int{0, 5}, []int{5, 1}}, // empty at the very end
		{0, []int{4, 3}, []int{0, 1}},  // broadcast rows
		{44, []int{1, 1}, []int{99, 7}},
	}
	for _, c := range ok {
		if _, err := NewStrided(s, c.off, Float32, c.shape, c.strides); err != nil {
			t.Errorf("NewStrided(%d, %v, %v): %v", c.off, c.shape, c.strides, err)
		}
	}
	bad := []struct {
		off     int64
		shape   []int
		strides []int
	}{
		{4, []int{12}, []int{1}},                  // one element past the end
		{0, []int{2, 2}, []int{12, 1}},            // second row past the end
		{0, []int{2}, []int{-1}},                  // negative stride
		{0, []int{2}, []int{1, 1}},                // stride count
		{-4, []int{1}, []int{1}},                  // negative offset
		{52, []int{0}, []int{1}},                  // offset past the end
		{0, []int{2, 2}, []int{1 << 62, 1 << 62}}, // overflowing extent
		{0, []int{-1}, []int{1}},                  // negative dim
		{0, []int{1 << 30, 1 << 30}, []int{0, 0}}, // more than 2^48 elements
	}
	for _, c := range bad {
		if _, err := NewStrided(s, c.off, Float32, c.shape, c.strides); err == nil {
			t.Errorf("NewStrided(%d, %v, %v) succeeded", c.off, c.shape, c.strides)
		}
	}
}
