package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// ToFloat32 returns the values of t as a new contiguous row-major float32
// tensor in a fresh heap Storage: packed elements dequantised, narrow
// floats widened exactly, big-endian values swapped, complex magnitudes
// computed, NaT as NaN; wider values (float64, 32- and 64-bit integers,
// counts of time) rounded to nearest. It is how a writer turns any numeric
// view into bytes for a format that cannot hold the type (.npy of a q4_k
// weight, say). It runs in parallel and stops when ctx is cancelled.
func (t *Tensor) ToFloat32(ctx context.Context) (*Tensor, error) {
	if err := checkNumeric(t, "ToFloat32"); err != nil {
		return nil, err
	}
	l := newLayout(t, false)
	if l.n > math.MaxInt/4 {
		return nil, fmt.Errorf("ToFloat32 of %s: too large", t)
	}
	out := make([]byte, 4*l.n)
	plan := planChunks(l.n)
	err := parallel(ctx, plan.count, func() func(int) error {
		var dst []byte // where the next value goes
		reader := newBlockReader(&l, newValueDecoder(t), statsBlock,
			func(x []float32) {
				for i, v := range x {
					binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
				}
				dst = dst[4*len(x):]
			},
			func(x []float64) {
				for i, v := range x {
					binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(float32(v)))
				}
				dst = dst[4*len(x):]
			})
		return func(c int) error {
			lo, hi := plan.bounds(c)
			t.prefault(&l, lo, hi)
			defer t.release(&l, lo, hi)
			return steps(ctx, lo, hi, nil, func(lo, hi int64) {
				dst = out[4*lo : 4*hi]
				reader.read(lo, hi)
			})
		}
	})
	if err != nil {
		return nil, err
	}
	return FromBytes(out, Float32, t.shape)
}
