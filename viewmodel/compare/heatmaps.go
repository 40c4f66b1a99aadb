package compare

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image/color"
	"math"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"

	"tensorscope/tensor"
)

// maxDiffElems bounds the window whose element-wise difference is formed
// before downsampling (64 MiB of float32). Larger windows show the
// difference of the downsampled A and B cells, which is the same for the
// mean reduction except where a cell holds NaN or Inf.
const maxDiffElems = 16 << 20

// DiffColormap is the A−B heatmap's map: the diverging one, centred at 0.
var DiffColormap = func() *viewmodel.Colormap {
	for _, c := range viewmodel.Colormaps {
		if c.Diverging {
			return c
		}
	}
	panic("viewmodel: no diverging colour map")
}()

// The NaN, +Inf and −Inf colours of all three heatmaps of a comparison,
// whatever the colour map of A and B: one legend reads for A, B and A−B.
// Each is far from every colour of every map offered (A and B may use any;
// A−B uses the diverging one), which no map's own colours are.
var (
	SpecialNaN    = color.NRGBA{255, 0, 255, 255} // magenta
	SpecialPosInf = color.NRGBA{0, 255, 255, 255} // cyan
	SpecialNegInf = color.NRGBA{0, 255, 0, 255}   // green
)

// comparisonMap is cm drawing non-finite values in the comparison's
// colours.
func comparisonMap(cm *viewmodel.Colormap) *viewmodel.Colormap {
	return cm.WithSpecials(SpecialNaN, SpecialPosInf, SpecialNegInf)
}

// pairHeatmaps is what the heatmap task hands back.
type pairHeatmaps struct {
	heat [3]*viewmodel.HeatmapImage
	note string
}

func (v *PairView) startHeatmaps() {
	v.heatTask.Cancel()
	v.heatTask = nil
	if v.planeA == nil {
		v.heat = [3]*viewmodel.HeatmapImage{}
		v.c.changed(ChangedHeatmaps)
		return
	}
	pa, pb, view, mode, cmap, colours := v.planeA, v.planeB, v.view, v.mode, v.cmap, v.colours
	maxR, maxC := v.maxRows, v.maxCols
	pr, pc := v.PlaneSize()
	v.c.setProgress("Heatmaps", 0)
	v.heatTask = startTask(v, func(ctx context.Context, progress viewmodel.Progress) (pairHeatmaps, error) {
		return computePairHeatmaps(ctx, pa, pb, view, pr, pc, maxR, maxC, mode, cmap, colours, progress)
	}, func(f float64) { v.c.setProgress("Heatmaps", f) }, func(r pairHeatmaps, err error) {
		v.heatTask = nil
		v.c.clearProgress("Heatmaps")
		if err != nil {
			v.err = err
			v.heat = [3]*viewmodel.HeatmapImage{}
		} else {
			v.heat, v.heatNote = r.heat, r.note
		}
		v.c.changed(ChangedHeatmaps)
	})
}

