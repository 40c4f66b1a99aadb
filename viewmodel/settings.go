package viewmodel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"tensorscope/tensor"
)

// InspectorSettings are the inspector's choices as one value: what the GUI's
// controls, the render command's flags and the compare view set. Each
// setter checks its input, once, for all of them; the zero value is not
// valid, start from DefaultInspectorSettings. Axes and Index depend on the
// tensor's shape, so Inspector.Apply checks them against it.
type InspectorSettings struct {
	Axes       []int       // heatmap row and column axis; nil for the default plane (defaultAxes)
	Index      map[int]int // index each non-plotted axis is held at; missing: 0
	Colormap   *Colormap
	Range      RangeSetting // heatmap colours
	Reduction  tensor.Reduction
	HistBins   int
	HistLog    bool
	HistScope  HistScope
	HistRange  RangeSetting // the histogram's binned range: auto or manual
	Dequantise bool
	// VectorAsHeatmap draws a vector (one axis longer than 1) as a heatmap
	// strip instead of a plot of value against index.
	VectorAsHeatmap bool
	Expr            string // the expression the tensor is seen through (see ViewExpr); "": its default view

	expr *ViewExpr // Expr parsed, by SetExpr
}

// SetExpr sets the expression the tensor is seen through, "" for its
// default view (checked against the tensor when applied).
func (s *InspectorSettings) SetExpr(src string) error {
	if strings.TrimSpace(src) == "" {
		s.Expr, s.expr = "", nil
		return nil
	}
	e, err := ParseViewExpr(src)
	if err != nil {
		return err
	}
	s.Expr, s.expr = e.String(), e
	return nil
}

// RangeSetting is a range mode with the manual bounds.
type RangeSetting struct {
	Mode   RangeMode
	Lo, Hi float64 // RangeManual only
}

// Limits of the histogram's bin count.
const (
	MinHistBins = 1
	MaxHistBins = 4096
)

// DefaultInspectorSettings are what a new inspector shows.
func DefaultInspectorSettings() InspectorSettings {
	return InspectorSettings{Colormap: Colormaps[0], Reduction: Reductions[0], HistBins: DefaultHistBins}
}

// SetColormap chooses a colour map by its full name ("coolwarm
// (diverging)"), its first word ("coolwarm") or gray/grey, in any case.
func (s *InspectorSettings) SetColormap(name string) error {
	key := strings.ToLower(strings.TrimSpace(name))
	switch key {
	case "gray", "grey", "greyscale":
		key = "grayscale"
	}
	for _, c := range Colormaps {
		if key == strings.ToLower(c.Name) || key == ColormapKey(c) {
			s.Colormap = c
			return nil
		}
	}
	return fmt.Errorf("unknown colour map %q (choose %s)", name, strings.Join(ColormapKeys(), ", "))
}

// ColormapKey is a colour map's short name, its first word: "coolwarm".
func ColormapKey(c *Colormap) string { return strings.ToLower(strings.Fields(c.Name)[0]) }

// ColormapKeys are the short names of Colormaps.
func ColormapKeys() []string {
	out := make([]string, len(Colormaps))
	for i, c := range Colormaps {
		out[i] = ColormapKey(c)
	}
	return out
}

// SetRange sets the heatmap's colour range.
func (s *InspectorSettings) SetRange(mode RangeMode, lo, hi float64) error {
	r, err := checkRange(mode, lo, hi)
	if err == nil {
		s.Range = r
	}
	return err
}

// SetHistRange sets the histogram's binned range: automatic or manual.
func (s *InspectorSettings) SetHistRange(mode RangeMode, lo, hi float64) error {
	if mode == RangeSymmetric || mode == RangeSlice {
		return fmt.Errorf("a histogram's range is auto or LO,HI, not %s", RangeModeNames[mode])
	}
	r, err := checkRange(mode, lo, hi)
	if err == nil {
		s.HistRange = r
	}
	return err
}

func checkRange(mode RangeMode, lo, hi float64) (RangeSetting, error) {
	switch mode {
	case RangeAuto, RangeSymmetric, RangeSlice:
		return RangeSetting{Mode: mode}, nil
	case RangeManual:
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo < hi) {
			return RangeSetting{}, fmt.Errorf("the range needs finite bounds, low below high (got %g, %g)", lo, hi)
		}
		return RangeSetting{Mode: mode, Lo: lo, Hi: hi}, nil
	}
	return RangeSetting{}, fmt.Errorf("no range mode %d", mode)
}

