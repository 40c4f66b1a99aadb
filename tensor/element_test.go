package tensor

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestElementString(t *testing.T) {
	le := binary.LittleEndian
	u16 := func(v uint16) []byte { return le.AppendUint16(nil, v) }
	u32 := func(v uint32) []byte { return le.AppendUint32(nil, v) }
	u64 := func(v uint64) []byte { return le.AppendUint64(nil, v) }
	f32 := func(v float32) []byte { return u32(math.Float32bits(v)) }
	f64 := func(v float64) []byte { return u64(math.Float64bits(v)) }
	cases := []struct {
		dt   DType
		b    []byte
		want string
		f64  float64 // Float64At, NaN to skip
	}{
		{Bool, []byte{0}, "false", 0},
		{Bool, []byte{1}, "true", 1},
		{Bool, []byte{7}, "true", 1},
		{Int8, []byte{0x80}, "-128", -128},
		{Uint8, []byte{0xff}, "255", 255},
		{Int16, u16(0x8000), "-32768", -32768},
		{Uint16, u16(0xffff), "65535", 65535},
		{Int32, u32(0x80000000), "-2147483648", -2147483648},
		{Uint32, u32(0xffffffff), "4294967295", 4294967295},
		{Int64, u64(1<<63 | 1), "-9223372036854775807", -9223372036854775807},
		{Int64, u64(1<<53 + 1), "9007199254740993", 9007199254740992}, // Float64At rounds beyond 2^53
		{Uint64, u64(math.MaxUint64), "18446744073709551615", 18446744073709551615},
		{Float16, u16(0x3555), "0.3333", float64(Float16ToFloat32(0x3555))},
		{Float16, u16(0x0001), "6e-08", 0x1p-24},
		{Float16, u16(0x7e00), "NaN", math.NaN()},
		{Float16, u16(0xfc00), "-Inf", math.Inf(-1)},
		{BFloat16, u16(0x3dcd), "0.1", float64(BFloat16ToFloat32(0x3dcd))}, // 0.10009765625
		{BFloat16, u16(0x8000), "-0", math.Copysign(0, -1)},
		{Float32, f32(0.1), "0.1", float64(float32(0.1))},
		{Float32, f32(1e6), "1e+06", 1e6},
		{Float32, f32(16777216), "1.6777216e+07", 16777216},
		{Float32, f32(math.SmallestNonzeroFloat32), "1e-45", math.SmallestNonzeroFloat32},
		{Float64, f64(0.1), "0.1", 0.1},
		{Float64, f64(math.MaxFloat64), "1.7976931348623157e+308", math.MaxFloat64},
		{Complex64, append(f32(1.5), f32(-2)...), "(1.5-2j)", math.NaN()},
		{Complex64, append(f32(0), f32(float32(math.Inf(1)))...), "(0+Infj)", math.NaN()},
		{Complex128, append(f64(-0.25), f64(math.NaN())...), "(-0.25+NaNj)", math.NaN()},
		{Void32, []byte{0xde, 0xad, 0xbe, 0xef}, "0xdeadbeef", math.NaN()},
		{Void8, []byte{0x00}, "0x00", math.NaN()},
	}
	for _, c := range cases {
		x, err := FromBytes(c.b, c.dt, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := x.ElementString([]int{0})
		if err != nil || got != c.want {
			t.Errorf("%s %x: ElementString = %q, %v; want %q", c.dt, c.b, got, err, c.want)
		}
		v, err := x.Float64At([]int{0})
		switch {
		case !c.dt.Numeric():
			if !errors.Is(err, ErrNotNumeric) {
				t.Errorf("%s: Float64At error %v", c.dt, err)
			}
		case err != nil || !sameFloat(v, c.f64):
			t.Errorf("%s %x: Float64At = %v, %v; want %v", c.dt, c.b, v, err, c.f64)
		}
	}
}

func TestElementAccessErrors(t *testing.T) {
	x := seqTensor(t, 2, 3)
	for _, idx := range [][]int{nil, {0}, {0, 0, 0}, {2, 0}, {0, 3}, {-1, 0}} {
		if _, err := x.Float64At(idx); !errors.Is(err, ErrIndex) {
			t.Errorf("Float64At(%v): %v", idx, err)
		}
		if _, err := x.ElementString(idx); !errors.Is(err, ErrIndex) {
			t.Errorf("ElementString(%v): %v", idx, err)
		}
	}
	s, _ := x.Select(0, 1)
	s, _ = s.Select(0, 2)
	if v, err := s.Float64At(nil); err != nil || v != 5 {
		t.Errorf("scalar: %v, %v", v, err)
	}
}

func TestContiguousBytesZeroCopyAndCopy(t *testing.T) {
	ctx := context.Background()
	x := seqTensor(t, 4, 1)
	tr, _ := x.Permute([]int{1, 0}) // [1,4] strides [1,1]: not IsContiguous, but dense
	for _, v := range []*Tensor{x, tr} {
		b, err := v.ContiguousBytes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if &b[0] != &x.Storage().Bytes()[0] || len(b) != 16 {
			t.Errorf("%v strides %v: ContiguousBytes copied", v.Shape(), v.Strides())
		}
	}
	sl, _ := seqTensor(t, 3, 4).Slice(1, 1, 2)
	b, err := sl.ContiguousBytes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := FromBytes(b, Float32, sl.Shape())
	if got, want := naiveValues(y), []float64{1, 2, 5, 6, 9, 10}; !equalFloats(got, want) {
		t.Errorf("sliced: %v, want %v", got, want)
	}
	c, err := x.Contiguous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.Storage() == x.Storage() || &c.Storage().Bytes()[0] == &x.Storage().Bytes()[0] {
		t.Error("Contiguous shares storage")
	}
	// Every dtype size, gathered from a transposed view.
	for _, dt := range []DType{Int8, Int16, Float32, Float64, Complex128, Void64} {
		n := 6 * dt.Size()
		raw := make([]byte, n)
		for i := range raw {
			raw[i] = byte(i)
		}
		m, _ := FromBytes(raw, dt, []int{2, 3})
		mt, _ := m.Permute([]int{1, 0})
		got, err := mt.ContiguousBytes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i, src := range []int{0, 3, 1, 4, 2, 5} {
			for k := range dt.Size() {
				if got[i*dt.Size()+k] != raw[src*dt.Size()+k] {
					t.Fatalf("%s: element %d = %x, want element %d", dt, i, got[i*dt.Size():(i+1)*dt.Size()], src)
				}
			}
		}
	}
}

func TestDequantize(t *testing.T) {
	ctx := context.Background()
	q, _ := FromBytes([]byte{0, 1, 2, 255, 128, 3}, Uint8, []int{2, 3})
	check := func(name string, got *Tensor, err error, want []float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.DType() != Float32 || !eqInts(got.Shape(), q.Shape()) {
			t.Fatalf("%s: %s", name, got)
		}
		if vals := naiveValues(got); !equalFloats(vals, want) {
			t.Fatalf("%s: %v, want %v", name, vals, want)
		}
	}
	f := func(v float64) float64 { return float64(float32(v)) }
	got, err := Dequantize(ctx, q, []float64{0.5}, []int64{128}, -1)
	check("per tensor", got, err, []float64{-64, f(-63.5), -63, f(63.5), 0, f(-62.5)})
	got, err = Dequantize(ctx, q, []float64{1, 2, 4}, nil, 1)
	check("per column", got, err, []float64{0, 2, 8, 255, 256, 12})
	got, err = Dequantize(ctx, q, []float64{1, 0.1}, []int64{0, 3}, 0)
	check("per row", got, err, []float64{0, 1, 2, f(25.2), f(12.5), 0})
	tr, _ := q.Permute([]int{1, 0}) // [3,2]: rows are q's columns
	got, err = Dequantize(ctx, tr, []float64{1, 10}, []int64{1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if vals := naiveValues(got); !equalFloats(vals, []float64{-1, 2540, 0, 1270, 1, 20}) {
		t.Fatalf("transposed: %v", vals)
	}
	// Larger than one chunk, per channel along the last axis.
	big := make([]byte, 3*200_000)
	for i := range big {
		big[i] = byte(i * 7)
	}
	qb, _ := FromBytes(big, Int8, []int{200_000, 3})
	got, err = Dequantize(ctx, qb, []float64{1, 2, 3}, []int64{1, 2, 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	forEachIndex([]int{200_000, 3}, func(idx []int) {
		if idx[0]%997 != 0 {
			return
		}
		want := f((naiveAt(qb, idx) - float64(idx[1]+1)) * float64(idx[1]+1))
		if v := naiveAt(got, idx); v != want {
			t.Fatalf("%v: %v, want %v", idx, v, want)
		}
	})
	for name, f := range map[string]func() error{
		"float input":  func() error { _, err := Dequantize(ctx, seqTensor(t, 2), []float64{1}, nil, 0); return err },
		"no scales":    func() error { _, err := Dequantize(ctx, q, nil, nil, 0); return err },
		"scale count":  func() error { _, err := Dequantize(ctx, q, []float64{1, 2}, nil, 1); return err },
		"zp count":     func() error { _, err := Dequantize(ctx, q, []float64{1}, []int64{1, 2}, 1); return err },
		"no axis":      func() error { _, err := Dequantize(ctx, q, []float64{1, 2, 3}, nil, -1); return err },
		"axis too big": func() error { _, err := Dequantize(ctx, q, []float64{1, 2, 3}, nil, 2); return err },
	} {
		if f() == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func TestReadFloat64s(t *testing.T) {
	x := seqTensor(t, 3, 4, 5)
	v, _ := x.Permute([]int{2, 0, 1})
	v, _ = v.Slice(1, 1, 2) // [5,2,4], far from contiguous
	want := naiveValues(v)
	for _, r := range [][2]int{{0, 40}, {3, 17}, {39, 1}, {40, 0}, {0, 0}} {
		dst := make([]float64, r[1])
		if err := v.ReadFloat64s(int64(r[0]), dst); err != nil {
			t.Fatal(err)
		}
		if !equalFloats(dst, want[r[0]:r[0]+r[1]]) {
			t.Errorf("[%d,+%d): %v, want %v", r[0], r[1], dst, want[r[0]:r[0]+r[1]])
		}
	}
	q := randomTensor(t, rand.New(rand.NewPCG(1, 2)), Int64, 100, 0.2)
	dst := make([]float64, 100)
	if err := q.ReadFloat64s(0, dst); err != nil || !equalFloats(dst, naiveValues(q)) {
		t.Errorf("int64: %v", err)
	}
	for _, r := range [][2]int{{-1, 1}, {0, 41}, {41, 0}, {39, 2}} {
		if err := v.ReadFloat64s(int64(r[0]), make([]float64, r[1])); !errors.Is(err, ErrIndex) {
			t.Errorf("[%d,+%d): %v", r[0], r[1], err)
		}
	}
}
