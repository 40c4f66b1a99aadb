package tensor

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"unsafe"
)

// Reduction selects how Downsample combines the finite values of a cell.
type Reduction uint8

const (
	ReduceMean Reduction = iota
	ReduceMin
	ReduceMax
	ReduceAbsMax // largest magnitude, |v|
)

func (r Reduction) String() string {
	switch r {
	case ReduceMean:
		return "mean"
	case ReduceMin:
		return "min"
	case ReduceMax:
		return "max"
	case ReduceAbsMax:
		return "absmax"
	}
	return fmt.Sprintf("Reduction(%d)", uint8(r))
}

// Grid is a downsampled plane: cell (r, c) covers source rows
// [r·RowStep, (r+1)·RowStep) and columns [c·ColStep, (c+1)·ColStep),
// clipped to SrcRows×SrcCols (the last row and column of cells may be
// narrower).
type Grid struct {
	Rows, Cols int
	// Values holds the reduction of each cell's finite values, row-major;
	// NaN where a cell has none.
	Values []float64
	// NaN, PosInf and NegInf count the non-finite values of each cell,
	// row-major, so that a heatmap can mark such cells; each is nil when
	// the plane has no value of that kind.
	NaN, PosInf, NegInf []int64
	RowStep, ColStep    int
	SrcRows, SrcCols    int
	Reduction           Reduction
}

// At returns the value of cell (r, c).
func (g *Grid) At(r, c int) float64 { return g.Values[r*g.Cols+c] }

// Downsample reduces a 2-D plane (see Plane) to at most maxRows×maxCols
// cells: RowStep = ⌈rows/maxRows⌉ source rows and ColStep = ⌈cols/maxCols⌉
// source columns per cell. A plane that fits is returned one cell per
// element. Every element is read exactly once, in storage order where the
// layout allows; memory used is proportional to the grid, not the plane.
func Downsample(ctx context.Context, plane *Tensor, maxRows, maxCols int, r Reduction, progress ProgressFunc) (*Grid, error) {
	if err := checkNumeric(plane, "downsample"); err != nil {
		return nil, err
	}
	if plane.Rank() != 2 {
		return nil, fmt.Errorf("downsample of %s: need a 2-D plane", plane)
	}
	if maxRows < 1 || maxCols < 1 {
		return nil, fmt.Errorf("downsample of %s: grid of at most %d×%d cells", plane, maxRows, maxCols)
	}
	if r > ReduceAbsMax {
		return nil, fmt.Errorf("downsample of %s: unknown %v", plane, r)
	}
	rows, cols := plane.shape[0], plane.shape[1]
	rs, cs := plane.strides[0], plane.strides[1]
	meter := newProgressMeter(progress, int64(rows)*int64(cols))
	// Walk the plane along its smaller stride: for a transposed plane,
	// downsample the transpose and transpose the (small) result.
	if rs < cs && rows > 1 && cols > 1 {
		tr := plane.derive([]int{cols, rows}, []int{cs, rs}, plane.offset)
		g, err := downsample(ctx, tr, maxCols, maxRows, r, meter)
		if err != nil {
			return nil, err
		}
		return g.transpose(), nil
	}
	return downsample(ctx, plane, maxRows, maxCols, r, meter)
}