// computePairHeatmaps downsamples the window of both planes and their
// difference to at most maxR×maxC cells and colours them: A and B with
// cmap over one range (their common finite range, made symmetric, or
// manual), A−B with the diverging map symmetric about 0.
func computePairHeatmaps(ctx context.Context, pa, pb *tensor.Tensor, view viewmodel.Window, pr, pc, maxR, maxC int,
	mode DiffMode, cmap *viewmodel.Colormap, colours viewmodel.RangeSetting, progress viewmodel.Progress) (pairHeatmaps, error) {
	var r pairHeatmaps
	subA, err := window(pa, view)
	if err != nil {
		return r, err
	}
	subB, err := window(pb, view)
	if err != nil {
		return r, err
	}
	red := tensor.ReduceMean
	ga, err := tensor.Downsample(ctx, subA, maxR, maxC, red, nil)
	if err != nil {
		return r, err
	}
	gb, err := tensor.Downsample(ctx, subB, maxR, maxC, red, nil)
	if err != nil {
		return r, err
	}
	var gd *tensor.Grid
	exact := view.Rows*view.Cols <= maxDiffElems
	if exact {
		d, err := differencePlane(ctx, subA, subB, mode, progress)
		if err != nil {
			return r, err
		}
		if gd, err = tensor.Downsample(ctx, d, maxR, maxC, red, nil); err != nil {
			return r, err
		}
	} else {
		gd = gridDifference(ga, gb, mode)
	}
	lo, hi := colours.Lo, colours.Hi
	if colours.Mode != viewmodel.RangeManual {
		lo, hi = commonRange(ga, gb)
		if colours.Mode == viewmodel.RangeSymmetric {
			m := math.Max(math.Abs(lo), math.Abs(hi))
			lo, hi = -m, m
		}
	}
	for i, g := range []*tensor.Grid{ga, gb, gd} {
		r.heat[i] = &viewmodel.HeatmapImage{Grid: g, View: view, PlaneRows: pr, PlaneCols: pc, Reduction: viewmodel.ReductionNames[0]}
	}
	viewmodel.Colourise(r.heat[0], comparisonMap(cmap), viewmodel.RangeManual, lo, hi)
	viewmodel.Colourise(r.heat[1], comparisonMap(cmap), viewmodel.RangeManual, lo, hi)
	viewmodel.Colourise(r.heat[2], comparisonMap(DiffColormap), viewmodel.RangeSymmetric, 0, 0)
	r.note = heatNote(r.heat[0], mode, exact)
	return r, nil
}

func window(plane *tensor.Tensor, w viewmodel.Window) (*tensor.Tensor, error) {
	sub, err := plane.Slice(0, w.Row, w.Rows)
	if err != nil {
		return nil, err
	}
	return sub.Slice(1, w.Col, w.Cols)
}

// differencePlane forms a−b (or (a−b)/|a|) of two equally shaped planes as
// a float32 plane, reading both in row-major chunks.
func differencePlane(ctx context.Context, a, b *tensor.Tensor, mode DiffMode, progress viewmodel.Progress) (*tensor.Tensor, error) {
	n := int64(a.Len())
	out := make([]byte, 4*n)
	const chunk = 1 << 16
	bufA, bufB := make([]float64, min(n, chunk)), make([]float64, min(n, chunk))
	for lo := int64(0); lo < n; lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := min(chunk, n-lo)
		x, y := bufA[:k], bufB[:k]
		if err := a.ReadFloat64s(lo, x); err != nil {
			return nil, err
		}
		if err := b.ReadFloat64s(lo, y); err != nil {
			return nil, err
		}
		for i := range x {
			d := x[i] - y[i]
			if mode == DiffRelative {
				d /= math.Abs(x[i])
			}
			binary.LittleEndian.PutUint32(out[4*(lo+int64(i)):], math.Float32bits(float32(d)))
		}
		if progress != nil {
			progress(lo+k, n)
		}
	}
	return tensor.FromBytes(out, tensor.Float32, a.Shape())
}

// gridDifference is the cell-wise difference of two grids of one shape,
// for windows too large to difference element by element.
func gridDifference(ga, gb *tensor.Grid, mode DiffMode) *tensor.Grid {
	d := *ga
	d.Values = make([]float64, len(ga.Values))
	for i := range d.Values {
		v := ga.Values[i] - gb.Values[i]
		if mode == DiffRelative {
			v /= math.Abs(ga.Values[i])
		}
		d.Values[i] = v
	}
	d.NaN, d.PosInf, d.NegInf = nil, nil, nil
	return &d
}

