package tensor

import (
	"math"
	"testing"
)

// refNarrowValue decodes a narrow float pattern by each format's own
// definition, written out type by type (OCP 8-bit FP spec, OCP MX spec,
// ml_dtypes), independently of the table-driven decoder under test.
func refNarrowValue(dt DType, b uint8) float64 {
	sgn := 1.0
	switch dt {
	case Float8E8M0FNU:
		if b == 0xff {
			return math.NaN()
		}
		return math.Pow(2, float64(int(b)-127))
	case Float4E2M1FN:
		if b&0x8 != 0 {
			sgn = -1
		}
		return sgn * []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}[b&7]
	}
	type layout struct {
		e, m, bias int
	}
	lay := map[DType]layout{
		Float8E4M3FN: {4, 3, 7}, Float8E4M3FNUZ: {4, 3, 8}, Float8E5M2: {5, 2, 15}, Float8E5M2FNUZ: {5, 2, 16},
		Float6E2M3FN: {2, 3, 1}, Float6E3M2FN: {3, 2, 3},
	}[dt]
	width := 1 + lay.e + lay.m
	if b>>(width-1)&1 == 1 {
		sgn = -1
	}
	exp := int(b>>lay.m) & (1<<lay.e - 1)
	man := int(b) & (1<<lay.m - 1)
	switch dt {
	case Float8E4M3FN:
		if b&0x7f == 0x7f {
			return math.NaN()
		}
	case Float8E4M3FNUZ, Float8E5M2FNUZ:
		if b == 0x80 {
			return math.NaN()
		}
	case Float8E5M2:
		if exp == 31 {
			if man == 0 {
				return sgn * math.Inf(1)
			}
			return math.NaN()
		}
	}
	if exp == 0 {
		return sgn * float64(man) / float64(int(1)<<lay.m) * math.Pow(2, float64(1-lay.bias))
	}
	return sgn * (1 + float64(man)/float64(int(1)<<lay.m)) * math.Pow(2, float64(exp-lay.bias))
}

var narrowDTypes = []DType{Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU,
	Float4E2M1FN, Float6E2M3FN, Float6E3M2FN}

func narrowPatterns(dt DType) int {
	switch dt {
	case Float4E2M1FN:
		return 16
	case Float6E2M3FN, Float6E3M2FN:
		return 64
	}
	return 256
}

// TestNarrowFloatEveryPattern decodes every bit pattern of every narrow
// float and compares it with the reference formula.
func TestNarrowFloatEveryPattern(t *testing.T) {
	for _, dt := range narrowDTypes {
		for b := range narrowPatterns(dt) {
			got, want := float64(NarrowFloatValue(dt, uint8(b))), refNarrowValue(dt, uint8(b))
			if !sameFloat(got, want) {
				t.Errorf("%s 0x%02x = %v, want %v", dt, b, got, want)
			}
		}
	}
}
