package tensor

import (
	"math"
	"unsafe"
)

// The statistics loops. A block (at most statsBlock values, so that it
// stays in L1 cache) first goes through a fast loop that assumes every value
// is finite: it sums deviations from a centre s and their squares (4
// independent accumulators each), counts zeros branch-free and tracks the
// extremes with one well-predicted compare per value. A non-finite sum
// reveals NaN or ±Inf; the block is then redone by the slow loop, which
// classifies every value. Nothing is committed to the accumulator until a
// loop succeeds.

const statsBlock = 4096

// addF32 accumulates a block of float32 values; tmp must hold len(x).
func (a *statsAcc) addF32(x []float32, tmp []float32) {
	if len(x) == 0 {
		return
	}
	if simdStats && a.fastF32Vector(x) || !simdStats && a.fastF32(x) {
		return
	}
	a.slowF32(x, tmp)
}

func (a *statsAcc) fastF32(x []float32) bool {
	n := len(x)
	block := x
	var e extremes
	if a.n > 0 {
		e = newExtremes(a.mn, a.mx)
	} else {
		v := float64(x[0])
		if v-v != 0 {
			return false
		}
		e = newExtremes(v, v)
	}
	entry, entryNearZero := e, e.nearZero()
	s, th := e.s, e.th
	tiny := uint64(math.Float32bits(e.tiny)) << 1
	var sd0, sd1, sd2, sd3, sq0, sq1, sq2, sq3 float64
	var zeros, tinies uint64
	u := unsafe.Slice((*uint32)(unsafe.Pointer(&x[0])), n)
	for len(x) >= 4 && len(u) >= 4 {
		d0 := float64(x[0]) - s
		d1 := float64(x[1]) - s
		d2 := float64(x[2]) - s
		d3 := float64(x[3]) - s
		sd0 += d0
		sd1 += d1
		sd2 += d2
		sd3 += d3
		e0, e1, e2, e3 := d0*d0, d1*d1, d2*d2, d3*d3
		sq0 += e0
		sq1 += e1
		sq2 += e2
		sq3 += e3
		if e0 > th {
			th = e.see(float64(x[0]))
		}
		if e1 > th {
			th = e.see(float64(x[1]))
		}
		if e2 > th {
			th = e.see(float64(x[2]))
		}
		if e3 > th {
			th = e.see(float64(x[3]))
		}
		// w = |bits|·2; w−1 wraps to all ones exactly for ±0, and w−tiny
		// is negative exactly for |v| < tiny.
		w0, w1, w2, w3 := uint64(u[0]<<1), uint64(u[1]<<1), uint64(u[2]<<1), uint64(u[3]<<1)
		zeros += (w0-1)>>63 + (w1-1)>>63 + (w2-1)>>63 + (w3-1)>>63
		tinies += (w0-tiny)>>63 + (w1-tiny)>>63 + (w2-tiny)>>63 + (w3-tiny)>>63
		x, u = x[4:], u[4:]
	}
	for i := 0; i < len(x) && i < len(u); i++ {
		d := float64(x[i]) - s
		sd0 += d
		sq0 += d * d
		if d*d > th {
			th = e.see(float64(x[i]))
		}
		w := uint64(u[i] << 1)
		zeros += (w - 1) >> 63
		tinies += (w - tiny) >> 63
	}
	sd := (sd0 + sd1) + (sd2 + sd3)
	if sd-sd != 0 {
		return false
	}
	if tinies > zeros || (entryNearZero && tinies > 0) {
		e = entry
		for _, v := range block {
			e.mn = min(e.mn, float64(v))
			e.mx = max(e.mx, float64(v))
		}
	}
	sq := (sq0 + sq1) + (sq2 + sq3)
	commitFast(a, block, s, sd, sq, int64(zeros), e.mn, e.mx)
	return true
}

// commitFast turns a fast loop's sums of deviations from s into the block's
// moments, falling back to an exact two-pass loop when cancellation ate too
// many bits, and merges them.
func commitFast[T float32 | float64](a *statsAcc, block []T, s, sd, sq float64, zeros int64, mn, mx float64) {
	n := float64(len(block))
	off := sd / n
	m2 := max(sq-sd*off, 0)
	if n*off*off > redoThreshold*m2 {
		off, m2 = twoPass(block, 1, s)
	}
	a.zeros += zeros
	a.mergeExtremes(mn, mx)
	a.mergeMoments(int64(len(block)), s, off, m2, 0)
}

// addF64 accumulates a block of float64 values; tmp must hold len(x).
func (a *statsAcc) addF64(x []float64, tmp []float64) {
	if len(x) == 0 || a.fastF64(x) {
		return
	}
	slowStats(a, x, tmp)
}

