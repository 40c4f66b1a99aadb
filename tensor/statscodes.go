package tensor

import (
	"context"
	"encoding/binary"
	"math"
	"sync"
	"unsafe"
)

// Statistics of narrow dtypes by counting bit patterns. An element of
// float16, bfloat16, a 16- or 8-bit integer, bool or float8 is one of at
// most 65,536 patterns: each chunk counts its elements per pattern, in a
// table that stays in L2 cache, and the statistics come from the table,
// with each pattern's value decoded once. Counting is a load and an
// increment per element, where the float loop converts each element and
// keeps six sums; and the moments come out as exact two-pass sums over the
// table.

// codeStatsMin is the size from which counting pays for folding the
// table (65,536 entries) once per chunk.
const codeStatsMin = 1 << 20

// codeWidth is the bytes per element that statistics can count as
// patterns, 0 when they cannot (wider or packed dtypes, complex parts).
func codeWidth(t *Tensor) int {
	if t.magnitude != Invalid {
		return 0
	}
	switch t.dtype {
	case Float16, BFloat16, Int16, Uint16:
		return 2
	case Bool, Int8, Uint8, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU:
		return 1
	}
	return 0
}

var codeValueTables sync.Map // DType → []float64

// codeValues returns the value of every pattern of dt, indexed by the
// pattern read little-endian, decoded by the same decode32 as every other
// kernel.
func codeValues(dt DType, width int) []float64 {
	if v, ok := codeValueTables.Load(dt); ok {
		return v.([]float64)
	}
	n := 1 << (8 * width)
	raw := make([]byte, n*width)
	for c := range n {
		if width == 2 {
			binary.LittleEndian.PutUint16(raw[2*c:], uint16(c))
		} else {
			raw[c] = byte(c)
		}
	}
	f := make([]float32, n)
	decode32(dt, raw, 0, width, f)
	vals := make([]float64, n)
	for i, v := range f {
		vals[i] = float64(v)
	}
	codeValueTables.Store(dt, vals)
	return vals
}

// codeCounter is one goroutine's pattern table.
type codeCounter struct {
	l       *layout
	width   int
	swapped bool // big-endian 16-bit elements
	counts  []uint32
	pending int64 // elements counted since the last fold
	vals    []float64
}

// countFoldAt bounds the elements counted between folds, so that no
// uint32 count can overflow however large a chunk is.
const countFoldAt = 1 << 31

func (c *codeCounter) count(off, n int) {
	data, stride, counts := c.l.data, c.l.istride, c.counts
	switch {
	case c.width == 1:
		for i := range n {
			counts[data[off+i*stride]]++
		}
	case stride == 2 && !c.swapped && hostLittleEndian && n > 0 && uintptr(unsafe.Pointer(&data[off]))%2 == 0:
		_ = data[off+2*n-1]
		for _, h := range unsafe.Slice((*uint16)(unsafe.Pointer(&data[off])), n) {
			counts[h]++
		}
	case c.swapped:
		for i := range n {
			counts[binary.BigEndian.Uint16(data[off+i*stride:])]++
		}
	default:
		for i := range n {
			counts[binary.LittleEndian.Uint16(data[off+i*stride:])]++
		}
	}
	c.pending += int64(n)
}

// fold adds the table's statistics to a and empties the table.
func (c *codeCounter) fold(a *statsAcc) {
	if c.pending == 0 {
		return
	}
	var n int64
	var sum float64
	mn, mx := math.Inf(1), math.Inf(-1)
	for code, k := range c.counts {
		if k == 0 {
			continue
		}
		v := c.vals[code]
		switch {
		case v != v:
			a.nan += int64(k)
		case math.IsInf(v, 1):
			a.pinf += int64(k)
		case math.IsInf(v, -1):
			a.ninf += int64(k)
		default:
			n += int64(k)
			sum += float64(k) * v
			mn, mx = min(mn, v), max(mx, v)
			if v == 0 {
				a.zeros += int64(k)
			}
		}
	}
	if n > 0 {
		// Second pass: deviations from the first pass's mean, and the
		// mean's own rounding as their average.
		mean := sum / float64(n)
		var sd, sq float64
		for code, k := range c.counts {
			if v := c.vals[code]; k != 0 && v-v == 0 {
				d := v - mean
				sd += float64(k) * d
				sq += float64(k) * d * d
			}
		}
		off := sd / float64(n)
		a.mergeExtremes(mn, mx)
		a.mergeMoments(n, mean, off, max(sq-sd*off, 0), 0)
	}
	clear(c.counts)
	c.pending = 0
}

// codeStats is computeStats for the dtypes codeWidth accepts.
func codeStats(ctx context.Context, t *Tensor, l *layout, width int, meter *progressMeter) (Stats, error) {
	plan := planChunks(l.n)
	parts := make([]statsAcc, plan.count)
	vals := codeValues(t.dtype, width)
	err := parallel(ctx, plan.count, func() func(int) error {
		c := &codeCounter{l: l, width: width, swapped: t.bigEndian && width == 2,
			counts: make([]uint32, len(vals)), vals: vals}
		return func(ch int) error {
			lo, hi := plan.bounds(ch)
			release, err := t.page(ctx, l, lo, hi)
			if err != nil {
				return err
			}
			defer release()
			t.prefault(l, lo, hi)
			defer t.release(l, lo, hi)
			err = steps(ctx, lo, hi, meter, func(lo, hi int64) {
				l.runs(lo, hi, c.count)
				if c.pending >= countFoldAt {
					c.fold(&parts[ch])
				}
			})
			c.fold(&parts[ch])
			return err
		}
	})
	if err != nil {
		return Stats{}, err
	}
	return mergeParts(parts), nil
}
