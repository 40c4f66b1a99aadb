package viewmodel

import (
	"context"
	"fmt"
	"image"
	"math"

	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// RangeMode chooses how the heatmap's colour range is set.
type RangeMode int

const (
	// RangeAuto is the whole tensor's finite min..max, so that colours
	// compare between slices (what is shown until the statistics arrive).
	// For a histogram: the counted values' min..max.
	RangeAuto      RangeMode = iota
	RangeSymmetric           // −m..m with m the whole tensor's largest |value|
	RangeManual              // the user's lo..hi
	RangeSlice               // finite min..max of what is shown (this slice, zoomed)
)

// RangeModeNames are the modes as the UI offers them, in RangeMode order.
var RangeModeNames = []string{"whole tensor", "symmetric", "manual", "this slice"}

// Reductions offered for downsampling, in UI order.
var Reductions = []tensor.Reduction{tensor.ReduceMean, tensor.ReduceMin, tensor.ReduceMax, tensor.ReduceAbsMax}

// ReductionNames name Reductions for the UI and the command line, as the
// tensor core spells them.
var ReductionNames = func() []string {
	out := make([]string, len(Reductions))
	for i, r := range Reductions {
		out[i] = r.String()
	}
	return out
}()

// DefaultMaxCells bounds the heatmap grid: larger planes are downsampled.
const DefaultMaxCells = 1024

// Window is a rectangle of the plane in element rows and columns.
type Window struct{ Row, Col, Rows, Cols int }

// HeatmapImage is a computed heatmap: one pixel per grid cell.
type HeatmapImage struct {
	Image     *image.NRGBA
	Grid      *tensor.Grid
	View      Window // the part of the plane the grid covers
	PlaneRows int
	PlaneCols int
	Lo, Hi    float64 // colour range
	Colormap  *Colormap
	Reduction string
	// RowBlock and ColBlock are the plane's blocks (a mosaic's kernel
	// size), between which the heatmap draws thin lines; 0 for none.
	RowBlock, ColBlock int
	// Kernels reports a conv weight's mosaic (MosaicExpr): block (o, i)
	// is the kernel of output channel o and input channel i, drawn with
	// square elements and its axes counted in channels.
	Kernels bool
}

type heatmapState struct {
	t                *tensor.Tensor
	rowAxis, colAxis int
	fixed            []int
	cmap             *Colormap
	rangeMode        RangeMode
	lo, hi           float64
	reduction        int // index into Reductions
	maxRows, maxCols int
	mosaic           [2]int // kh, kw while a conv mosaic is shown (tensorview.go)

	plane    *tensor.Tensor
	planeErr error
	view     Window
	result   *HeatmapImage
	task     *Task
}

func newHeatmapState() heatmapState {
	return heatmapState{cmap: Colormaps[0], maxRows: DefaultMaxCells, maxCols: DefaultMaxCells}
}

// reset forgets the tensor but keeps the user's colour settings.
func (h *heatmapState) reset() {
	h.t, h.plane, h.planeErr, h.result, h.fixed = nil, nil, nil, nil, nil
	h.view = Window{}
}

func (h *heatmapState) setTensor(t *tensor.Tensor) {
	h.t = t
	r := t.Rank()
	h.fixed = make([]int, r)
	h.rowAxis, h.colAxis = DefaultAxes(t.Shape())
	h.makePlane()
}

func (h *heatmapState) makePlane() {
	if h.t.Len() == 0 { // nothing to draw: the heatmap shows EmptyText
		h.plane, h.planeErr, h.view = nil, nil, Window{}
		return
	}
	h.plane, h.planeErr = tensor.Plane(h.t, h.rowAxis, h.colAxis, h.fixed)
	if h.planeErr == nil {
		s := h.plane.Shape()
		h.view = Window{0, 0, s[0], s[1]}
	}
}

// Axes returns the heatmap's row and column axes (-1 for none: rank < 2).
func (in *Inspector) Axes() (row, col int) { return in.heat.rowAxis, in.heat.colAxis }

// SetAxes chooses the tensor axes shown as heatmap rows and columns.
func (in *Inspector) SetAxes(row, col int) error {
	h := &in.heat
	if h.t == nil {
		return nil
	}
	r := h.t.Rank()
	if r >= 2 && (row < 0 || col < 0 || row >= r || col >= r || row == col) {
		return fmt.Errorf("rows and columns need two different axes of %d", r)
	}
	if row == h.rowAxis && col == h.colAxis {
		return nil
	}
	h.rowAxis, h.colAxis = row, col
	h.makePlane()
	in.startHeatmap()
	if in.hist.scope == HistPlane {
		in.startHistogram()
	}
	return nil
}

// Fixed returns the index each non-plotted axis is held at.
func (in *Inspector) Fixed() []int { return in.heat.fixed }

// SetFixed holds axis at index (the sliders).
func (in *Inspector) SetFixed(axis, index int) error {
	h := &in.heat
	if h.t == nil {
		return fmt.Errorf("no axis %d", axis)
	}
	if err := CheckAxisIndex(h.t.Shape(), axis, index); err != nil {
		return err
	}
	if h.fixed[axis] == index {
		return nil
	}
	h.fixed[axis] = index
	keep := h.view
	h.makePlane()
	h.view = keep // same plane size: keep zoom while scrubbing
	in.startHeatmap()
	if in.hist.scope == HistPlane {
		in.startHistogram()
	}
	return nil
}

// CheckAxisIndex checks that a slider may hold axis of a tensor of shape at
// index.
func CheckAxisIndex(shape []int, axis, index int) error {
	if axis < 0 || axis >= len(shape) {
		return fmt.Errorf("no axis %d", axis)
	}
	if n := shape[axis]; index < 0 || index >= n {
		return fmt.Errorf("index %d is outside axis %d of size %d", index, axis, n)
	}
	return nil
}

// Colormap is the heatmap's colour map.
func (in *Inspector) Colormap() *Colormap { return in.heat.cmap }

// SetColormap chooses a colour map by name, read as
// InspectorSettings.SetColormap reads it.
func (in *Inspector) SetColormap(name string) error {
	var s InspectorSettings
	if err := s.SetColormap(name); err != nil {
		return err
	}
	if s.Colormap != in.heat.cmap {
		in.heat.cmap = s.Colormap
		in.recolour()
	}
	return nil
}

// Range returns the colour range mode and the manual bounds.
func (in *Inspector) Range() (RangeMode, float64, float64) {
	return in.heat.rangeMode, in.heat.lo, in.heat.hi
}

// SetRange sets the colour range (see InspectorSettings.SetRange).
func (in *Inspector) SetRange(mode RangeMode, lo, hi float64) error {
	r, err := checkRange(mode, lo, hi)
	if err != nil {
		return err
	}
	h := &in.heat
	h.rangeMode, h.lo, h.hi = r.Mode, r.Lo, r.Hi
	in.recolour()
	return nil
}

// Reduction is the index into Reductions used when downsampling.
func (in *Inspector) Reduction() int { return in.heat.reduction }

// SetReduction chooses how cells of a downsampled plane combine elements.
func (in *Inspector) SetReduction(i int) {
	if i >= 0 && i < len(Reductions) && i != in.heat.reduction {
		in.heat.reduction = i
		in.startHeatmap()
	}
}

// SetMaxCells bounds the grid (the widget's size in pixels, say).
func (in *Inspector) SetMaxCells(rows, cols int) {
	rows, cols = max(rows, 16), max(cols, 16)
	if rows != in.heat.maxRows || cols != in.heat.maxCols {
		in.heat.maxRows, in.heat.maxCols = rows, cols
		in.startHeatmap()
	}
}

// PlaneSize is the size of the current plane, or zeros.
func (in *Inspector) PlaneSize() (rows, cols int) {
	if in.text.ready {
		return in.text.rows, in.text.cols
	}
	if in.heat.plane == nil {
		return 0, 0
	}
	s := in.heat.plane.Shape()
	return s[0], s[1]
}

// PlaneErr says why there is no plane.
func (in *Inspector) PlaneErr() error { return in.heat.planeErr }

// View is the zoomed part of the plane.
func (in *Inspector) View() Window { return in.heat.view }

// SetView zooms or pans to w, clamped to the plane.
func (in *Inspector) SetView(w Window) {
	pr, pc := in.PlaneSize()
	if pr == 0 {
		return
	}
	w.Rows = min(max(w.Rows, 1), pr)
	w.Cols = min(max(w.Cols, 1), pc)
	w.Row = min(max(w.Row, 0), pr-w.Rows)
	w.Col = min(max(w.Col, 0), pc-w.Cols)
	if w == in.heat.view {
		return
	}
	in.heat.view = w
	in.startHeatmap()
}

// ResetView shows the whole plane.
func (in *Inspector) ResetView() {
	pr, pc := in.PlaneSize()
	in.SetView(Window{0, 0, pr, pc})
}

// Heatmap is the latest computed heatmap, or nil.
func (in *Inspector) Heatmap() *HeatmapImage { return in.heat.result }

// HeatmapNote says what the heatmap shows when it is downsampled or zoomed:
// "showing 1024×1024 of 16384×16384, mean".
func (in *Inspector) HeatmapNote() string {
	r := in.heat.result
	if r == nil {
		return ""
	}
	g := r.Grid
	note := fmt.Sprintf("%d×%d", r.PlaneRows, r.PlaneCols)
	if r.View.Rows != r.PlaneRows || r.View.Cols != r.PlaneCols {
		note = fmt.Sprintf("rows %d–%d, cols %d–%d of %s", r.View.Row, r.View.Row+r.View.Rows-1,
			r.View.Col, r.View.Col+r.View.Cols-1, note)
	}
	if g.Rows != r.View.Rows || g.Cols != r.View.Cols {
		return fmt.Sprintf("showing %d×%d of %s, %s", g.Rows, g.Cols, note, r.Reduction)
	}
	return "showing " + note
}

func (in *Inspector) startHeatmap() {
	h := &in.heat
	h.task.Cancel()
	h.task = nil
	if h.plane == nil {
		h.result = nil
		in.changed(ChangedHeatmap)
		return
	}
	plane, view, red := h.plane, h.view, h.reduction
	maxR, maxC := h.maxRows, h.maxCols
	cmap, colours := h.cmap, in.colourRange()
	pr, pc := in.PlaneSize()
	rb, cb := h.separators()
	kernels := h.showsKernels()
	in.setProgress("Heatmap", 0)
	h.task = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (*HeatmapImage, error) {
		// A region, not a slice: a composite plane's zoom need not be a view.
		g, err := tensor.DownsampleRegion(ctx, plane, view.Row, view.Col, view.Rows, view.Cols, maxR, maxC, Reductions[red], progress)
		if err != nil {
			return nil, err
		}
		res := &HeatmapImage{Grid: g, View: view, PlaneRows: pr, PlaneCols: pc, Reduction: ReductionNames[red],
			RowBlock: rb, ColBlock: cb, Kernels: kernels}
		Colourise(res, cmap, colours.mode, colours.lo, colours.hi)
		return res, nil
	}, func(f float64) { in.setProgress("Heatmap", f) }, func(r *HeatmapImage, err error) {
		h.task = nil
		in.clearProgress("Heatmap")
		if err != nil {
			h.planeErr = err
			h.result = nil
		} else {
			h.result = r
			if in.colourRange() != colours { // the statistics arrived meanwhile
				in.recolour()
				return
			}
		}
		in.changed(ChangedHeatmap)
	})
}

