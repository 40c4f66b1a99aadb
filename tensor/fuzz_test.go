package tensor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

// viewModel is the naive reference for a chain of view operations: the
// shape and, in row-major order, which element of the original tensor each
// position holds (the original holds 0, 1, 2, ... so values are positions).
type viewModel struct {
	shape []int
	vals  []float64
}

func (m viewModel) at(idx []int) float64 {
	l := 0
	for k, i := range idx {
		l = l*m.shape[k] + i
	}
	return m.vals[l]
}

func (m viewModel) remap(shape []int, src func(idx []int) []int) viewModel {
	out := viewModel{shape: shape}
	forEachIndex(shape, func(idx []int) { out.vals = append(out.vals, m.at(src(idx))) })
	return out
}

// byteSource hands out fuzz bytes as small signed integers, zeros when
// exhausted.
type byteSource struct{ b []byte }

func (s *byteSource) next() int {
	if len(s.b) == 0 {
		return 0
	}
	v := int(int8(s.b[0]))
	s.b = s.b[1:]
	return v
}

// count is in [0, n].
func (s *byteSource) count(n int) int { return ((s.next() % (n + 1)) + n + 1) % (n + 1) }

func (s *byteSource) small(n int) int { // mostly in [0, n), sometimes out of range
	v := s.next()
	if v < -100 {
		return v
	}
	if n <= 0 {
		return v % 3
	}
	return ((v % (n + 1)) + n + 1) % (n + 1)
}

// elementAddrs lists the byte offsets of x's elements in row-major order
// (for packed dtypes, their element numbers in the storage).
func elementAddrs(x *Tensor) []int {
	var out []int
	dt := x.DType()
	forEachIndex(x.Shape(), func(idx []int) {
		off, step := x.Offset(), dt.Size()
		if dt.Packed() {
			off, step = x.Offset()/dt.UnitBytes()*dt.UnitElems()+x.UnitPhase(), 1
		}
		out = append(out, off+naiveOffset(x, idx)*step)
	})
	return out
}

// stridedReshapeExists reports whether x's elements, in row-major order,
// can be addressed as shape with some non-negative strides.
func stridedReshapeExists(x *Tensor, shape []int) bool {
	addrs := elementAddrs(x)
	n, err := NumElements(shape)
	if err != nil || n != len(addrs) || n == 0 {
		return false
	}
	rm := RowMajorStrides(shape)
	strides := make([]int, len(shape))
	for k, d := range shape {
		if d > 1 {
			strides[k] = addrs[rm[k]] - addrs[0]
			if strides[k] < 0 {
				return false
			}
		}
	}
	ok := true
	l := 0
	forEachIndex(shape, func(idx []int) {
		want := addrs[0]
		for k, i := range idx {
			want += i * strides[k]
		}
		ok = ok && addrs[l] == want
		l++
	})
	return ok
}

// checkAgainstModel compares every element of x with the model, through
// the naive formula, Float64At, ContiguousBytes and ComputeStats.
func checkAgainstModel(x *Tensor, m viewModel) error {
	if !slices.Equal(x.Shape(), m.shape) {
		return fmt.Errorf("shape %v, model %v", x.Shape(), m.shape)
	}
	var err error
	forEachIndex(m.shape, func(idx []int) {
		if err != nil {
			return
		}
		want := m.at(idx)
		if got := naiveAt(x, idx); got != want {
			err = fmt.Errorf("naive read at %v = %v, model %v", idx, got, want)
			return
		}
		if got, e := x.Float64At(idx); e != nil || got != want {
			err = fmt.Errorf("Float64At(%v) = %v, %v; model %v", idx, got, e, want)
		}
	})
	if err != nil {
		return err
	}
	if x.DType().Packed() {
		if _, err := x.ContiguousBytes(context.Background()); !errors.Is(err, ErrNoBytes) {
			return fmt.Errorf("ContiguousBytes of packed elements: %v", err)
		}
		c, err := x.ToFloat32(context.Background())
		if err != nil {
			return err
		}
		if got := naiveValues(c); !equalFloats(got, m.vals) && len(m.vals) > 0 {
			return fmt.Errorf("ToFloat32 = %v, model %v", got, m.vals)
		}
	} else {
		b, err := x.ContiguousBytes(context.Background())
		if err != nil {
			return err
		}
		c, err := FromBytes(b, x.DType(), x.Shape())
		if err != nil {
			return err
		}
		if got := naiveValues(c); !equalFloats(got, m.vals) && len(m.vals) > 0 {
			return fmt.Errorf("ContiguousBytes = %v, model %v", got, m.vals)
		}
	}
	st, err := ComputeStats(context.Background(), x, nil)
	if err != nil {
		return err
	}
	var sum float64
	mn, mx := math.Inf(1), math.Inf(-1)
	for _, v := range m.vals {
		sum += v
		mn, mx = min(mn, v), max(mx, v)
	}
	if st.Count != int64(len(m.vals)) || (len(m.vals) > 0 && (st.Min != mn || st.Max != mx || math.Abs(st.Mean-sum/float64(len(m.vals))) > 1e-9)) {
		return fmt.Errorf("stats %+v, model count %d min %v max %v mean %v", st, len(m.vals), mn, mx, sum/float64(len(m.vals)))
	}
	if x.IsContiguous() && !slices.Equal(x.Strides(), RowMajorStrides(x.Shape())) {
		return fmt.Errorf("IsContiguous with strides %v", x.Strides())
	}
	vals := make([]float64, len(m.vals))
	if err := x.ReadFloat64s(0, vals); err != nil || !equalFloats(vals, m.vals) {
		return fmt.Errorf("ReadFloat64s = %v, %v; model %v", vals, err, m.vals)
	}
	h, err := ComputeHistogram(context.Background(), x, 5, 0, 0, nil)
	if err != nil {
		return err
	}
	if err := sameHistogram(h, refHistogram(h, m.vals)); err != nil {
		return fmt.Errorf("histogram: %v", err)
	}
	if x.Rank() == 2 {
		for _, r := range []Reduction{ReduceMean, ReduceMax} {
			g, err := Downsample(context.Background(), x, 2, 3, r, nil)
			if err != nil {
				return err
			}
			if err := checkGrid(g, x, 2, 3, r); err != nil {
				return fmt.Errorf("downsample %v: %v", r, err)
			}
		}
	}
	return nil
}

