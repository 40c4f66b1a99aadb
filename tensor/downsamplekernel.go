package tensor

import (
	"math"
	"unsafe"
)

// cellAcc accumulates one cell. sum collects values below hugeValue in
// magnitude and hsum the others times 2^-scaleShift, so that a mean of
// float64 values near the top of the range cannot overflow. ext is the
// running minimum, maximum or largest magnitude.
type cellAcc struct {
	sum, hsum, ext  float64
	n               int64
	nan, pinf, ninf int64
}

func (c *cellAcc) reset(r Reduction) {
	*c = cellAcc{}
	switch r {
	case ReduceMin:
		c.ext = math.Inf(1)
	case ReduceMax:
		c.ext = math.Inf(-1)
	case ReduceAbsMax:
		c.ext = -1
	}
}

func (c *cellAcc) value(r Reduction) float64 {
	if c.n == 0 {
		return math.NaN()
	}
	if r != ReduceMean {
		return c.ext
	}
	if c.hsum == 0 {
		return c.sum / float64(c.n)
	}
	return math.Ldexp((math.Ldexp(c.sum, -scaleShift)+c.hsum)/float64(c.n), scaleShift)
}

// see adds one value of any kind.
func (c *cellAcc) see(v float64, r Reduction) {
	switch {
	case v != v:
		c.nan++
		return
	case v > math.MaxFloat64:
		c.pinf++
		return
	case v < -math.MaxFloat64:
		c.ninf++
		return
	}
	c.n++
	switch r {
	case ReduceMean:
		if math.Abs(v) >= hugeValue {
			c.hsum += v * math.Ldexp(1, -scaleShift)
		} else {
			c.sum += v
		}
	case ReduceMin:
		c.ext = min(c.ext, v)
	case ReduceMax:
		c.ext = max(c.ext, v)
	case ReduceAbsMax:
		c.ext = max(c.ext, math.Abs(v))
	}
}

// reduceRow folds values of one source row into its cells, colStep values
// per cell: row holds the columns from col0 on, counted from the first
// column of cells[0]. Each segment goes through a tight loop that assumes
// finite values (a non-finite sum says otherwise) and is redone value by
// value if not.
func reduceRow[T float32 | float64](row []T, col0 int, cells []cellAcc, colStep int, r Reduction, absMax func([]T) float64) {
	if colStep == 1 {
		cells = cells[col0:]
		for j, v := range row {
			cells[j].see(float64(v), r)
		}
		return
	}
	j := col0 / colStep
	for pos := 0; pos < len(row); j++ {
		end := min((j+1)*colStep-col0, len(row))
		seg := row[pos:end]
		pos = end
		c := &cells[j]
		// s is finite exactly when every value is (for the mean: and, below
		// 2^960, when none is so huge that the cell's sum could overflow;
		// float32 values never are).
		var s, ext float64
		switch r {
		case ReduceMean:
			s = sumSeg(seg)
			if math.Abs(s) >= 0x1p960 {
				s = math.NaN()
			}
		case ReduceMin:
			s, ext = minSeg(seg)
		case ReduceMax:
			s, ext = maxSeg(seg)
		case ReduceAbsMax:
			ext = absMax(seg)
			s = ext
		}
		if s-s != 0 {
			for _, v := range seg {
				c.see(float64(v), r)
			}
			continue
		}
		c.n += int64(len(seg))
		switch r {
		case ReduceMean:
			c.sum += s
		case ReduceMin:
			c.ext = min(c.ext, ext)
		case ReduceMax, ReduceAbsMax:
			c.ext = max(c.ext, ext)
		}
	}
}

func sumSeg[T float32 | float64](x []T) float64 {
	var s0, s1, s2, s3 float64
	for len(x) >= 4 {
		s0 += float64(x[0])
		s1 += float64(x[1])
		s2 += float64(x[2])
		s3 += float64(x[3])
		x = x[4:]
	}
	for _, v := range x {
		s0 += float64(v)
	}
	return (s0 + s1) + (s2 + s3)
}

// minSeg returns the sum (finite exactly when every value is) and the
// minimum. Segments are short and the data arbitrary, so new extremes are
// common: the builtin min compiles to branch-free MINSS/MINSD where an if
// would mispredict.
func minSeg[T float32 | float64](x []T) (float64, float64) {
	var s0, s1 float64
	m0, m1 := x[0], x[0]
	for len(x) >= 2 {
		v0, v1 := x[0], x[1]
		s0 += float64(v0)
		s1 += float64(v1)
		m0 = min(m0, v0)
		m1 = min(m1, v1)
		x = x[2:]
	}
	for _, v := range x {
		s0 += float64(v)
		m0 = min(m0, v)
	}
	return s0 + s1, float64(min(m0, m1))
}

func maxSeg[T float32 | float64](x []T) (float64, float64) {
	var s0, s1 float64
	m0, m1 := x[0], x[0]
	for len(x) >= 2 {
		v0, v1 := x[0], x[1]
		s0 += float64(v0)
		s1 += float64(v1)
		m0 = max(m0, v0)
		m1 = max(m1, v1)
		x = x[2:]
	}
	for _, v := range x {
		s0 += float64(v)
		m0 = max(m0, v)
	}
	return s0 + s1, float64(max(m0, m1))
}

// absMaxSeg32 returns the largest magnitude. The magnitude bits of IEEE
// floats order like the magnitudes, so this is an integer max (a branch-free
// CMOV); a result with an all-ones exponent means a NaN or ±Inf was there.
func absMaxSeg32(x []float32) float64 {
	u := unsafe.Slice((*uint32)(unsafe.Pointer(&x[0])), len(x))
	var m0, m1 uint32
	for len(u) >= 2 {
		m0 = max(m0, u[0]&0x7fffffff)
		m1 = max(m1, u[1]&0x7fffffff)
		u = u[2:]
	}
	for _, b := range u {
		m0 = max(m0, b&0x7fffffff)
	}
	return float64(math.Float32frombits(max(m0, m1)))
}

func absMaxSeg64(x []float64) float64 {
	u := unsafe.Slice((*uint64)(unsafe.Pointer(&x[0])), len(x))
	var m0, m1 uint64
	for len(u) >= 2 {
		m0 = max(m0, u[0]&^(1<<63))
		m1 = max(m1, u[1]&^(1<<63))
		u = u[2:]
	}
	for _, b := range u {
		m0 = max(m0, b&^(1<<63))
	}
	return math.Float64frombits(max(m0, m1))
}