// recolour repaints the current grid with new colour settings; it reads
// only the grid (at most maxRows×maxCols values), never the tensor.
func (in *Inspector) recolour() {
	h := &in.heat
	if h.result == nil {
		in.changed(ChangedHeatmap)
		return
	}
	if h.task != nil { // a new grid is coming and will use the new settings
		in.startHeatmap()
		return
	}
	r := *h.result
	c := in.colourRange()
	Colourise(&r, h.cmap, c.mode, c.lo, c.hi)
	h.result = &r
	in.changed(ChangedHeatmap)
}

// Colourise sets the range and paints the grid. A cell holding any NaN is
// painted as NaN (then +Inf, then −Inf) even when downsampled, so that a
// single bad value stays visible in a zoomed-out view.
func Colourise(r *HeatmapImage, cmap *Colormap, mode RangeMode, lo, hi float64) {
	g := r.Grid
	switch mode {
	case RangeManual:
	default:
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range g.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if lo > hi {
			lo, hi = 0, 0
		}
		if mode == RangeSymmetric {
			m := math.Max(math.Abs(lo), math.Abs(hi))
			lo, hi = -m, m
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, g.Cols, g.Rows))
	for y := 0; y < g.Rows; y++ {
		for x := 0; x < g.Cols; x++ {
			i := y*g.Cols + x
			v := g.Values[i]
			switch {
			case cellCount(g.NaN, i) > 0:
				v = math.NaN()
			case cellCount(g.PosInf, i) > 0:
				v = math.Inf(1)
			case cellCount(g.NegInf, i) > 0:
				v = math.Inf(-1)
			}
			img.SetNRGBA(x, y, cmap.Color(v, lo, hi))
		}
	}
	r.Image, r.Lo, r.Hi, r.Colormap = img, lo, hi, cmap
}