// applyViewOp performs one fuzz-chosen operation on x and the model. It
// returns the new tensor and model, or an error if x and the model
// disagree. A rejected operation leaves both unchanged.
func applyViewOp(x *Tensor, m viewModel, src *byteSource) (*Tensor, viewModel, string, error) {
	rank := x.Rank()
	op := ((src.next() % 7) + 7) % 7
	var (
		y     *Tensor
		err   error
		name  string
		valid bool
		next  viewModel
	)
	switch op {
	case 0:
		dim := src.small(rank - 1)
		start, length := src.small(4), src.small(4)
		name = fmt.Sprintf("Slice(%d,%d,%d)", dim, start, length)
		y, err = x.Slice(dim, start, length)
		valid = dim >= 0 && dim < rank && length >= 1 && start >= 0 && start+length <= m.shape[dim] &&
			sliceIsView(x, dim, start, length)
		if valid {
			shape := slices.Clone(m.shape)
			shape[dim] = length
			next = m.remap(shape, func(idx []int) []int {
				s := slices.Clone(idx)
				s[dim] += start
				return s
			})
		}
	case 1:
		dim, index := src.small(rank-1), src.small(4)
		name = fmt.Sprintf("Select(%d,%d)", dim, index)
		y, err = x.Select(dim, index)
		valid = dim >= 0 && dim < rank && index >= 0 && index < m.shape[dim]
		if valid {
			shape := slices.Delete(slices.Clone(m.shape), dim, dim+1)
			next = m.remap(shape, func(idx []int) []int { return slices.Insert(slices.Clone(idx), dim, index) })
		}
	case 2:
		order := make([]int, rank)
		for i := range order {
			order[i] = i
		}
		for i := rank - 1; i > 0; i-- {
			j := src.small(i)
			if j >= 0 && j <= i {
				order[i], order[j] = order[j], order[i]
			}
		}
		if src.next() < -120 && rank > 0 { // occasionally invalid
			order[0] = src.small(rank + 1)
		}
		name = fmt.Sprintf("Permute(%v)", order)
		y, err = x.Permute(order)
		sorted := slices.Sorted(slices.Values(order))
		valid = true
		for i, o := range sorted {
			valid = valid && o == i
		}
		if valid {
			shape := make([]int, rank)
			for i, o := range order {
				shape[i] = m.shape[o]
			}
			next = m.remap(shape, func(idx []int) []int {
				s := make([]int, rank)
				for i, o := range order {
					s[o] = idx[i]
				}
				return s
			})
		}
	case 3:
		start, end := src.small(rank-1), src.small(rank-1)
		name = fmt.Sprintf("DimMerge(%d,%d)", start, end)
		y, err = x.DimMerge(start, end)
		if start >= 0 && start <= end && end < rank {
			shape := slices.Clone(m.shape[:start])
			p := 1
			for _, d := range m.shape[start : end+1] {
				p *= d
			}
			shape = append(append(shape, p), m.shape[end+1:]...)
			// Dims that do not lie one inside the other merge into a
			// composite axis, so every merge of valid dims is a view.
			valid = true
			next = viewModel{shape: shape, vals: m.vals}
		}
	case 4:
		dim := src.small(rank - 1)
		sizes := make([]int, 1+src.count(2))
		for i := range sizes {
			sizes[i] = src.small(4)
		}
		name = fmt.Sprintf("DimSplit(%d,%v)", dim, sizes)
		y, err = x.DimSplit(dim, sizes)
		if dim >= 0 && dim < rank {
			p := 1
			valid = x.mergedAxis(dim) == nil
			for _, s := range sizes {
				valid = valid && s >= 1
				p *= s
			}
			valid = valid && p == m.shape[dim]
			shape := append(append(slices.Clone(m.shape[:dim]), sizes...), m.shape[dim+1:]...)
			next = viewModel{shape: shape, vals: m.vals}
		}
	case 5:
		shape := make([]int, src.count(4))
		rest := len(m.vals)
		for i := range shape {
			d := src.small(6)
			if d > 0 && rest%d == 0 && src.next() > -100 {
				rest /= d
			}
			shape[i] = d
		}
		if len(shape) > 0 && src.next() > -64 {
			p := 1
			for _, d := range shape[:len(shape)-1] {
				p *= max(d, 1)
			}
			if len(m.vals)%p == 0 {
				shape[len(shape)-1] = len(m.vals) / p
			}
		}
		name = fmt.Sprintf("View(%v)", shape)
		y, err = x.View(shape)
		nonZero := rank > 0 && len(m.vals) > 0
		for _, d := range shape {
			nonZero = nonZero && d > 0
		}
		valid = nonZero && stridedReshapeExists(x, shape)
		next = viewModel{shape: shape, vals: m.vals}
	case 6:
		name = "Contiguous"
		y, err = x.Contiguous(context.Background())
		valid, next = true, m
		if x.DType().BlockQuantized() && errors.Is(err, ErrNoBytes) {
			valid = false // a view from inside a block has no blocks of its own to copy
		}
	}
	if err != nil {
		if !errors.Is(err, ErrView) && op != 6 {
			return nil, m, name, fmt.Errorf("%s: error %v does not wrap ErrView", name, err)
		}
		if valid {
			return nil, m, name, fmt.Errorf("%s of shape %v strides %v rejected: %v", name, x.Shape(), x.Strides(), err)
		}
		return x, m, name, nil
	}
	if !valid {
		return nil, m, name, fmt.Errorf("%s of shape %v strides %v accepted as %v strides %v", name, x.Shape(), x.Strides(), y.Shape(), y.Strides())
	}
	return y, next, name, nil
}