// commonRange is the finite min..max over both grids.
func commonRange(gs ...*tensor.Grid) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, g := range gs {
		for _, v := range g.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

func heatNote(h *viewmodel.HeatmapImage, mode DiffMode, exact bool) string {
	g := h.Grid
	note := fmt.Sprintf("%d×%d", h.PlaneRows, h.PlaneCols)
	if h.View.Rows != h.PlaneRows || h.View.Cols != h.PlaneCols {
		note = fmt.Sprintf("rows %d–%d, cols %d–%d of %s", h.View.Row, h.View.Row+h.View.Rows-1,
			h.View.Col, h.View.Col+h.View.Cols-1, note)
	}
	if g.Rows != h.View.Rows || g.Cols != h.View.Cols {
		note = fmt.Sprintf("showing %d×%d of %s, mean", g.Rows, g.Cols, note)
	} else {
		note = "showing " + note
	}
	diff := "A−B = a − b"
	if mode == DiffRelative {
		diff = "A−B = (a − b)/|a|"
	}
	if !exact {
		diff += " of the cell means"
	}
	return note + "; " + diff + "; A and B share one colour range"
}

// CellInfo describes grid cell (row, col) for the hover line: the element
// index with a, b and a−b, or for a downsampled cell the block and the
// means.
func (v *PairView) CellInfo(row, col int) string {
	h := v.heat[PanelA]
	r0, c0, r1, c1, ok := h.Cell(row, col)
	if !ok {
		return ""
	}
	if r0 == r1 && c0 == c1 {
		return v.elementInfo(r0, c0)
	}
	g := h.Grid
	i := row*g.Cols + col
	diff := "a−b"
	if v.mode == DiffRelative {
		diff = "(a−b)/|a|"
	}
	return fmt.Sprintf("rows %d–%d, cols %d–%d: mean a %s, b %s, %s %s", r0, r1, c0, c1,
		textfmt.Float(g.Values[i], 6), textfmt.Float(v.heat[PanelB].Grid.Values[i], 6), diff,
		textfmt.Float(v.heat[PanelDiff].Grid.Values[i], 6))
}

// elementInfo reads one element of each plane (two values: cheap enough
// for the UI goroutine).
func (v *PairView) elementInfo(r, c int) string {
	idx := append([]int(nil), v.fixed...)
	if v.rowAxis >= 0 {
		idx[v.rowAxis] = r
	}
	if v.colAxis >= 0 {
		idx[v.colAxis] = c
	}
	var a, b float64
	// Both files are mapped and either may have been truncated on disk.
	err := tensor.CatchFault(func() error {
		var errA, errB error
		a, errA = v.a.Float64At(idx)
		b, errB = v.b.Float64At(idx)
		return errors.Join(errA, errB)
	})
	if errors.Is(err, tensor.ErrFault) {
		return textfmt.Dims(idx) + ": " + viewmodel.UnreadableBytes
	}
	if err != nil {
		return ""
	}
	s := fmt.Sprintf("%s: a %s, b %s, a−b %s", textfmt.Dims(idx), textfmt.Float(a, 8), textfmt.Float(b, 8), textfmt.Float(a-b, 6))
	if v.mode == DiffRelative {
		s += ", (a−b)/|a| " + textfmt.Float((a-b)/math.Abs(a), 6)
	}
	return s
}

// PanelView is one of the three heatmaps of whichever pair is selected,
// as a heatmap widget draws and steers it; zoom and pan go to the pair's
// shared view. With no pair selected it shows nothing.
type PanelView struct {
	c     *Comparison
	panel Panel
}

// Panel returns the selected pair's panel p.
func (c *Comparison) Panel(p Panel) *PanelView { return &PanelView{c: c, panel: p} }

func (p *PanelView) Heatmap() *viewmodel.HeatmapImage {
	if v := p.c.pair; v != nil {
		return v.heat[p.panel]
	}
	return nil
}

func (p *PanelView) View() viewmodel.Window {
	if v := p.c.pair; v != nil {
		return v.View()
	}
	return viewmodel.Window{}
}

func (p *PanelView) PlaneSize() (rows, cols int) {
	if v := p.c.pair; v != nil {
		return v.PlaneSize()
	}
	return 0, 0
}

func (p *PanelView) SetView(w viewmodel.Window) {
	if v := p.c.pair; v != nil {
		v.SetView(w)
	}
}

func (p *PanelView) ResetView() {
	if v := p.c.pair; v != nil {
		v.ResetView()
	}
}

// Empty reports that the selected pair's tensors hold no values.
func (p *PanelView) Empty() bool { return p.c.pair != nil && p.c.pair.Empty() }

func (p *PanelView) CellInfo(row, col int) string {
	if v := p.c.pair; v != nil {
		return v.CellInfo(row, col)
	}
	return ""
}
