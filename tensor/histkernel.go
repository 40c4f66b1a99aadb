package tensor

import "math"

// histAcc is one worker's histogram: counts go to four interleaved uint32
// lanes (so that runs of equal values do not serialise on one counter) and
// are flushed to the int64 totals before they could overflow. Beyond
// fourLaneBins bins the four lanes are one (the memory matters more).
type histAcc struct {
	h              *Histogram // totals
	l0, l1, l2, l3 []uint32
	pending        int64
	lo, s          float64
	nb             float64
}

const (
	histFlushAt  = 1 << 31
	fourLaneBins = 1 << 16
)

func newHistAcc(h *Histogram) *histAcc {
	bins := len(h.Counts)
	a := &histAcc{h: newHistogram(bins, h.Lo, h.Hi), lo: h.Lo, s: h.scale, nb: float64(bins)}
	if bins <= fourLaneBins {
		lanes := make([]uint32, 4*bins)
		a.l0, a.l1, a.l2, a.l3 = lanes[:bins], lanes[bins:2*bins], lanes[2*bins:3*bins], lanes[3*bins:]
	} else {
		a.l0 = make([]uint32, bins)
		a.l1, a.l2, a.l3 = a.l0, a.l0, a.l0
	}
	return a
}

func (a *histAcc) flush() {
	if &a.l1[0] == &a.l0[0] {
		for i, c := range a.l0 {
			a.h.Counts[i] += int64(c)
		}
		clear(a.l0)
	} else {
		l0 := a.l0
		l1, l2, l3 := a.l1[:len(l0)], a.l2[:len(l0)], a.l3[:len(l0)]
		for i := range l0 {
			a.h.Counts[i] += int64(l0[i]) + int64(l1[i]) + int64(l2[i]) + int64(l3[i])
		}
		clear(l0)
		clear(l1)
		clear(l2)
		clear(l3)
	}
	a.pending = 0
}

// slow counts one value the fast loop could not place.
//
//go:noinline
func (a *histAcc) slow(v float64) {
	h := a.h
	switch b := h.Bin(v); {
	case v != v:
		h.NaN++
	case v > math.MaxFloat64:
		h.PosInf++
	case v < -math.MaxFloat64:
		h.NegInf++
	case b < 0:
		h.Below++
	case b >= len(h.Counts):
		h.Above++
	default:
		h.Counts[b]++
	}
}

func (a *histAcc) addF32(x []float32) {
	if a.pending+int64(len(x)) >= histFlushAt {
		a.flush()
	}
	a.pending += int64(len(x))
	if a.h.pre != 1 {
		for _, v := range x {
			a.slow(float64(v))
		}
		return
	}
	l0, l1, l2, l3 := a.l0, a.l1, a.l2, a.l3
	lo, s, nb := a.lo, a.s, a.nb
	for len(x) >= 4 {
		t0 := (float64(x[0]) - lo) * s
		t1 := (float64(x[1]) - lo) * s
		t2 := (float64(x[2]) - lo) * s
		t3 := (float64(x[3]) - lo) * s
		if t0 >= 0 && t0 < nb {
			l0[int(t0)]++
		} else {
			a.slow(float64(x[0]))
		}
		if t1 >= 0 && t1 < nb {
			l1[int(t1)]++
		} else {
			a.slow(float64(x[1]))
		}
		if t2 >= 0 && t2 < nb {
			l2[int(t2)]++
		} else {
			a.slow(float64(x[2]))
		}
		if t3 >= 0 && t3 < nb {
			l3[int(t3)]++
		} else {
			a.slow(float64(x[3]))
		}
		x = x[4:]
	}
	for _, v := range x {
		if t := (float64(v) - lo) * s; t >= 0 && t < nb {
			l0[int(t)]++
		} else {
			a.slow(float64(v))
		}
	}
}

func (a *histAcc) addF64(x []float64) {
	if a.pending+int64(len(x)) >= histFlushAt {
		a.flush()
	}
	a.pending += int64(len(x))
	if a.h.pre != 1 {
		for _, v := range x {
			a.slow(v)
		}
		return
	}
	l0, l1 := a.l0, a.l1
	lo, s, nb := a.lo, a.s, a.nb
	for len(x) >= 2 {
		t0 := (x[0] - lo) * s
		t1 := (x[1] - lo) * s
		if t0 >= 0 && t0 < nb {
			l0[int(t0)]++
		} else {
			a.slow(x[0])
		}
		if t1 >= 0 && t1 < nb {
			l1[int(t1)]++
		} else {
			a.slow(x[1])
		}
		x = x[2:]
	}
	for _, v := range x {
		if t := (v - lo) * s; t >= 0 && t < nb {
			l0[int(t)]++
		} else {
			a.slow(v)
		}
	}
}
