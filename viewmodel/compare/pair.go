package compare

import (
	"context"
	"errors"
	"fmt"
	"tensorscope/viewmodel"

	"tensorscope/tensor"
)

// DiffMode chooses what the A−B heatmap shows.
type DiffMode int

const (
	DiffAbsolute DiffMode = iota // a − b
	DiffRelative                 // (a − b)/|a|
)

// DiffModeNames are the modes as the UI and the command line offer them.
var DiffModeNames = []string{"absolute", "relative"}

// ParseDiffMode returns the mode named name.
func ParseDiffMode(name string) (DiffMode, error) {
	for i, n := range DiffModeNames {
		if n == name {
			return DiffMode(i), nil
		}
	}
	return 0, fmt.Errorf("the difference is absolute or relative, not %q", name)
}

// Settings are the comparison view's choices as one value, set
// alike by the tab's controls and by `render --view diff`: the plane
// (Axes, Index), colour map and colour range of A and B, taken from
// InspectorSettings and checked by its setters, and what A−B shows.
// Start from DefaultSettings.
type Settings struct {
	Plane viewmodel.InspectorSettings
	Diff  DiffMode
}

// DefaultSettings are what a newly selected pair shows: the last
// two axes, viridis over A's and B's common range, a − b.
func DefaultSettings() Settings {
	return Settings{Plane: viewmodel.DefaultInspectorSettings()}
}

// SetDiff chooses the difference by name ("absolute", "relative").
func (s *Settings) SetDiff(name string) error {
	m, err := ParseDiffMode(name)
	if err == nil {
		s.Diff = m
	}
	return err
}

// PairView is the selected pair of a comparison: A, B and A−B heatmaps of
// the same plane with one set of axes, sliders and zoom, A and B in one
// colour range; A and B histograms over one range, and an A−B histogram.
type PairView struct {
	c       *Comparison
	pair    TensorPair
	figures *PairFigures

	a, b *tensor.Tensor // values as shown (dequantised)
	err  error

	rowAxis, colAxis int
	fixed            []int
	planeA, planeB   *tensor.Tensor
	view             viewmodel.Window
	maxRows, maxCols int
	mode             DiffMode
	cmap             *viewmodel.Colormap
	colours          viewmodel.RangeSetting // of A and B; A−B is always symmetric about 0
	pending          *Settings              // applied once the tensors are loaded

	heat     [3]*viewmodel.HeatmapImage // A, B, A−B
	heatNote string
	hist     pairHistograms
	histErr  error

	loadTask, heatTask, histTask *viewmodel.Task
}

// Panel names one of the three heatmaps.
type Panel int

const (
	PanelA Panel = iota
	PanelB
	PanelDiff
)

func newPairView(c *Comparison, p TensorPair, f *PairFigures) *PairView {
	v := &PairView{c: c, pair: p, figures: f, maxRows: viewmodel.DefaultMaxCells, maxCols: viewmodel.DefaultMaxCells, cmap: viewmodel.Colormaps[0]}
	if !f.Compared() {
		v.err = fmt.Errorf("%s: not compared (%s)", f.Name, f.NotCompared)
		return v
	}
	v.load()
	return v
}

func (v *PairView) load() {
	p := v.pair
	v.c.setProgress("Loading", 0)
	v.loadTask = startTask(v, func(ctx context.Context, _ viewmodel.Progress) ([2]*tensor.Tensor, error) {
		a, err := displayTensor(ctx, p.A)
		if err != nil {
			return [2]*tensor.Tensor{}, err
		}
		b, err := displayTensor(ctx, p.B)
		return [2]*tensor.Tensor{a, b}, err
	}, nil, func(ts [2]*tensor.Tensor, err error) {
		v.loadTask = nil
		v.c.clearProgress("Loading")
		if err != nil {
			v.err = err
			v.c.changed(ChangedPair)
			return
		}
		v.a, v.b = ts[0], ts[1]
		v.initAxes()
		v.c.changed(ChangedPair)
		v.startHeatmaps()
		v.startHistograms()
	})
}

// startTask runs work holding both documents (see StartTask): neither
// file is unmapped while it reads them.
func startTask[T any](v *PairView, work func(ctx context.Context, progress viewmodel.Progress) (T, error),
	onProgress func(float64), onDone func(T, error)) *viewmodel.Task {
	docA, docB := v.c.docA, v.c.docB
	return viewmodel.StartTask(v.c.post, docA, func(ctx context.Context, progress viewmodel.Progress) (T, error) {
		var r T
		err := docB.Run(ctx, func(ctx context.Context) error {
			var err error
			r, err = work(ctx, progress)
			return err
		})
		return r, err
	}, onProgress, onDone)
}

