package tensor

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
)

// bigEndianCopy returns a tensor with x's values stored big-endian: a copy
// of x's bytes with every element (every part of a complex one) reversed,
// viewed through BigEndian.
func bigEndianCopy(t testing.TB, x *Tensor) *Tensor {
	t.Helper()
	b := append([]byte(nil), x.Storage().Bytes()...)
	size := x.DType().Size()
	for off := 0; off+size <= len(b); off += size {
		copy(b[off:], naiveSwap(b[off:off+size], x.DType(), false))
	}
	y, err := FromBytes(b, x.DType(), x.Shape())
	if err != nil {
		t.Fatal(err)
	}
	be, err := y.BigEndian()
	if err != nil {
		t.Fatal(err)
	}
	if !be.IsBigEndian() {
		t.Fatalf("%s: BigEndian view does not say so", x)
	}
	return be
}

var multiByteDTypes = []DType{Int16, Uint16, Int32, Uint32, Int64, Uint64, Float16, BFloat16, Float32, Float64}

// TestBigEndianSameValues: a big-endian copy of every multi-byte dtype
// shows the same values as the original through every accessor and
// kernel, contiguous and strided.
func TestBigEndianSameValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	dts := append(append([]DType(nil), multiByteDTypes...), Datetime64, Timedelta64)
	for _, dt := range dts {
		var le *Tensor
		if dt.IsTime() {
			le = randomTensor(t, rng, Int64, 8*45, 0.2)
			le, _ = FromBytes(le.Storage().Bytes(), dt, le.Shape())
		} else {
			le = randomTensor(t, rng, dt, 8*45, 0.1)
		}
		be := bigEndianCopy(t, le)
		views := func(x *Tensor) map[string]*Tensor {
			m, _ := x.View([]int{8, 45})
			tr, _ := m.Permute([]int{1, 0})
			sl, _ := tr.Slice(0, 2, 40)
			return map[string]*Tensor{"contiguous": m, "transposed": sl}
		}
		lv, bv := views(le), views(be)
		for name := range lv {
			l, b := lv[name], bv[name]
			what := dt.String() + " " + name
			if got, want := naiveValues(b), naiveValues(l); !equalFloats(got, want) {
				t.Fatalf("%s: naive values differ", what)
			}
			checkKernelsAgree(t, what, b, l)
		}
	}
}