// FuzzViewOps runs random chains of view operations (valid or not) and
// checks after each that nothing panicked, that exactly the valid ones
// succeeded, and that every element of the view equals the naive model.
func FuzzViewOps(f *testing.F) {
	f.Add([]byte{3, 2, 3, 4, 5, 1, 24, 1, 0})
	f.Add([]byte{2, 4, 3, 2, 1, 0, 5, 1, 12})
	f.Add([]byte{4, 2, 1, 3, 2, 0, 1, 1, 2, 3, 0, 1, 4, 2, 2, 2})
	f.Add([]byte{2, 3, 4, 2, 1, 0, 3, 0, 1, 5, 2, 2, 3, 6, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		src := &byteSource{b: data}
		rank := src.count(4)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = src.small(4) + 1
			if shape[i] < 1 || shape[i] > 5 {
				shape[i] = 1
			}
		}
		if rank > 0 && src.next() == -128 {
			shape[0] = 0
		}
		fuzzViewChain(t, seqTensor(t, shape...), src)
	})
}

// fuzzViewChain applies up to 12 fuzz-chosen view operations to x and
// checks each result against the model.
func fuzzViewChain(t *testing.T, x *Tensor, src *byteSource) {
	shape := x.Shape()
	m := viewModel{shape: slices.Clone(shape), vals: naiveValues(x)}
	trail := []string{x.String()}
	for step := 0; step < 12 && len(src.b) > 0; step++ {
		var name string
		var err error
		x, m, name, err = applyViewOp(x, m, src)
		trail = append(trail, name)
		if err != nil {
			t.Fatalf("%v: %v", trail, err)
		}
		if err := checkAgainstModel(x, m); err != nil {
			t.Fatalf("%v: %v", trail, err)
		}
	}
}

