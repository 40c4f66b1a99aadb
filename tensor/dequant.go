package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Dequantize maps integer tensor t to a new contiguous float32 tensor of
// the same shape, value = (q − zeroPoint)·scale computed in float64 and
// rounded once to float32. scales and zeroPoints each have one entry for
// the whole tensor or one per index along axis (per channel); zeroPoints
// may also be empty (all zero). axis is ignored, and may be −1, when both
// have at most one entry.
func Dequantize(ctx context.Context, t *Tensor, scales []float64, zeroPoints []int64, axis int) (*Tensor, error) {
	if !t.dtype.IsInteger() {
		return nil, fmt.Errorf("dequantize %s: want an integer tensor", t)
	}
	return mapQuantised(ctx, t, "dequantize", scales, zeroPoints, axis, quantRound{})
}

// FakeQuantize maps float tensor t to the values a network computes from
// it when it quantises the tensor to integer type target at run time and
// dequantises it again (ONNX QuantizeLinear then DequantizeLinear on a
// float weight): q = round half to even of v/scale, plus the zero point,
// saturated to target's range; value = (q − zeroPoint)·scale, as float32.
// Parameters are as for Dequantize.
func FakeQuantize(ctx context.Context, t *Tensor, scales []float64, zeroPoints []int64, axis int, target DType) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		return nil, fmt.Errorf("fake-quantize %s: want a float tensor", t)
	}
	lo, hi, ok := integerRange(target)
	if !ok {
		return nil, fmt.Errorf("fake-quantize %s: %s is not an integer type", t, target)
	}
	return mapQuantised(ctx, t, "fake-quantize", scales, zeroPoints, axis, quantRound{on: true, lo: lo, hi: hi})
}

// quantRound is the rounding step of FakeQuantize; off for Dequantize.
type quantRound struct {
	on     bool
	lo, hi float64
}

// integerRange is the smallest and largest value of integer type dt.
func integerRange(dt DType) (lo, hi float64, ok bool) {
	if !dt.IsInteger() {
		return 0, 0, false
	}
	bits := dt.ElementBits()
	switch dt {
	case Int8, Int16, Int32, Int64, Int4, Int2:
		return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1, true
	}
	return 0, math.Ldexp(1, bits) - 1, true
}

// mapQuantised maps every value v of t, with the scale and zero point of
// its channel, to (q − zero)·scale, where q is v or, when r is on, v
// quantised.
func mapQuantised(ctx context.Context, t *Tensor, op string, scales []float64, zeroPoints []int64, axis int, r quantRound) (*Tensor, error) {
	if len(scales) == 0 {
		return nil, fmt.Errorf("%s %s: no scales", op, t)
	}
	channels, inner := 1, int64(1)
	if len(scales) > 1 || len(zeroPoints) > 1 {
		if axis < 0 || axis >= t.Rank() {
			return nil, fmt.Errorf("%s %s: %d scales and %d zero points need an axis in [0,%d), got %d",
				op, t, len(scales), len(zeroPoints), t.Rank(), axis)
		}
		channels = t.shape[axis]
		for _, d := range t.shape[axis+1:] {
			inner *= int64(d)
		}
	}
	if len(scales) != 1 && len(scales) != channels {
		return nil, fmt.Errorf("%s %s: %d scales for %d channels along axis %d", op, t, len(scales), channels, axis)
	}
	if len(zeroPoints) > 1 && len(zeroPoints) != channels {
		return nil, fmt.Errorf("%s %s: %d zero points for %d channels along axis %d", op, t, len(zeroPoints), channels, axis)
	}
	// Per-channel tables, broadcasting single entries.
	sc := make([]float64, channels)
	zp := make([]float64, channels)
	for c := range channels {
		sc[c] = scales[min(c, len(scales)-1)]
		if len(zeroPoints) > 0 {
			zp[c] = float64(zeroPoints[min(c, len(zeroPoints)-1)])
		}
	}

	l := newLayout(t, false)
	out := make([]byte, 4*l.n)
	plan := planChunks(l.n)
	err := parallel(ctx, plan.count, func() func(int) error {
		var pos int64 // row-major index of the next value delivered
		var ip int64  // position inside the current run of inner values
		ch := 0
		put := func(v, zero, scale float64) {
			if r.on {
				v = min(max(math.RoundToEven(v/scale)+zero, r.lo), r.hi)
			}
			binary.LittleEndian.PutUint32(out[4*pos:], math.Float32bits(float32((v-zero)*scale)))
			pos++
			if ip++; ip == inner {
				ip = 0
				if ch++; ch == channels {
					ch = 0
				}
			}
		}
		reader := newBlockReader(&l, newValueDecoder(t), statsBlock,
			func(x []float32) {
				for _, v := range x {
					put(float64(v), zp[ch], sc[ch])
				}
			},
			func(x []float64) {
				for _, v := range x {
					put(v, zp[ch], sc[ch])
				}
			})
		return func(c int) error {
			lo, hi := plan.bounds(c)
			t.prefault(&l, lo, hi)
			defer t.release(&l, lo, hi)
			return steps(ctx, lo, hi, nil, func(lo, hi int64) {
				pos, ip, ch = lo, lo%inner, int((lo/inner)%int64(channels))
				reader.read(lo, hi)
			})
		}
	})
	if err != nil {
		return nil, err
	}
	return FromBytes(out, Float32, t.shape)
}
