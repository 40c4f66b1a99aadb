package tensor

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// randomComplex returns a [rows, cols] complex tensor with a few special
// parts (zeros, infinities, NaNs, huge values).
func randomComplex(t testing.TB, rng *rand.Rand, dt DType, rows, cols int) *Tensor {
	t.Helper()
	part := dt.Size() / 2
	b := make([]byte, rows*cols*dt.Size())
	for off := 0; off < len(b); off += part {
		v := rng.NormFloat64() * 100
		if rng.IntN(10) == 0 {
			v = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 3e38, -1e300}[rng.IntN(7)]
		}
		if part == 4 {
			binary.LittleEndian.PutUint32(b[off:], math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(b[off:], math.Float64bits(v))
		}
	}
	x, err := FromBytes(b, dt, []int{rows, cols})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// complexAt reads element idx of complex x naively.
func complexAt(x *Tensor, idx []int) (re, im float64) {
	e := naiveOffset(x, idx)
	size := x.DType().Size()
	b := x.Storage().Bytes()[x.Offset()+e*size:]
	if x.IsBigEndian() {
		b = naiveSwap(b[:size], x.DType(), false)
	}
	if size == 8 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), math.Float64frombits(binary.LittleEndian.Uint64(b[8:]))
}

func TestComplexParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	ctx := context.Background()
	for _, dt := range []DType{Complex64, Complex128} {
		le := randomComplex(t, rng, dt, 7, 23)
		for _, order := range []string{"little-endian", "big-endian"} {
			x := le
			if order == "big-endian" {
				x = bigEndianCopy(t, le)
			}
			tr, _ := x.Permute([]int{1, 0})
			sl, _ := tr.Slice(0, 2, 20)
			merged, _ := tr.DimMerge(0, 1) // composite: no stride steps over a transposed [7,23]
			for vname, v := range map[string]*Tensor{"whole": x, "transposed slice": sl, "merged transpose": merged} {
				for _, p := range []ComplexPart{RealPart, ImagPart, Magnitude} {
					what := dt.String() + " " + order + " " + vname + " " + p.String()
					part, err := v.ComplexPart(p)
					if err != nil {
						t.Fatal(err)
					}
					if want := map[DType]DType{Complex64: Float32, Complex128: Float64}[dt]; part.DType() != want {
						t.Fatalf("%s: dtype %s", what, part.DType())
					}
					forEachIndex(v.Shape(), func(idx []int) {
						re, im := complexAt(v, idx)
						want := map[ComplexPart]float64{RealPart: re, ImagPart: im, Magnitude: math.Hypot(re, im)}[p]
						if dt == Complex64 {
							if p == Magnitude && !math.IsInf(re, 0) && !math.IsInf(im, 0) {
								want = math.Sqrt(re*re + im*im)
							}
							want = float64(float32(want))
						}
						if got, err := part.Float64At(idx); err != nil || !sameFloat(got, want) {
							t.Fatalf("%s: element %v = %v, %v; want %v (z = %v%+vi)", what, idx, got, err, want, re, im)
						}
						if got := naiveAt(part, idx); p != Magnitude && !sameFloat(got, want) {
							t.Fatalf("%s: naive element %v = %v, want %v", what, idx, got, want)
						}
					})
					checkKernelsAgree(t, what, part, materialised(t, part))
				}
			}
			if _, err := x.ElementString([]int{0, 0}); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, _ := randomComplex(t, rng, Complex64, 2, 2).ComplexPart(Magnitude)
	if _, err := m.ElementBytes([]int{0, 0}); !errors.Is(err, ErrNoBytes) {
		t.Errorf("ElementBytes of a magnitude: %v", err)
	}
	if _, err := m.ContiguousBytes(ctx); !errors.Is(err, ErrNoBytes) {
		t.Errorf("ContiguousBytes of a magnitude: %v", err)
	}
	if _, err := m.ComplexPart(RealPart); err == nil {
		t.Error("ComplexPart of a magnitude: no error")
	}
	if _, err := seqTensor(t, 3).ComplexPart(RealPart); err == nil {
		t.Error("ComplexPart of float32: no error")
	}
	// Views of a part are views like any other.
	x := randomComplex(t, rng, Complex128, 4, 6)
	im, _ := x.ComplexPart(ImagPart)
	s, _ := im.Slice(1, 2, 3)
	r, _ := s.Select(0, 3)
	_, want := complexAt(x, []int{3, 4})
	if got, _ := r.Float64At([]int{2}); !sameFloat(got, want) {
		t.Errorf("imag part view = %v, want %v", got, want)
	}
}

// materialised is an independent float tensor holding part's values,
// read element by element.
func materialised(t testing.TB, part *Tensor) *Tensor {
	t.Helper()
	n := part.Len()
	size := part.DType().Size()
	b := make([]byte, n*size)
	i := 0
	forEachIndex(part.Shape(), func(idx []int) {
		v, err := part.Float64At(idx)
		if err != nil {
			t.Fatal(err)
		}
		if size == 4 {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		i++
	})
	x, err := FromBytes(b, part.DType(), part.Shape())
	if err != nil {
		t.Fatal(err)
	}
	return x
}
