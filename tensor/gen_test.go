package tensor

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"
)

var numericDTypes = []DType{Bool, Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64,
	Float16, BFloat16, Float32, Float64}

// randomTensor returns a contiguous tensor of dt with n elements of
// adversarial data: ordinary values mixed with zeros of both signs, NaNs
// with various payloads, infinities, subnormals, extremes and random bit
// patterns. special is the share of special values.
func randomTensor(t testing.TB, rng *rand.Rand, dt DType, n int, special float64) *Tensor {
	t.Helper()
	size := dt.Size()
	b := make([]byte, n*size)
	le := binary.LittleEndian
	for i := range n {
		e := b[i*size:]
		sp := rng.Float64() < special
		switch dt {
		case Bool:
			e[0] = byte(rng.IntN(2))
			if sp {
				e[0] = byte(rng.IntN(256)) // any nonzero byte is true
			}
		case Int8, Uint8:
			e[0] = byte(rng.IntN(256))
		case Int16, Uint16:
			le.PutUint16(e, uint16(rng.Uint32()))
		case Int32, Uint32:
			le.PutUint32(e, rng.Uint32())
			if sp {
				le.PutUint32(e, []uint32{0, 1, math.MaxUint32, 1 << 31, math.MaxInt32}[rng.IntN(5)])
			}
		case Int64, Uint64:
			le.PutUint64(e, rng.Uint64())
			if sp {
				le.PutUint64(e, []uint64{0, 1, math.MaxUint64, 1 << 63, math.MaxInt64, 1 << 53, 1<<53 + 1}[rng.IntN(7)])
			} else if rng.IntN(2) == 0 {
				le.PutUint64(e, uint64(rng.Int64N(1<<40)-1<<39))
			}
		case Float16:
			h := Float32ToFloat16(float32(rng.NormFloat64() * 10))
			if sp {
				specials := []uint16{0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
					0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, uint16(rng.Uint32())}
				h = specials[rng.IntN(len(specials))]
			}
			le.PutUint16(e, h)
		case BFloat16:
			h := Float32ToBFloat16(float32(rng.NormFloat64() * 1e3))
			if sp {
				specials := []uint16{0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f,
					0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, uint16(rng.Uint32())}
				h = specials[rng.IntN(len(specials))]
			}
			le.PutUint16(e, h)
		case Float32:
			f := float32(rng.NormFloat64()*3 + 1)
			if sp {
				specials := []float32{0, float32(math.Copysign(0, -1)), math.MaxFloat32, -math.MaxFloat32,
					math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1.1754942e-38,
					float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
					math.Float32frombits(0x7f800001), math.Float32frombits(0xffc00123),
					math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32() & 0x807fffff)}
				f = specials[rng.IntN(len(specials))]
			}
			le.PutUint32(e, math.Float32bits(f))
		case Float64:
			f := rng.NormFloat64()*1e6 + 12345
			if sp {
				specials := []float64{0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, 1e300, -3e307,
					math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
					math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff0000000000001),
					math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64() & 0x800fffffffffffff)}
				f = specials[rng.IntN(len(specials))]
			}
			le.PutUint64(e, math.Float64bits(f))
		default:
			t.Fatalf("randomTensor: %s", dt)
		}
	}
	x, err := FromBytes(b, dt, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// refStats is the slow reference: exact sums in big.Float, then float64.
// prec must make sums of the values exact: 2400 bits covers any float64s,
// 400 any float32s or 64-bit integers.
func refStats(vals []float64) Stats { return refStatsPrec(vals, 2400) }

func refStatsPrec(vals []float64, prec uint) Stats {
	var s Stats
	var finite []float64
	for _, v := range vals {
		s.Count++
		switch {
		case v != v:
			s.NaN++
		case math.IsInf(v, 1):
			s.PosInf++
		case math.IsInf(v, -1):
			s.NegInf++
		default:
			finite = append(finite, v)
			if v == 0 {
				s.Zeros++
			}
		}
	}
	s.Finite = int64(len(finite))
	if len(finite) == 0 {
		nan := math.NaN()
		s.Min, s.Max, s.Mean, s.Std, s.AbsMax = nan, nan, nan, nan, nan
		return s
	}
	sum := new(big.Float).SetPrec(prec)
	s.Min, s.Max = finite[0], finite[0]
	for _, v := range finite {
		sum.Add(sum, big.NewFloat(v))
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	n := big.NewFloat(float64(len(finite))).SetPrec(prec)
	mean := new(big.Float).SetPrec(prec).Quo(sum, n)
	mean.SetPrec(128) // deviations from a 128-bit mean are exact enough and cheaper
	m2 := new(big.Float).SetPrec(prec)
	d := new(big.Float).SetPrec(prec)
	for _, v := range finite {
		d.Sub(big.NewFloat(v), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	s.Mean, _ = mean.Float64()
	std := new(big.Float).SetPrec(prec).Quo(m2, n)
	s.Std, _ = std.Sqrt(std).Float64()
	s.AbsMax = max(math.Abs(s.Min), math.Abs(s.Max))
	return s
}

// closeRel reports whether got is within rel of want, relative to scale.
func closeRel(got, want, rel, scale float64) bool {
	if want != want || got != got {
		return want != want && got != got
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= rel*scale
}

// exactPercentile is NumPy's default (linear) percentile of sorted values.
func exactPercentile(sorted []float64, p float64) float64 {
	r := p / 100 * float64(len(sorted)-1)
	k := int(math.Floor(r))
	if k+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[k] + (r-float64(k))*(sorted[k+1]-sorted[k])
}

func finiteSorted(vals []float64) []float64 {
	var out []float64
	for _, v := range vals {
		if v-v == 0 {
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}
