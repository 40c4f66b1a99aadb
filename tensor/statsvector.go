package tensor

import "math"

// vectorSums is what the SIMD statistics loop (statsvector_amd64.s)
// leaves: lane-wise sums of deviations from the centre and of their
// squares, lane-wise extremes, and the count of zeros.
type vectorSums struct {
	sd, sq [4]float64
	mn, mx [8]float32
	zeros  int64
}

// vectorBlock is how many values the SIMD loop takes per step; it leaves
// the rest of a block to the scalar tail.
const vectorBlock = 16

// fastF32Vector is fastF32 for CPUs with a SIMD loop: the loop takes the
// extremes with vector min/max instead of the scalar loop's one-compare
// trick, so it needs no bookkeeping of values near zero.
func (a *statsAcc) fastF32Vector(x []float32) bool {
	s := float64(x[0])
	if a.n > 0 {
		s = float64(float32(a.mn + (a.mx-a.mn)/2))
	}
	if s-s != 0 {
		return false
	}
	var v vectorSums
	body := len(x) / vectorBlock * vectorBlock
	if body > 0 {
		sumsSIMD(x[:body], s, &v)
	} else {
		v.identities()
	}
	sd := (v.sd[0] + v.sd[1]) + (v.sd[2] + v.sd[3])
	sq := (v.sq[0] + v.sq[1]) + (v.sq[2] + v.sq[3])
	mn, mx := v.extremes()
	zeros := v.zeros
	for _, f := range x[body:] {
		d := float64(f) - s
		sd += d
		sq += d * d
		mn, mx = min(mn, f), max(mx, f)
		if f == 0 {
			zeros++
		}
	}
	if sd-sd != 0 {
		return false // NaN or ±Inf: the slow loop classifies them
	}
	commitFast(a, x, s, sd, sq, zeros, float64(mn), float64(mx))
	return true
}

// extremes folds the lanes' extremes.
func (v *vectorSums) extremes() (mn, mx float32) {
	mn, mx = v.mn[0], v.mx[0]
	for i := 1; i < len(v.mn); i++ {
		mn, mx = min(mn, v.mn[i]), max(mx, v.mx[i])
	}
	return mn, mx
}

// identities sets the sums and extremes of no values.
func (v *vectorSums) identities() {
	*v = vectorSums{}
	for i := range v.mn {
		v.mn[i], v.mx[i] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
}

// sumsPortable is the SIMD loop written in Go, lane for lane: the
// reference the tests hold the assembly to.
func sumsPortable(x []float32, s float64, v *vectorSums) {
	v.identities()
	var sd, sq [4][4]float64 // accumulator (four values apart), lane
	for ; len(x) >= vectorBlock; x = x[vectorBlock:] {
		for i, f := range x[:vectorBlock] {
			v.mn[i%8], v.mx[i%8] = min(v.mn[i%8], f), max(v.mx[i%8], f)
			if f == 0 {
				v.zeros++
			}
			d := float64(f) - s
			sd[i/4][i%4] += d
			sq[i/4][i%4] += d * d
		}
	}
	for lane := range 4 {
		v.sd[lane] = (sd[0][lane] + sd[1][lane]) + (sd[2][lane] + sd[3][lane])
		v.sq[lane] = (sq[0][lane] + sq[1][lane]) + (sq[2][lane] + sq[3][lane])
	}
}