// FuzzPackedViewOps is FuzzViewOps over packed dtypes (sub-byte types and
// a fake block type) holding random bytes: chains of views that start
// inside units and walk them in any direction never panic and always read
// what the bit-by-bit reference reads.
func FuzzPackedViewOps(f *testing.F) {
	f.Add(byte(0), []byte{3, 2, 3, 4, 5, 1, 24, 1, 0, 7, 200, 13, 99, 1, 2, 3})
	f.Add(byte(5), []byte{2, 4, 3, 2, 1, 0, 5, 1, 12, 0xff, 0x3f, 0x10})
	f.Add(byte(7), []byte{2, 1, 2, 0, 2, 1, 9, 3, 1, 4, 0, 5, 6, 3, 1, 2})
	f.Fuzz(func(t *testing.T, dtype byte, data []byte) {
		withFakeBlocks(t)
		dt := packedDTypes[int(dtype)%len(packedDTypes)]
		src := &byteSource{b: data}
		rank := 1 + src.count(3)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = src.small(4) + 1
			if shape[i] < 1 || shape[i] > 5 {
				shape[i] = 1
			}
		}
		if dt.BlockQuantized() {
			shape[rank-1] *= 32 // whole blocks per row
		}
		n, _ := NumElements(shape)
		size, err := StorageBytes(dt, int64(n))
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(src.next())
		}
		if dt == fakeBlockDType {
			for u := 0; u+34 <= len(b); u += 34 {
				b[u], b[u+1] = b[u]&0x3f, 0x20|b[u+1]&0x0f // a finite, moderate float16 scale
			}
		}
		x, err := FromBytes(b, dt, shape)
		if err != nil {
			t.Fatal(err)
		}
		fuzzViewChain(t, x, src)
	})
}

// kernelFuzzDTypes are the dtypes FuzzKernels reads arbitrary bytes as.
var kernelFuzzDTypes = append(slices.Clone(numericDTypes), Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
	Float8E5M2FNUZ, Float8E8M0FNU, Datetime64, Timedelta64, Int4, Uint4, Int2, Uint2, Float4E2M1FN,
	Float6E2M3FN, Float6E3M2FN, fakeBlockDType)

// FuzzKernels feeds arbitrary bytes as data of any numeric dtype (read
// big-endian when the dtype byte is 128 or more) through
// statistics, histograms, percentiles and downsampling, and checks each
// against its naive reference.
func FuzzKernels(f *testing.F) {
	f.Add(byte(11), byte(3), []byte("\x00\x00\x80\x7f\x00\x00\xc0\xff\x01\x00\x00\x00\x00\x00\x80\x80"))
	f.Add(byte(9), byte(1), []byte("\x00\x7c\x00\xfc\x01\x7c\x00\x80\xff\x7b\x01\x00"))
	f.Add(byte(12), byte(2), make([]byte, 64))
	f.Fuzz(func(t *testing.T, dtype, rows byte, data []byte) {
		withFakeBlocks(t)
		dt := kernelFuzzDTypes[int(dtype)%len(kernelFuzzDTypes)]
		n := int(elementsFitting(dt, int64(len(data))))
		size, _ := StorageBytes(dt, int64(n))
		x, err := FromBytes(data[:size], dt, []int{n})
		if err != nil {
			t.Fatal(err)
		}
		if dtype >= 128 && !dt.BlockQuantized() {
			// The same bytes read big-endian.
			if x, err = x.BigEndian(); err != nil {
				t.Fatal(err)
			}
		}
		vals := naiveValues(x)
		ctx := context.Background()
		st, err := ComputeStats(ctx, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkStats(t, "stats", st, refStatsFor(dt, vals))
		h, err := ComputeHistogram(ctx, x, 1+int(rows)%9, 0, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameHistogram(h, refHistogram(h, vals)); err != nil {
			t.Fatalf("histogram: %v", err)
		}
		if sorted := finiteSorted(vals); len(sorted) > 0 {
			ps, err := percentiles(ctx, x, []float64{0, 50, 100}, nil)
			if err != nil {
				t.Fatal(err)
			}
			width := (sorted[len(sorted)-1] - sorted[0]) / PercentileBins
			if math.IsInf(width, 0) {
				width = sorted[len(sorted)-1]/PercentileBins - sorted[0]/PercentileBins
			}
			want := exactPercentile(sorted, 50)
			ulp := math.Abs(math.Nextafter(want, math.Inf(1)) - want)
			if ps[0] != sorted[0] || ps[2] != sorted[len(sorted)-1] || math.Abs(ps[1]-want) > 2*max(width, ulp) {
				t.Fatalf("percentiles %v of %v", ps, sorted)
			}
		}
		r := 1 + int(rows)%4
		if n%r != 0 {
			return
		}
		m, err := x.View([]int{r, n / r})
		if err != nil {
			if n == 0 {
				return
			}
			t.Fatal(err)
		}
		for _, red := range []Reduction{ReduceMean, ReduceMin, ReduceMax, ReduceAbsMax} {
			for _, gs := range [][2]int{{1, 1}, {2, 3}, {r, n}} {
				g, err := Downsample(ctx, m, gs[0], max(gs[1], 1), red, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkGrid(g, m, gs[0], max(gs[1], 1), red); err != nil {
					t.Fatalf("%v to %v: %v", red, gs, err)
				}
			}
		}
	})
}
