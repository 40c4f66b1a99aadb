package tensor

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// convMosaic is the mosaic of a conv weight [O,I,kh,kw]: O·kh rows by I·kw
// columns, built from views alone.
func convMosaic(w *Tensor) (*Tensor, error) {
	p, err := w.Permute([]int{0, 2, 1, 3})
	if err != nil {
		return nil, err
	}
	rows, err := p.DimMerge(0, 1)
	if err != nil {
		return nil, err
	}
	return rows.DimMerge(1, 2)
}

// mosaicCopy is the reference: the mosaic's values copied element by
// element from w through the naive formula.
func mosaicCopy(w *Tensor) []float64 {
	s := w.Shape()
	o, i, kh, kw := s[0], s[1], s[2], s[3]
	out := make([]float64, 0, o*i*kh*kw)
	for r := range o * kh {
		for c := range i * kw {
			out = append(out, naiveAt(w, []int{r / kh, c / kw, r % kh, c % kw}))
		}
	}
	return out
}

// A conv mosaic is a zero-copy composite view whose every kernel — element
// access, ReadFloat64s, contiguous copy, stats, histogram, downsampling,
// planes and further views — reads what a copying reference reads, on
// random shapes of plain and packed dtypes.
func TestConvMosaicMatchesCopy(t *testing.T) {
	withFakeBlocks(t)
	rng := rand.New(rand.NewPCG(13, 4))
	ctx := context.Background()
	dtypes := append([]DType{Float32, Float16, BFloat16, Float64, Int8, Uint32}, packedDTypes...)
	for trial := range 40 {
		dt := dtypes[trial%len(dtypes)]
		o, i, kh, kw := 1+rng.IntN(5), 1+rng.IntN(4), 1+rng.IntN(4), 1+rng.IntN(4)
		if dt == fakeBlockDType {
			kw = 32 // blocks of 32 along the innermost axis
		}
		var flat *Tensor
		if dt.Packed() {
			flat = randomPacked(t, rng, dt, o*i*kh, kw)
		} else {
			flat = randomTensor(t, rng, dt, o*i*kh*kw, 0.05)
		}
		w, err := flat.View([]int{o, i, kh, kw})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s[%d,%d,%d,%d]", dt, o, i, kh, kw)
		m, err := convMosaic(w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := m.Shape(), []int{o * kh, i * kw}; !eqInts(got, want) {
			t.Fatalf("%s: mosaic shape %v, want %v", name, got, want)
		}
		if m.Storage() != w.Storage() {
			t.Fatalf("%s: mosaic copied its data", name)
		}
		want := mosaicCopy(w)
		checkComposite(t, ctx, name, m, want)
		if m.AxisBlock(0) != kh && kh > 1 && o > 1 && i > 1 { // with I = 1 the rows are plain
			t.Fatalf("%s: AxisBlock(0) = %d, want %d", name, m.AxisBlock(0), kh)
		}
		checkRegions(t, ctx, name, m, rng)

		// Views of the mosaic: a band of whole kernel rows, one row, a
		// transposed mosaic, the rows inside one kernel.
		if o > 1 {
			band, err := m.Slice(0, kh, kh*(o-1))
			if err != nil {
				t.Fatalf("%s: slice whole kernels: %v", name, err)
			}
			checkComposite(t, ctx, name+" band", band, want[kh*i*kw:])
		}
		if kh > 1 {
			inside, err := m.Slice(0, kh*(o-1)+1, kh-1)
			if err != nil {
				t.Fatalf("%s: slice inside a kernel: %v", name, err)
			}
			checkComposite(t, ctx, name+" inside", inside, want[(kh*(o-1)+1)*i*kw:])
		}
		row, err := m.Select(0, o*kh-1)
		if err != nil {
			t.Fatal(err)
		}
		checkComposite(t, ctx, name+" last row", row, want[(o*kh-1)*i*kw:])
		tr, err := m.Permute([]int{1, 0})
		if err != nil {
			t.Fatal(err)
		}
		var trWant []float64
		for c := range i * kw {
			for r := range o * kh {
				trWant = append(trWant, want[r*i*kw+c])
			}
		}
		checkComposite(t, ctx, name+" transposed", tr, trWant)
	}
}

// checkComposite compares every reading of x with want, its values in
// row-major order.
func checkComposite(t *testing.T, ctx context.Context, name string, x *Tensor, want []float64) {
	t.Helper()
	want = want[:x.Len()]
	if got := naiveValues(x); !equalFloats(got, want) {
		t.Fatalf("%s: naive values %v, want %v", name, got, want)
	}
	k := 0
	forEachIndex(x.Shape(), func(idx []int) {
		if got, err := x.Float64At(idx); err != nil || !sameFloat(got, want[k]) {
			t.Fatalf("%s: Float64At(%v) = %v, %v; want %v", name, idx, got, err, want[k])
		}
		k++
	})
	vals := make([]float64, len(want))
	if err := x.ReadFloat64s(0, vals); err != nil || !equalFloats(vals, want) {
		t.Fatalf("%s: ReadFloat64s = %v, %v; want %v", name, vals, err, want)
	}
	if !x.DType().BlockQuantized() {
		c, err := x.Contiguous(ctx)
		if err != nil {
			t.Fatalf("%s: Contiguous: %v", name, err)
		}
		if got := naiveValues(c); !equalFloats(got, want) {
			t.Fatalf("%s: Contiguous = %v, want %v", name, got, want)
		}
	}
	st, err := ComputeStats(ctx, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := refStats(want)
	if st.Count != ref.Count || st.NaN != ref.NaN || !sameFloat(st.Min, ref.Min) || !sameFloat(st.Max, ref.Max) ||
		!closeRel(st.Mean, ref.Mean, 1e-9, math.Max(math.Abs(ref.Min), math.Abs(ref.Max))) {
		t.Fatalf("%s: stats %+v, want %+v", name, st, ref)
	}
	h, err := ComputeHistogram(ctx, x, 7, 0, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameHistogram(h, refHistogram(h, want)); err != nil {
		t.Fatalf("%s: histogram: %v", name, err)
	}
	if x.Rank() == 2 {
		for _, grid := range [][2]int{{1, 1}, {2, 3}, {5, 4}, {64, 64}} {
			for _, r := range []Reduction{ReduceMean, ReduceMin, ReduceAbsMax} {
				g, err := Downsample(ctx, x, grid[0], grid[1], r, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkGrid(g, x, grid[0], grid[1], r); err != nil {
					t.Fatalf("%s: downsample %v to %v: %v", name, r, grid, err)
				}
			}
		}
	}
}

// A merge that no stride can express still refuses what its components
// cannot address, and says why.
func TestCompositeRefusals(t *testing.T) {
	w := seqTensor(t, 4, 3, 3, 3)
	m, err := convMosaic(w)
	if err != nil {
		t.Fatal(err)
	}
	if !m.IsComposite() || m.IsContiguous() {
		t.Fatalf("mosaic: composite %v contiguous %v", m.IsComposite(), m.IsContiguous())
	}
	if _, err := m.Slice(0, 1, 3); err == nil {
		t.Fatal("a slice across two kernels was accepted")
	}
	if _, err := m.DimSplit(0, []int{4, 3}); err == nil {
		t.Fatal("a split of a composite axis was accepted")
	}
	// View goes through the components: the mosaic as [12,9] or [108]
	// is no strided view, but as [O,kh,I,kw] it is, with the permuted
	// strides.
	for _, shape := range [][]int{{108}, {12, 3, 3}} {
		if _, err := m.View(shape); err == nil {
			t.Fatalf("View of the mosaic as %v was accepted", shape)
		}
	}
	split, err := m.View([]int{4, 3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	if split.IsComposite() || !eqInts(split.Strides(), []int{27, 3, 9, 1}) {
		t.Fatalf("View as [4,3,3,3]: composite %v strides %v", split.IsComposite(), split.Strides())
	}
	sh, st := m.PhysicalLayout()
	if !eqInts(sh, []int{4, 3, 3, 3}) || !eqInts(st, []int{27, 3, 9, 1}) {
		t.Fatalf("PhysicalLayout = %v %v", sh, st)
	}
}

// checkRegions compares DownsampleRegion of random regions of the plane p
// with Downsample of the same region of a contiguous copy.
func checkRegions(t *testing.T, ctx context.Context, name string, p *Tensor, rng *rand.Rand) {
	t.Helper()
	if p.DType().BlockQuantized() {
		return // a copy of a block type is no plane of its own dtype
	}
	c, err := p.Contiguous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Shape()
	for range 6 {
		rows, cols := 1+rng.IntN(s[0]), 1+rng.IntN(s[1])
		r0, c0 := rng.IntN(s[0]-rows+1), rng.IntN(s[1]-cols+1)
		maxR, maxC := 1+rng.IntN(4), 1+rng.IntN(4)
		got, err := DownsampleRegion(ctx, p, r0, c0, rows, cols, maxR, maxC, ReduceMax, nil)
		if err != nil {
			t.Fatal(err)
		}
		sub, err := c.Slice(0, r0, rows)
		if err == nil {
			sub, err = sub.Slice(1, c0, cols)
		}
		if err != nil {
			t.Fatal(err)
		}
		want, err := Downsample(ctx, sub, maxR, maxC, ReduceMax, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := compareGrids(got, want, make([]float64, len(want.Values))); err != nil {
			t.Fatalf("%s: region %d×%d at %d,%d: %v", name, rows, cols, r0, c0, err)
		}
	}
	if _, err := DownsampleRegion(ctx, p, 1, 0, s[0], s[1], 4, 4, ReduceMean, nil); err == nil {
		t.Fatalf("%s: a region past the plane was accepted", name)
	}
}

// Step keeps every step-th index, on plain tensors and on the plain axes
// of a composite one.
func TestStep(t *testing.T) {
	ctx := context.Background()
	x := seqTensor(t, 3, 7)
	s, err := x.Step(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkComposite(t, ctx, "step", s, []float64{0, 3, 6, 7, 10, 13, 14, 17, 20})
	m, err := convMosaic(seqTensor(t, 2, 2, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Step(0, 2); err == nil {
		t.Fatal("a step along a composite axis was accepted")
	}
	if _, err := x.Step(0, 0); err == nil {
		t.Fatal("step 0 was accepted")
	}
	one, err := seqTensor(t, 2, 2, 2, 1).Step(3, 5)
	if err != nil || !eqInts(one.Shape(), []int{2, 2, 2, 1}) {
		t.Fatalf("step of a size-1 dim: %v, %v", one, err)
	}
}