// SetReduction chooses how a downsampled cell combines values, by name
// (see ReductionNames).
func (s *InspectorSettings) SetReduction(name string) error {
	i := slices.Index(ReductionNames, strings.ToLower(strings.TrimSpace(name)))
	if i < 0 {
		return fmt.Errorf("unknown reduction %q (choose %s)", name, strings.Join(ReductionNames, ", "))
	}
	s.Reduction = Reductions[i]
	return nil
}

// SetHistBins sets the histogram's bin count.
func (s *InspectorSettings) SetHistBins(n int) error {
	if err := checkBins(n); err != nil {
		return err
	}
	s.HistBins = n
	return nil
}

func checkBins(n int) error {
	if n < MinHistBins || n > MaxHistBins {
		return fmt.Errorf("bins must be %d–%d, not %d", MinHistBins, MaxHistBins, n)
	}
	return nil
}

// SetAxes chooses the heatmap's row and column axes (checked against the
// tensor's rank when applied).
func (s *InspectorSettings) SetAxes(row, col int) error {
	if row < 0 || col < 0 {
		return fmt.Errorf("axes are numbered from 0, not %d,%d", row, col)
	}
	if row == col {
		return errors.New("rows and columns need two different axes")
	}
	s.Axes = []int{row, col}
	return nil
}

// SetIndex holds a non-plotted axis at index (checked against the
// tensor's shape when applied).
func (s *InspectorSettings) SetIndex(axis, index int) error {
	if axis < 0 || index < 0 {
		return fmt.Errorf("want an axis and an index from 0, not %d=%d", axis, index)
	}
	if _, dup := s.Index[axis]; dup {
		return fmt.Errorf("axis %d is given twice", axis)
	}
	if s.Index == nil {
		s.Index = map[int]int{}
	}
	s.Index[axis] = index
	return nil
}

// CheckPlane checks Axes and Index against a tensor's shape and returns
// the row and column axes and the index of every axis.
func (s *InspectorSettings) CheckPlane(shape []int) (row, col int, fixed []int, err error) {
	rank := len(shape)
	row, col = planeAxes(shape, s.Index) // the documented default of Axes: nil
	if s.Axes != nil {
		if len(s.Axes) != 2 {
			return 0, 0, nil, fmt.Errorf("axes need a row and a column axis, not %v", s.Axes)
		}
		if rank < 2 {
			return 0, 0, nil, fmt.Errorf("a tensor of rank %d has no axes to choose", rank)
		}
		row, col = s.Axes[0], s.Axes[1]
		if row >= rank || col >= rank || row == col {
			return 0, 0, nil, fmt.Errorf("rows and columns need two different axes of %d (got %d,%d)", rank, row, col)
		}
	}
	fixed = make([]int, rank)
	axes := make([]int, 0, len(s.Index))
	for a := range s.Index {
		axes = append(axes, a)
	}
	slices.Sort(axes)
	for _, a := range axes {
		i := s.Index[a]
		switch {
		case a < 0 || a >= rank:
			return 0, 0, nil, fmt.Errorf("no axis %d in a tensor of rank %d", a, rank)
		case a == row || a == col:
			return 0, 0, nil, fmt.Errorf("axis %d is plotted; an index applies to the other axes", a)
		case i < 0 || i >= shape[a]:
			return 0, 0, nil, fmt.Errorf("index %d is outside axis %d of size %d", i, a, shape[a])
		}
		fixed[a] = i
	}
	return row, col, fixed, nil
}

// DefaultAxes are the plane of settings that name no axes, in the viewer,
// render and export alike: the tensor's two largest axes, in
// their order (ties go to the later axis, so a [3,5,5] tensor shows its last
// two). Singleton axes never make the plane while a larger one is left:
// [128,256,1,1] opens as 128×256, not 1×1. Rank 1 shows its only axis as
// columns.
func DefaultAxes(shape []int) (row, col int) { return planeAxes(shape, nil) }

// planeAxes is defaultAxes among the axes that held does not hold at an
// index: `render --index 0=5` shows the two largest of the others.
func planeAxes(shape []int, held map[int]int) (row, col int) {
	switch rank := len(shape); {
	case rank == 1:
		return -1, 0
	case rank == 0:
		return -1, -1
	}
	order := make([]int, 0, len(shape))
	for i := range shape {
		if _, ok := held[i]; !ok {
			order = append(order, i)
		}
	}
	if len(order) < 2 {
		return len(shape) - 2, len(shape) - 1 // nothing left to choose: the check names the clash
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if shape[a] != shape[b] {
			return shape[b] - shape[a] // larger first
		}
		return b - a // later first among equals
	})
	return min(order[0], order[1]), max(order[0], order[1])
}