// CellInfo describes grid cell (row, col) of the current heatmap for the
// hover tooltip: the full element index and exact value, or for a
// downsampled cell the block it covers and its reduced value.
func (in *Inspector) CellInfo(row, col int) string {
	r := in.heat.result
	r0, c0, r1, c1, ok := r.Cell(row, col)
	if !ok {
		return ""
	}
	if r0 == r1 && c0 == c1 {
		return in.ElementInfo(r0, c0)
	}
	g := r.Grid
	i := row*g.Cols + col
	s := fmt.Sprintf("rows %d–%d, cols %d–%d: %s %s", r0, r1, c0, c1, r.Reduction, textfmt.Float(g.Values[i], 6))
	if n, p, m := cellCount(g.NaN, i), cellCount(g.PosInf, i), cellCount(g.NegInf, i); n+p+m > 0 {
		s += fmt.Sprintf(" (nan %d, +inf %d, −inf %d)", n, p, m)
	}
	return s
}

// Cell returns the block of the plane that grid cell (row, col) covers:
// rows r0–r1 and columns c0–c1, inclusive (one element when the grid is
// not downsampled). ok is false outside the grid or without a heatmap.
func (r *HeatmapImage) Cell(row, col int) (r0, c0, r1, c1 int, ok bool) {
	if r == nil || row < 0 || col < 0 || row >= r.Grid.Rows || col >= r.Grid.Cols {
		return 0, 0, 0, 0, false
	}
	g := r.Grid
	r0 = r.View.Row + row*g.RowStep
	c0 = r.View.Col + col*g.ColStep
	r1 = min(r0+g.RowStep, r.View.Row+r.View.Rows) - 1
	c1 = min(c0+g.ColStep, r.View.Col+r.View.Cols) - 1
	return r0, c0, r1, c1, true
}

// cellCount reads a grid's per-cell count, which is nil when the plane has
// no value of that kind.
func cellCount(counts []int64, i int) int64 {
	if counts == nil {
		return 0
	}
	return counts[i]
}
