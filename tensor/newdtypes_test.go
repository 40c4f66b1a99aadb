package tensor

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestFloat8Kernels runs every float8 pattern, in a strided view too,
// through statistics, histograms and downsampling.
func TestFloat8Kernels(t *testing.T) {
	ctx := context.Background()
	for _, dt := range narrowDTypes[:5] {
		b := make([]byte, 512)
		for i := range b {
			b[i] = byte(i * 37 % 256)
		}
		x, err := FromBytes(b, dt, []int{16, 32})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := x.Permute([]int{1, 0})
		for name, v := range map[string]*Tensor{"contiguous": x, "transposed": tr} {
			want := naiveValues(v)
			st, err := ComputeStats(ctx, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkStats(t, dt.String()+" "+name, st, refStatsFor(Float32, want))
			h, err := ComputeHistogram(ctx, v, 9, 0, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameHistogram(h, refHistogram(h, want)); err != nil {
				t.Fatalf("%s %s: %v", dt, name, err)
			}
			g, err := Downsample(ctx, v, 5, 6, ReduceMean, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkGrid(g, v, 5, 6, ReduceMean); err != nil {
				t.Fatalf("%s %s: %v", dt, name, err)
			}
		}
	}
}

// TestDatetime: int64 counts, NaT counted as NaN and printed as "NaT".
func TestDatetime(t *testing.T) {
	ctx := context.Background()
	counts := []int64{0, 1700000000, NaT, -5, math.MaxInt64, NaT}
	b := make([]byte, 8*len(counts))
	for i, c := range counts {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(c))
	}
	for _, dt := range []DType{Datetime64, Timedelta64} {
		x, err := FromBytes(b, dt, []int{len(counts)})
		if err != nil {
			t.Fatal(err)
		}
		st, err := ComputeStats(ctx, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.NaN != 2 || st.Finite != 4 || st.Min != -5 || st.Max != math.MaxInt64 {
			t.Errorf("%s stats %+v", dt, st)
		}
		h, err := ComputeHistogram(ctx, x, 4, 0, 0, nil)
		if err != nil || h.NaN != 2 || h.Finite() != 4 {
			t.Errorf("%s histogram %+v, %v", dt, h, err)
		}
		for i, want := range []string{"0", "1700000000", "NaT", "-5", "9223372036854775807", "NaT"} {
			if s, err := x.ElementString([]int{i}); err != nil || s != want {
				t.Errorf("%s element %d = %q, %v; want %q", dt, i, s, err, want)
			}
		}
		if v, err := x.Float64At([]int{2}); err != nil || v == v {
			t.Errorf("%s NaT = %v, %v", dt, v, err)
		}
		f, err := x.ToFloat32(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := f.Float64At([]int{5}); v == v {
			t.Errorf("%s ToFloat32 of NaT = %v", dt, v)
		}
	}
}

// TestNewDTypesAreNumeric: the narrow floats, times and decodable packed
// types take part in statistics; float8 and float6 count as floats, int4 as
// integers.
func TestNewDTypesAreNumeric(t *testing.T) {
	for _, dt := range []DType{Float8E4M3FN, Float8E8M0FNU, Datetime64, Timedelta64, Int4, Uint2, Float4E2M1FN, Float6E3M2FN} {
		if !dt.Numeric() {
			t.Errorf("%s is not numeric", dt)
		}
	}
	if !Float8E5M2.IsFloat() || !Float6E2M3FN.IsFloat() || Int4.IsFloat() || !Int4.IsInteger() || Datetime64.IsInteger() {
		t.Error("IsFloat/IsInteger of the new dtypes")
	}
	if Complex64.Numeric() || Void16.Numeric() {
		t.Error("complex or opaque dtypes are numeric")
	}
}

// TestToFloat32 converts views of wide and narrow types.
func TestToFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	for _, dt := range numericDTypes {
		x := randomTensor(t, rng, dt, 6*50, 0.1)
		m, _ := x.View([]int{6, 50})
		v, _ := m.Permute([]int{1, 0})
		v, _ = v.Slice(0, 3, 40)
		f, err := v.ToFloat32(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, want := naiveValues(f), naiveValues(v)
		for i := range want {
			if !sameFloat(got[i], float64(float32(want[i]))) {
				t.Fatalf("%s: element %d = %v, want %v", dt, i, got[i], float32(want[i]))
			}
		}
	}
	if _, err := seqTensor(t, 0).ToFloat32(ctx); err != nil {
		t.Fatal(err)
	}
}
