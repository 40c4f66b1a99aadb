package tensor

import (
	"context"
	"encoding/hex"
	"math"
	"testing"
)

func refTensor(t *testing.T, dt DType) *Tensor {
	t.Helper()
	ref := loadGGMLReferences(t)[dt]
	raw, _ := hex.DecodeString(ref.Blocks)
	blocks := len(raw) / dt.UnitBytes()
	x, err := FromBytes(raw, dt, []int{blocks, dt.UnitElems()})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func f32s(t *testing.T, x *Tensor) []float32 {
	t.Helper()
	n := x.Len()
	out := make([]float64, n)
	if err := x.ReadFloat64s(0, out); err != nil {
		t.Fatal(err)
	}
	r := make([]float32, n)
	for i, v := range out {
		r[i] = float32(v)
	}
	return r
}

// TestBlockViewsRebuildValues rebuilds every decoded value from the views:
// codes × (sub-block) scale − minimum, with the decoders' own arithmetic,
// for blocks of the real samples.
func TestBlockViewsRebuildValues(t *testing.T) {
	for _, dt := range []DType{GGMLQ4_0, GGMLQ4_1, GGMLQ5_0, GGMLQ5_1, GGMLQ8_0, GGMLQ2_K, GGMLQ3_K,
		GGMLQ4_K, GGMLQ5_K, GGMLQ6_K, GGMLIQ4_NL, GGMLTQ2_0, GGMLTQ1_0} {
		x := refTensor(t, dt)
		values, err := x.ToFloat32(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := f32s(t, values)
		codesT, err := BlockCodes(x)
		if err != nil {
			t.Fatalf("%s: %v", dt, err)
		}
		codes := f32s(t, codesT)
		scalesT, err := BlockScales(x)
		if err != nil {
			t.Fatal(err)
		}
		scales := f32s(t, scalesT)
		if len(scales) != len(want)/dt.UnitElems() {
			t.Fatalf("%s: %d scales", dt, len(scales))
		}
		var sub, subMin []float32
		per := dt.UnitElems()
		if s, err := SubBlockScales(x, false); err == nil {
			sub = f32s(t, s)
			per = len(want) / len(sub)
			if m, err := SubBlockScales(x, true); err == nil {
				subMin = f32s(t, m)
			}
		}
		var mins []float32
		if HasBlockMins(dt) {
			m, _ := BlockMins(x)
			mins = f32s(t, m)
		}
		bad := 0
		for i, w := range want {
			c := codes[i]
			var got float32
			switch {
			case sub != nil && subMin != nil:
				got = float32(sub[i/per]*c) - subMin[i/per]
			case sub != nil:
				got = sub[i/per] * c
			case dt == GGMLIQ4_NL:
				got = scales[i/32] * float32(ggmlValuesIQ4NL[int(c)])
			case mins != nil:
				got = float32(c*scales[i/32]) + mins[i/32]
			default:
				got = c * scales[i/dt.UnitElems()]
			}
			if math.Float32bits(got) != math.Float32bits(w) {
				if bad < 3 {
					t.Errorf("%s value %d: rebuilt %g, decoded %g (code %g)", dt, i, got, w, c)
				}
				bad++
			}
		}
	}
}

func TestBlockViewsRefuse(t *testing.T) {
	x := refTensor(t, GGMLIQ2_XXS)
	if _, err := BlockCodes(x); err == nil {
		t.Error("codes of a lattice type")
	}
	if _, err := BlockMins(x); err == nil {
		t.Error("minimums of a type without")
	}
	if _, err := SubBlockScales(x, false); err == nil {
		t.Error("sub-block scales of a non-K type")
	}
	row, _ := x.Slice(1, 32, 64)
	if _, err := BlockScales(row); err == nil {
		t.Error("scales of a view")
	}
	s, err := BlockScales(refTensor(t, GGMLIQ1_M))
	if err != nil || s.DType() != Float16 {
		t.Errorf("iq1_m scales: %v", err)
	}
}