// checkKernelsAgree checks that view b gives exactly what view l gives.
func checkKernelsAgree(t *testing.T, what string, b, l *Tensor) {
	t.Helper()
	ctx := context.Background()
	forEachIndex(l.Shape(), func(idx []int) {
		fb, err1 := b.Float64At(idx)
		fl, err2 := l.Float64At(idx)
		if err1 != nil || err2 != nil || !sameFloat(fb, fl) {
			t.Fatalf("%s: Float64At(%v) = %v, %v; want %v, %v", what, idx, fb, err1, fl, err2)
		}
		sb, err1 := b.ElementString(idx)
		sl, err2 := l.ElementString(idx)
		if err1 != nil || err2 != nil || sb != sl {
			t.Fatalf("%s: ElementString(%v) = %q, %v; want %q, %v", what, idx, sb, err1, sl, err2)
		}
		if !b.IsMagnitude() {
			eb, err1 := b.ElementBytes(idx)
			el, err2 := l.ElementBytes(idx)
			if err1 != nil || err2 != nil || !bytes.Equal(eb, el) {
				t.Fatalf("%s: ElementBytes(%v) = % x, %v; want % x, %v", what, idx, eb, err1, el, err2)
			}
		}
	})
	if !b.IsMagnitude() {
		cb, err1 := b.ContiguousBytes(ctx)
		cl, err2 := l.ContiguousBytes(ctx)
		if err1 != nil || err2 != nil || !bytes.Equal(cb, cl) {
			t.Fatalf("%s: ContiguousBytes differ (%v, %v)", what, err1, err2)
		}
		c, err := b.Contiguous(ctx)
		if err != nil || c.IsBigEndian() || !equalFloats(naiveValues(c), naiveValues(l)) {
			t.Fatalf("%s: Contiguous: %v", what, err)
		}
	}
	sb, err1 := ComputeStats(ctx, b, nil)
	sl, err2 := ComputeStats(ctx, l, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	checkStats(t, what, sb, sl) // to a few ulps: a strided view may be summed in another order

	hb, err1 := ComputeHistogram(ctx, b, 11, 0, 0, nil)
	hl, err2 := ComputeHistogram(ctx, l, 11, 0, 0, nil)
	if err1 != nil || err2 != nil || sameHistogram(hb, hl) != nil {
		t.Fatalf("%s: histograms differ (%v, %v)", what, err1, err2)
	}
	if l.Rank() == 2 {
		for _, r := range []Reduction{ReduceMean, ReduceAbsMax} {
			gb, err := Downsample(ctx, b, 3, 4, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkGrid(gb, l, 3, 4, r); err != nil {
				t.Fatalf("%s: downsample %v: %v", what, r, err)
			}
		}
	}
	fb, err1 := b.ToFloat32(ctx)
	fl, err2 := l.ToFloat32(ctx)
	if err1 != nil || err2 != nil || !equalFloats(naiveValues(fb), naiveValues(fl)) {
		t.Fatalf("%s: ToFloat32 differs (%v, %v)", what, err1, err2)
	}
	vb, vl := make([]float64, l.Len()), make([]float64, l.Len())
	if b.ReadFloat64s(0, vb) != nil || l.ReadFloat64s(0, vl) != nil || !equalFloats(vb, vl) {
		t.Fatalf("%s: ReadFloat64s differs", what)
	}
}

func TestBigEndianOfByteTypes(t *testing.T) {
	x, _ := FromBytes([]byte{1, 2, 3}, Int8, []int{3})
	if be, err := x.BigEndian(); err != nil || be != x {
		t.Errorf("BigEndian of int8: %v, %v", be, err)
	}
	p, _ := FromBytes([]byte{1, 2}, Int4, []int{4})
	if be, err := p.BigEndian(); err != nil || be != p {
		t.Errorf("BigEndian of int4: %v, %v", be, err)
	}
	old := unitSwappers[GGMLQ4_K]
	unitSwappers[GGMLQ4_K] = nil
	defer func() { unitSwappers[GGMLQ4_K] = old }()
	q, _ := FromBytes(make([]byte, 144), GGMLQ4_K, []int{256})
	if _, err := q.BigEndian(); err == nil {
		t.Error("BigEndian of q4_k without a unit swapper: no error")
	}
}

// TestBigEndianBlocks: a block type whose package registers a unit swapper
// decodes big-endian units through it.
func TestBigEndianBlocks(t *testing.T) {
	withFakeBlocks(t)
	old := unitSwappers[fakeBlockDType]
	unitSwappers[fakeBlockDType] = func(u []byte) { u[0], u[1] = u[1], u[0] } // the float16 scale
	defer func() { unitSwappers[fakeBlockDType] = old }()
	rng := rand.New(rand.NewPCG(5, 6))
	le := randomPacked(t, rng, fakeBlockDType, 6, 96)
	b := append([]byte(nil), le.Storage().Bytes()...)
	for u := le.Offset(); u+34 <= len(b); u += 34 {
		b[u], b[u+1] = b[u+1], b[u]
	}
	y, err := New(NewStorage(b), int64(le.Offset()), fakeBlockDType, le.Shape())
	if err != nil {
		t.Fatal(err)
	}
	be, err := y.BigEndian()
	if err != nil {
		t.Fatal(err)
	}
	lv, bv := packedViews(t, le), packedViews(t, be)
	for name := range lv {
		l, b := lv[name], bv[name]
		if got, want := valuesOf(t, b), naiveValues(l); !equalFloats(got, want) {
			t.Fatalf("%s: big-endian blocks differ", name)
		}
	}
}

// valuesOf reads x's values through ReadFloat64s.
func valuesOf(t testing.TB, x *Tensor) []float64 {
	out := make([]float64, x.Len())
	if err := x.ReadFloat64s(0, out); err != nil {
		t.Fatal(err)
	}
	return out
}