// Settings returns the inspector's current choices. Axes and Index are
// those of the shown tensor (nil before one is loaded).
func (in *Inspector) Settings() InspectorSettings {
	h, g := &in.heat, &in.hist
	s := InspectorSettings{Colormap: h.cmap, Range: RangeSetting{h.rangeMode, h.lo, h.hi},
		Reduction: Reductions[h.reduction], HistBins: g.bins, HistLog: g.log, HistScope: g.scope,
		HistRange: RangeSetting{g.rangeMode, g.lo, g.hi}, Dequantise: in.dequant,
		VectorAsHeatmap: in.line.asHeatmap}
	if e := in.view.inEffect; e != nil {
		s.Expr, s.expr = e.String(), e
	}
	if h.t != nil {
		s.Axes = []int{h.rowAxis, h.colAxis}
		for a, i := range h.fixed {
			if a != h.rowAxis && a != h.colAxis && i != 0 {
				if s.Index == nil {
					s.Index = map[int]int{}
				}
				s.Index[a] = i
			}
		}
		if h.t.Rank() < 2 {
			s.Axes = nil
		}
	}
	return s
}

// Apply makes s the inspector's settings: the shown tensor's, and those
// each tensor shown later starts from until it has settings of its own
// (what the render command's flags give). The plane (Axes, Index) applies
// to the shown tensor once it is loaded; when it does not fit the tensor's
// shape, SettingsErr says why and the default plane is shown.
func (in *Inspector) Apply(s InspectorSettings) {
	in.choose(s)
	in.plane, in.planeQuiet = &s, false
	in.perTensor.base = &s
	in.settingsErr = nil
	in.changed(ChangedSettings)
	if s.Dequantise != in.dequant {
		in.SetDequantised(s.Dequantise) // reloads; the plane applies then
		if in.loadTask != nil {
			return
		}
	}
	if in.shown == nil {
		in.changed(ChangedHeatmap | ChangedHistogram)
		return
	}
	in.view.chosen = nil // the settings' expression (or default) rules now
	if in.reshowView() {
		in.applyPlane()
		in.restartOnView()
		return
	}
	in.applyPlane()
	in.startHeatmap()
	in.startHistogram()
	in.startLinePlot()
}

// choose takes the choices of s other than the plane and dequantisation,
// without computing anything.
func (in *Inspector) choose(s InspectorSettings) {
	if s.Colormap != nil {
		in.heat.cmap = s.Colormap
	}
	h := &in.heat
	h.rangeMode, h.lo, h.hi = s.Range.Mode, s.Range.Lo, s.Range.Hi
	if i := slices.Index(Reductions, s.Reduction); i >= 0 {
		h.reduction = i
	}
	g := &in.hist
	if checkBins(s.HistBins) == nil {
		g.bins = s.HistBins
	}
	g.log, g.scope = s.HistLog, s.HistScope
	g.rangeMode, g.lo, g.hi = s.HistRange.Mode, s.HistRange.Lo, s.HistRange.Hi
	in.line.asHeatmap = s.VectorAsHeatmap
}

// reshowView shows the loaded tensor through the view the settings now
// ask for, if that is another; it reports whether the view changed.
func (in *Inspector) reshowView() bool {
	if in.view.loaded == nil {
		return false
	}
	e := in.viewToShow()
	if e.text() == in.Expr() {
		return false
	}
	if err := in.showThrough(e); err != nil {
		in.settingsErr = err
		in.showThrough(nil)
	}
	return true
}

// applyPlane sets the heatmap's plane from the last applied settings.
func (in *Inspector) applyPlane() {
	if in.plane == nil || in.heat.t == nil || in.Empty() {
		return
	}
	row, col, fixed, err := in.plane.CheckPlane(in.heat.t.Shape())
	if err != nil {
		if !in.planeQuiet {
			in.settingsErr = err
		}
		return
	}
	h := &in.heat
	h.rowAxis, h.colAxis, h.fixed = row, col, fixed
	h.makePlane()
}

// SettingsErr says why the last applied plane does not fit the tensor.
func (in *Inspector) SettingsErr() error { return in.settingsErr }

// Ready reports that the inspector has settled: the shown tensor is loaded
// (or failed to) and no computation is running or waiting to report.
// Headless rendering and the compare view wait for it.
func (in *Inspector) Ready() bool {
	return in.entry == nil || ((in.shown != nil || in.err != nil) && in.Idle())
}