func (v *PairView) initAxes() {
	r := v.a.Rank()
	v.fixed = make([]int, r)
	v.rowAxis, v.colAxis = viewmodel.DefaultAxes(v.a.Shape())
	if s := v.pending; s != nil && !v.Empty() {
		row, col, fixed, err := s.Plane.CheckPlane(v.a.Shape())
		if err != nil {
			v.err = fmt.Errorf("tensor %q: %w", v.pair.Name, err)
			return
		}
		v.rowAxis, v.colAxis, v.fixed = row, col, fixed
	}
	v.makePlanes()
}

// Apply makes s the pair's settings. The plane applies once the tensors
// are loaded (at once when they are); when it does not fit their shape,
// Err says why.
func (v *PairView) Apply(s Settings) error {
	if s.Diff != DiffAbsolute && s.Diff != DiffRelative {
		return fmt.Errorf("no difference mode %d", s.Diff)
	}
	if s.Plane.Range.Mode == viewmodel.RangeManual && !(s.Plane.Range.Lo < s.Plane.Range.Hi) {
		return fmt.Errorf("the range needs low < high (got %g, %g)", s.Plane.Range.Lo, s.Plane.Range.Hi)
	}
	v.mode, v.colours = s.Diff, s.Plane.Range
	if s.Plane.Colormap != nil {
		v.cmap = s.Plane.Colormap
	}
	v.pending = &s
	if v.a == nil {
		return nil
	}
	v.initAxes()
	v.startHeatmaps()
	return v.err
}

// Settings returns the pair's current choices.
func (v *PairView) Settings() Settings {
	s := Settings{Plane: viewmodel.DefaultInspectorSettings(), Diff: v.mode}
	s.Plane.Colormap, s.Plane.Range = v.cmap, v.colours
	if v.a != nil && v.a.Rank() >= 2 {
		s.Plane.Axes = []int{v.rowAxis, v.colAxis}
	}
	for a, i := range v.fixed {
		if a != v.rowAxis && a != v.colAxis && i != 0 {
			s.Plane.SetIndex(a, i)
		}
	}
	return s
}

// Ready reports that the pair has settled: loaded (or failed to) with no
// computation running or waiting to report. Headless rendering waits for it.
func (v *PairView) Ready() bool { return (v.a != nil || v.err != nil) && v.idle() }

func (v *PairView) makePlanes() {
	if v.Empty() { // nothing to draw: each panel shows viewmodel.EmptyText
		v.planeA, v.planeB, v.view = nil, nil, viewmodel.Window{}
		return
	}
	var err error
	v.planeA, err = tensor.Plane(v.a, v.rowAxis, v.colAxis, v.fixed)
	if err == nil {
		v.planeB, err = tensor.Plane(v.b, v.rowAxis, v.colAxis, v.fixed)
	}
	if err != nil {
		v.planeA, v.planeB, v.err = nil, nil, err
		return
	}
	s := v.planeA.Shape()
	v.view = viewmodel.Window{Rows: s[0], Cols: s[1]}
}

// Empty reports that the pair's tensors hold no values (a dimension of
// 0; both have the same shape).
func (v *PairView) Empty() bool { return v.a != nil && v.a.Len() == 0 }

// Name is the pair's name (A's tensor name).
func (v *PairView) Name() string { return v.pair.Name }

// Figures are the pair's figures.
func (v *PairView) Figures() *PairFigures { return v.figures }

// Err says why the pair cannot be shown, or nil.
func (v *PairView) Err() error { return v.err }

// Loaded reports that both tensors are loaded.
func (v *PairView) Loaded() bool { return v.a != nil && v.err == nil }

// Shape is the shape both tensors share (nil until loaded).
func (v *PairView) Shape() []int {
	if v.a == nil {
		return nil
	}
	return v.a.Shape()
}

// Axes are the tensor axes shown as rows and columns (−1: none).
func (v *PairView) Axes() (row, col int) { return v.rowAxis, v.colAxis }

// Fixed is the index each axis that is not plotted is held at.
func (v *PairView) Fixed() []int { return v.fixed }