// fastF64 tracks the extremes with two plain compares: float64 deviations
// round, so the single-compare trick of the float32 loop would not be
// exact here.
func (a *statsAcc) fastF64(x []float64) bool {
	n := len(x)
	block := x
	var mn, mx float64
	if a.n > 0 {
		mn, mx = a.mn, a.mx
	} else {
		mn, mx = x[0], x[0]
		if mn-mn != 0 {
			return false
		}
	}
	s := mn + (mx-mn)/2
	var sd0, sd1, sd2, sd3, sq0, sq1, sq2, sq3 float64
	var z uint64
	u := unsafe.Slice((*uint64)(unsafe.Pointer(&x[0])), n)
	for len(x) >= 4 && len(u) >= 4 {
		v0, v1, v2, v3 := x[0], x[1], x[2], x[3]
		d0, d1, d2, d3 := v0-s, v1-s, v2-s, v3-s
		sd0 += d0
		sd1 += d1
		sd2 += d2
		sd3 += d3
		sq0 += d0 * d0
		sq1 += d1 * d1
		sq2 += d2 * d2
		sq3 += d3 * d3
		if v0 < mn {
			mn = v0
		}
		if v0 > mx {
			mx = v0
		}
		if v1 < mn {
			mn = v1
		}
		if v1 > mx {
			mx = v1
		}
		if v2 < mn {
			mn = v2
		}
		if v2 > mx {
			mx = v2
		}
		if v3 < mn {
			mn = v3
		}
		if v3 > mx {
			mx = v3
		}
		z += isZero64(u[0]) + isZero64(u[1]) + isZero64(u[2]) + isZero64(u[3])
		x, u = x[4:], u[4:]
	}
	for i := 0; i < len(x) && i < len(u); i++ {
		v := x[i]
		d := v - s
		sd0 += d
		sq0 += d * d
		mn = min(mn, v)
		mx = max(mx, v)
		z += isZero64(u[i])
	}
	sd := (sd0 + sd1) + (sd2 + sd3)
	if sd-sd != 0 || mn != mn || scaleFor(max(-mn, mx)) != 0 {
		return false
	}
	sq := (sq0 + sq1) + (sq2 + sq3)
	commitFast(a, block, s, sd, sq, int64(z), mn, mx)
	return true
}

// isZero64 is 1 for the bits of ±0 and 0 otherwise, without a branch.
func isZero64(b uint64) uint64 {
	w := b << 1
	return ((w | -w) >> 63) ^ 1
}

// slowStats classifies every value, then accumulates the finite ones
// (collected in tmp) with an exact two-pass loop, scaled when they are huge.
func slowStats[T float32 | float64](a *statsAcc, x, tmp []T) {
	k := 0
	for _, v := range x {
		f := float64(v)
		switch {
		case f != f:
			a.nan++
		case f > math.MaxFloat64:
			a.pinf++
		case f < -math.MaxFloat64:
			a.ninf++
		default:
			tmp[k] = v
			k++
		}
	}
	if k == 0 {
		return
	}
	y := tmp[:k]
	mn, mx := float64(y[0]), float64(y[0])
	for _, v := range y {
		f := float64(v)
		mn = min(mn, f)
		mx = max(mx, f)
		if f == 0 {
			a.zeros++
		}
	}
	exp := scaleFor(max(-mn, mx))
	scale := math.Ldexp(1, exp)
	ref := float64(y[0]) * scale
	off, m2 := twoPass(y, scale, ref)
	a.mergeExtremes(mn, mx)
	a.mergeMoments(int64(k), ref, off, m2, exp)
}

func (a *statsAcc) slowF32(x, tmp []float32) { slowStats(a, x, tmp) }

// twoPass returns the mean of x·scale, as an offset from ref, and M2: the
// mean first, then the squared deviations from it, corrected by the (tiny)
// sum of deviations.
func twoPass[T float32 | float64](x []T, scale, ref float64) (off, m2 float64) {
	n := float64(len(x))
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		s0 += float64(x[i])*scale - ref
		s1 += float64(x[i+1])*scale - ref
	}
	if i < len(x) {
		s0 += float64(x[i])*scale - ref
	}
	off = (s0 + s1) / n
	var q0, q1, c0, c1 float64
	for i = 0; i+2 <= len(x); i += 2 {
		d0 := (float64(x[i])*scale - ref) - off
		d1 := (float64(x[i+1])*scale - ref) - off
		q0 += d0 * d0
		q1 += d1 * d1
		c0 += d0
		c1 += d1
	}
	if i < len(x) {
		d := (float64(x[i])*scale - ref) - off
		q0 += d * d
		c0 += d
	}
	c := c0 + c1
	return off + c/n, max(q0+q1-c*c/n, 0)
}