func downsample(ctx context.Context, p *Tensor, maxRows, maxCols int, r Reduction, meter *progressMeter) (*Grid, error) {
	rows, cols := p.shape[0], p.shape[1]
	g := &Grid{SrcRows: rows, SrcCols: cols, RowStep: 1, ColStep: 1, Reduction: r}
	if rows > 0 && cols > 0 {
		g.RowStep = (rows + maxRows - 1) / maxRows
		g.ColStep = (cols + maxCols - 1) / maxCols
		g.Rows = (rows + g.RowStep - 1) / g.RowStep
		g.Cols = (cols + g.ColStep - 1) / g.ColStep
	}
	g.Values = make([]float64, g.Rows*g.Cols)
	if len(g.Values) == 0 {
		return g, ctx.Err()
	}

	// A work item is one row of cells, or a run of its cells wide enough
	// to be worth a goroutine's while (rows of a 1×N plane are long).
	cellElems := int64(g.RowStep) * int64(g.ColStep)
	span := int(min(int64(g.Cols), max(1, cancelStep/cellElems)))
	spans := (g.Cols + span - 1) / span
	if g.Rows*spans < 4*runtime.GOMAXPROCS(0) {
		span = max(1, (g.Cols+3)/4)
		spans = (g.Cols + span - 1) / span
	}
	var countsOnce sync.Once
	kind := kernelOf(p.dtype)
	size := p.dtype.Size()
	data := p.storage.data
	rsb, csb := p.strides[0]*size, p.strides[1]*size

	chunk := min(span*g.ColStep, cancelStep)
	err := parallel(ctx, g.Rows*spans, func() func(int) error {
		cells := make([]cellAcc, span)
		var buf32 []float32
		var buf64 []float64
		if kind == kind32 {
			buf32 = make([]float32, chunk)
		} else {
			buf64 = make([]float64, chunk)
		}
		return func(item int) error {
			gr, c0 := item/spans, (item%spans)*span
			c1 := min(c0+span, g.Cols)
			cells := cells[:c1-c0]
			for j := range cells {
				cells[j].reset(r)
			}
			a, b := c0*g.ColStep, min(c1*g.ColStep, cols)
			for i := gr * g.RowStep; i < min((gr+1)*g.RowStep, rows); i++ {
				// Columns [a, b) of row i, a chunk at a time.
				for x := a; x < b; x += chunk {
					if err := ctx.Err(); err != nil {
						return err
					}
					off := p.offset + i*rsb + x*csb
					n := min(chunk, b-x)
					if kind == kind32 {
						row := inPlaceRow32(p.dtype, data, off, n, csb)
						if row == nil {
							row = buf32[:n]
							decode32(p.dtype, data, off, csb, row)
						}
						reduceRow(row, x-a, cells, g.ColStep, r, absMaxSeg32)
					} else {
						row := inPlaceRow64(p.dtype, data, off, n, csb)
						if row == nil {
							row = buf64[:n]
							decode64(p.dtype, data, off, csb, row)
						}
						reduceRow(row, x-a, cells, g.ColStep, r, absMaxSeg64)
					}
					meter.add(int64(n))
				}
			}
			for j := range cells {
				c := &cells[j]
				k := gr*g.Cols + c0 + j
				g.Values[k] = c.value(r)
				if c.nan|c.pinf|c.ninf != 0 {
					countsOnce.Do(func() {
						g.NaN = make([]int64, len(g.Values))
						g.PosInf = make([]int64, len(g.Values))
						g.NegInf = make([]int64, len(g.Values))
					})
					g.NaN[k], g.PosInf[k], g.NegInf[k] = c.nan, c.pinf, c.ninf
				}
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	g.dropEmptyCounts()
	return g, nil
}

func inPlaceRow32(dt DType, data []byte, off, n, stride int) []float32 {
	if dt != Float32 || stride != 4 {
		return nil
	}
	return inPlaceF32(data, off, n)
}

func inPlaceRow64(dt DType, data []byte, off, n, stride int) []float64 {
	if dt != Float64 || stride != 8 {
		return nil
	}
	return inPlaceF64(data, off, n)
}

// dropEmptyCounts turns count arrays with nothing in them into nil.
func (g *Grid) dropEmptyCounts() {
	empty := func(a []int64) []int64 {
		for _, v := range a {
			if v != 0 {
				return a
			}
		}
		return nil
	}
	g.NaN, g.PosInf, g.NegInf = empty(g.NaN), empty(g.PosInf), empty(g.NegInf)
}

func (g *Grid) transpose() *Grid {
	t := &Grid{
		Rows: g.Cols, Cols: g.Rows, RowStep: g.ColStep, ColStep: g.RowStep,
		SrcRows: g.SrcCols, SrcCols: g.SrcRows, Reduction: g.Reduction,
	}
	tr := func(a []float64) []float64 {
		out := make([]float64, len(a))
		for r := range g.Rows {
			for c := range g.Cols {
				out[c*g.Rows+r] = a[r*g.Cols+c]
			}
		}
		return out
	}
	trCounts := func(a []int64) []int64 {
		if a == nil {
			return nil
		}
		out := make([]int64, len(a))
		for r := range g.Rows {
			for c := range g.Cols {
				out[c*g.Rows+r] = a[r*g.Cols+c]
			}
		}
		return out
	}
	t.Values = tr(g.Values)
	t.NaN, t.PosInf, t.NegInf = trCounts(g.NaN), trCounts(g.PosInf), trCounts(g.NegInf)
	return t
}

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