// SetAxes chooses the axes shown as rows and columns, in all three views.
func (v *PairView) SetAxes(row, col int) error {
	if v.a == nil {
		return errors.New("the tensors are not loaded")
	}
	r := v.a.Rank()
	if r >= 2 && (row < 0 || col < 0 || row >= r || col >= r || row == col) {
		return fmt.Errorf("rows and columns need two different axes of %d", r)
	}
	if r < 2 {
		return nil
	}
	if row == v.rowAxis && col == v.colAxis {
		return nil
	}
	v.rowAxis, v.colAxis = row, col
	v.makePlanes()
	v.startHeatmaps()
	return nil
}

// SetFixed holds axis at index (the sliders), in all three views.
func (v *PairView) SetFixed(axis, index int) error {
	if v.a == nil {
		return fmt.Errorf("no axis %d", axis)
	}
	if err := viewmodel.CheckAxisIndex(v.a.Shape(), axis, index); err != nil {
		return err
	}
	if v.fixed[axis] == index {
		return nil
	}
	v.fixed[axis] = index
	keep := v.view
	v.makePlanes()
	v.view = keep // the same plane size: keep the zoom while scrubbing
	v.startHeatmaps()
	return nil
}

// Mode is what the A−B heatmap shows.
func (v *PairView) Mode() DiffMode { return v.mode }

// Colormap is A's and B's colour map.
func (v *PairView) Colormap() *viewmodel.Colormap { return v.cmap }

// SetColormap chooses A's and B's colour map by name (see
// InspectorSettings.SetColormap).
func (v *PairView) SetColormap(name string) error {
	s := viewmodel.InspectorSettings{}
	if err := s.SetColormap(name); err != nil {
		return err
	}
	if s.Colormap != v.cmap {
		v.cmap = s.Colormap
		v.startHeatmaps()
	}
	return nil
}

// SetMode chooses absolute or relative difference.
func (v *PairView) SetMode(m DiffMode) error {
	if m != DiffAbsolute && m != DiffRelative {
		return fmt.Errorf("no difference mode %d", m)
	}
	if m != v.mode {
		v.mode = m
		v.startHeatmaps()
	}
	return nil
}

// PlaneSize is the size of the shown plane, or zeros.
func (v *PairView) PlaneSize() (rows, cols int) {
	if v.planeA == nil {
		return 0, 0
	}
	s := v.planeA.Shape()
	return s[0], s[1]
}

// View is the zoomed part of the plane, the same in all three views.
func (v *PairView) View() viewmodel.Window { return v.view }

// SetView zooms or pans all three views to w, clamped to the plane.
func (v *PairView) SetView(w viewmodel.Window) {
	pr, pc := v.PlaneSize()
	if pr == 0 {
		return
	}
	w.Rows = min(max(w.Rows, 1), pr)
	w.Cols = min(max(w.Cols, 1), pc)
	w.Row = min(max(w.Row, 0), pr-w.Rows)
	w.Col = min(max(w.Col, 0), pc-w.Cols)
	if w == v.view {
		return
	}
	v.view = w
	v.startHeatmaps()
}

// ResetView shows the whole plane.
func (v *PairView) ResetView() {
	pr, pc := v.PlaneSize()
	v.SetView(viewmodel.Window{Rows: pr, Cols: pc})
}

// SetMaxCells bounds the grids (the widgets' size in pixels, say).
func (v *PairView) SetMaxCells(rows, cols int) {
	rows, cols = max(rows, 16), max(cols, 16)
	if rows != v.maxRows || cols != v.maxCols {
		v.maxRows, v.maxCols = rows, cols
		v.startHeatmaps()
	}
}

// Heatmap is one panel's latest heatmap, or nil.
func (v *PairView) Heatmap(p Panel) *viewmodel.HeatmapImage { return v.heat[p] }

// HeatmapNote says what the heatmaps show: the part of the plane, the
// downsampling, how the difference was formed.
func (v *PairView) HeatmapNote() string { return v.heatNote }

func (v *PairView) idle() bool {
	return v.loadTask == nil && v.heatTask == nil && v.histTask == nil
}

// close cancels the pair's work.
func (v *PairView) close() {
	for _, t := range []*viewmodel.Task{v.loadTask, v.heatTask, v.histTask} {
		t.Cancel()
	}
	v.loadTask, v.heatTask, v.histTask = nil, nil, nil
	for _, job := range []string{"Loading", "Heatmaps", "Histograms"} {
		delete(v.c.progress, job)
	}
}
