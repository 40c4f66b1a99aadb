package tensor

import (
	"context"
	"fmt"
	"runtime"
	"sync"
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
// A mean is the float64 sum of the cell's finite values over their count.
func Downsample(ctx context.Context, plane *Tensor, maxRows, maxCols int, r Reduction, progress ProgressFunc) (*Grid, error) {
	if plane.Rank() != 2 {
		return nil, fmt.Errorf("downsample of %s: need a 2-D plane", plane)
	}
	return DownsampleRegion(ctx, plane, 0, 0, plane.shape[0], plane.shape[1], maxRows, maxCols, r, progress)
}

// DownsampleRegion is Downsample of rows [row0, row0+rows) and columns
// [col0, col0+cols) of plane: the grid covers that region alone. It is the
// zoomed heatmap of any plane, a composite one included, whose arbitrary
// slices need not be views (see Slice).
func DownsampleRegion(ctx context.Context, plane *Tensor, row0, col0, rows, cols, maxRows, maxCols int, r Reduction, progress ProgressFunc) (*Grid, error) {
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
	if row0 < 0 || col0 < 0 || rows < 0 || cols < 0 || row0 > plane.shape[0]-rows || col0 > plane.shape[1]-cols {
		return nil, fmt.Errorf("downsample of %s: region of %d×%d at %d,%d is outside the plane", plane, rows, cols, row0, col0)
	}
	rs, cs := plane.strides[0], plane.strides[1]
	meter := newProgressMeter(progress, int64(rows)*int64(cols))
	// Walk the plane along its smaller stride: for a transposed plane,
	// downsample the transpose and transpose the (small) result.
	if rs < cs && rows > 1 && cols > 1 {
		var merged [][]span
		if plane.merged != nil {
			merged = [][]span{plane.merged[1], plane.merged[0]}
		}
		tr := plane.derive([]int{plane.shape[1], plane.shape[0]}, []int{cs, rs}, merged, 0)
		g, err := downsample(ctx, tr, col0, row0, cols, rows, maxCols, maxRows, r, meter)
		if err != nil {
			return nil, err
		}
		return g.transpose(), nil
	}
	return downsample(ctx, plane, row0, col0, rows, cols, maxRows, maxCols, r, meter)
}

// downsample reduces the region of p at row0, col0 of rows×cols elements.
func downsample(ctx context.Context, p *Tensor, row0, col0, rows, cols, maxRows, maxCols int, r Reduction, meter *progressMeter) (*Grid, error) {
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

	// A work item is a run of cells in one row of cells, covering about
	// cancelStep elements (or one cell, if cells are larger); a grid of few
	// rows is split finer so that every core gets work.
	cellElems := int64(g.RowStep) * int64(g.ColStep)
	span := int(min(int64(g.Cols), max(1, cancelStep/cellElems)))
	spans := (g.Cols + span - 1) / span
	if g.Rows*spans < 4*runtime.GOMAXPROCS(0) {
		span = max(1, (g.Cols+3)/4)
		spans = (g.Cols + span - 1) / span
	}
	var countsOnce sync.Once
	kind := p.kernel()
	size := p.addrSize()
	csb := p.strides[1] * size
	// Along a composite column axis, columns are evenly spaced only within
	// a run of its innermost component: a chunk is gathered run by run,
	// then reduced at once.
	colRun := p.spans(1)[len(p.spans(1))-1].size
	compositeCols := colRun < p.shape[1]

	chunk := min(span*g.ColStep, cancelStep)
	err := parallel(ctx, g.Rows*spans, func() func(int) error {
		cells := make([]cellAcc, span)
		dec := newValueDecoder(p)
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
				rowOff := p.base() + p.axisOffset(0, row0+i)*size
				for x := a; x < b; x += chunk {
					if err := ctx.Err(); err != nil {
						return err
					}
					n := min(chunk, b-x)
					off := rowOff + p.axisOffset(1, col0+x)*size
					if kind == kind32 {
						var row []float32
						if dec.inPlace32 != nil && csb == 4 && !compositeCols {
							row = dec.inPlace32(off, n)
						}
						if row == nil {
							row = buf32[:n]
							gatherRow(p, rowOff, col0+x, colRun, size, csb, row, dec.dec32)
						}
						reduceRow(row, x-a, cells, g.ColStep, r, absMaxSeg32)
						if csb == size && !compositeCols { // the row's bytes, read
							p.storage.Release(off, size*n)
						}
					} else {
						var row []float64
						if dec.inPlace64 != nil && csb == 8 && !compositeCols {
							row = dec.inPlace64(off, n)
						}
						if row == nil {
							row = buf64[:n]
							gatherRow(p, rowOff, col0+x, colRun, size, csb, row, dec.dec64)
						}
						reduceRow(row, x-a, cells, g.ColStep, r, absMaxSeg64)
						if csb == size && !compositeCols { // the row's bytes, read
							p.storage.Release(off, size*n)
						}
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

// gatherRow decodes the len(dst) elements of a row from column col on,
// whose columns are evenly spaced (csb address units apart) only within
// runs of colRun (all of them for a plain axis): one decode per run, the
// runs' offsets stepped like an odometer over the outer components.
func gatherRow[T float32 | float64](p *Tensor, rowOff, col, colRun, size, csb int, dst []T, decode func(addr, stride int, dst []T)) {
	sp := p.spans(1)
	outer, inner := sp[:len(sp)-1], sp[len(sp)-1]
	var digitBuf [8]int
	digits := digitBuf[:0]
	if len(outer) <= len(digitBuf) {
		digits = digitBuf[:len(outer)]
	} else {
		digits = make([]int, len(outer))
	}
	q, r := col/colRun, col%colRun
	off := 0
	for k := len(outer) - 1; k >= 0; k-- {
		digits[k] = q % outer[k].size
		q /= outer[k].size
		off += digits[k] * outer[k].stride
	}
	for done := 0; done < len(dst); {
		n := min(len(dst)-done, colRun-r)
		decode(rowOff+(off+r*inner.stride)*size, csb, dst[done:done+n])
		done += n
		r = 0
		for k := len(outer) - 1; k >= 0; k-- {
			digits[k]++
			off += outer[k].stride
			if digits[k] < outer[k].size {
				break
			}
			off -= digits[k] * outer[k].stride
			digits[k] = 0
		}
	}
}
