package viewmodel

import (
	"errors"
	"strings"

	"tensorscope/tensor"
)

// MosaicExpr is the view that tiles every kernel of a conv weight
// [O,I,kh,kw]: O·kh rows by I·kw columns, kernel (o, i) at rows
// o·kh.., columns i·kw... It is a composite view (tensor.DimMerge), not a
// copy.
const MosaicExpr = "w.permute(0,2,1,3).merge(0,1).merge(1,2)"

// maxMosaicKernel is the largest kernel side that opens as a mosaic; a
// tensor with larger trailing axes is an image or feature map, better seen
// one plane at a time.
const maxMosaicKernel = 11

var mosaicExpr = func() *ViewExpr {
	e, err := ParseViewExpr(MosaicExpr)
	if err != nil {
		panic(err)
	}
	return e
}()

// opensAsMosaic reports whether a tensor looks like conv weights, which
// open as a mosaic: 4-D reals (floats, or quantised integers, whether shown
// stored or dequantised) whose last two axes are a small kernel. A 1×1
// kernel is left to the two-largest-axes plane ([O,I,1,1] → O×I).
func opensAsMosaic(real bool, shape []int) bool {
	if len(shape) != 4 || !real {
		return false
	}
	for _, d := range shape {
		if d < 1 {
			return false
		}
	}
	kh, kw := shape[2], shape[3]
	return kh <= maxMosaicKernel && kw <= maxMosaicKernel && kh*kw > 1
}

// tensorView is the expression the loaded tensor is seen through.
type tensorView struct {
	loadedRaw, loaded *tensor.Tensor // as loaded: stored, and shown (dequantised or a complex part)
	chosen            *ViewExpr      // the user's for this tensor; nil: the default
	inEffect          *ViewExpr      // what is shown; nil: the tensor itself
	toSource          IndexMap       // inEffect's indices → the tensor's
}

// setLoaded takes the tensors a load produced and shows them through the
// view in effect.
func (in *Inspector) setLoaded(raw, shown *tensor.Tensor) {
	in.view.loadedRaw, in.view.loaded = raw, shown
	if err := in.showThrough(in.viewToShow()); err != nil {
		// A remembered or pinned expression that does not fit this
		// tensor is dropped silently, as a plane is; one the user or the
		// command line gave is reported.
		if !in.planeQuiet {
			in.settingsErr = err
		}
		if in.showThrough(in.defaultView()) != nil {
			in.showThrough(nil)
		}
	}
}

// viewToShow is the user's expression, else the applied settings', else
// the tensor's default: the mosaic for conv weights, unless the settings
// name a plane of the tensor itself.
func (in *Inspector) viewToShow() *ViewExpr {
	if in.view.chosen != nil {
		return in.view.chosen
	}
	if in.plane != nil && in.plane.expr != nil {
		return in.plane.expr
	}
	if in.plane != nil && (in.plane.Axes != nil || len(in.plane.Index) > 0) {
		return nil
	}
	return in.defaultView()
}

// defaultView is how a tensor opens without settings of its own: the
// mosaic for conv weights, the tensor itself otherwise.
func (in *Inspector) defaultView() *ViewExpr {
	if t := in.view.loaded; t != nil && opensAsMosaic(t.DType().IsFloat() || in.Quantised(), t.Shape()) {
		return mosaicExpr
	}
	return nil
}

// showThrough makes in.shown and in.raw the loaded tensors seen through e
// and gives the heatmap the result. On error nothing changes.
func (in *Inspector) showThrough(e *ViewExpr) error {
	raw, shown, toSource := in.view.loadedRaw, in.view.loaded, IndexMap(nil)
	if e != nil {
		var err error
		if shown, toSource, err = e.Apply(in.view.loaded); err != nil {
			return err
		}
		if in.view.loadedRaw == in.view.loaded {
			raw = shown
		} else if raw, _, err = e.Apply(in.view.loadedRaw); err != nil {
			return err
		}
	}
	in.raw, in.shown = raw, shown
	in.view.inEffect, in.view.toSource = e, toSource
	in.heat.mosaic = [2]int{}
	if e.text() == MosaicExpr { // however it came: default, settings or typed
		s := in.view.loaded.Shape()
		in.heat.mosaic = [2]int{s[2], s[3]}
	}
	in.heat.setTensor(shown)
	return nil
}

// Expr is the expression the tensor is shown through, "" for the tensor
// itself.
func (in *Inspector) Expr() string {
	if in.view.inEffect == nil {
		return ""
	}
	return in.view.inEffect.String()
}

// CanMosaic reports whether the shown tensor can be seen as a mosaic of
// kernels that says more than a plane, so that the UI offers the choice:
// it is 4-D [O,I,kh,kw], holds more than one kernel of more than one
// value, and its kernels are not rows of one column of kernels (kh = 1,
// I = 1) or columns of one row (kw = 1, O = 1), whose mosaic is just the
// plane with lines through it. A mosaic in effect stays offered, to be
// turned off.
func (in *Inspector) CanMosaic() bool {
	t := in.view.loaded
	if t == nil || t.Rank() != 4 {
		return false
	}
	if in.Expr() == MosaicExpr {
		return true
	}
	s := t.Shape()
	o, i, kh, kw := s[0], s[1], s[2], s[3]
	return o*i > 1 && kh*kw > 1 && !(kh == 1 && i == 1) && !(kw == 1 && o == 1)
}

// SetExpr shows the tensor through the expression src ("" for its default
// view, "w" for the tensor itself). A bad expression, or one that does not
// fit the tensor, is an error naming its column, and changes nothing.
func (in *Inspector) SetExpr(src string) error {
	var e *ViewExpr
	if strings.TrimSpace(src) != "" {
		var err error
		if e, err = ParseViewExpr(src); err != nil {
			return err
		}
	}
	if in.view.loaded == nil {
		if in.entry == nil || in.text.ready {
			return errors.New("no tensor is shown")
		}
		in.view.chosen = e // applies when the tensor has loaded
		return nil
	}
	old := in.view.chosen
	in.view.chosen = e
	if err := in.showThrough(in.viewToShow()); err != nil {
		in.view.chosen = old
		return err
	}
	in.restartOnView()
	return nil
}

// restartOnView recomputes everything over the newly shown view.
func (in *Inspector) restartOnView() {
	for _, t := range []*Task{in.summaryTask, in.heat.task, in.hist.task} {
		t.Cancel()
	}
	in.summaryTask, in.heat.task, in.hist.task = nil, nil, nil
	for _, job := range []string{"Statistics", "Heatmap", "Histogram"} {
		delete(in.progress, job)
	}
	in.summary = summaryResult{}
	in.hist.result, in.hist.err = nil, nil
	in.changed(ChangedTensor | ChangedSummary | ChangedHistogram | ChangedProgress)
	in.startSummary()
	in.startHeatmap()
	in.startLinePlot() // a view of one long axis is a vector: its plot
}

// sourceIndex is the tensor's index of the shown element at idx.
func (in *Inspector) sourceIndex(idx []int) []int {
	if in.view.toSource == nil {
		return idx
	}
	return in.view.toSource(idx)
}

// separators are the plane's block sizes along rows and columns, where the
// heatmap draws thin lines: a mosaic's kernel size, or the blocks of a
// composite axis (tensor.AxisBlock); 0 for none.
func (h *heatmapState) separators() (rows, cols int) {
	if h.plane == nil {
		return 0, 0
	}
	rows, cols = h.plane.AxisBlock(0), h.plane.AxisBlock(1)
	if h.showsKernels() {
		rows, cols = h.mosaic[0], h.mosaic[1]
	}
	return rows, cols
}

// showsKernels reports that the plane is a conv weight's mosaic: rows of
// output channels, columns of input channels.
func (h *heatmapState) showsKernels() bool {
	return h.mosaic[0] > 0 && h.rowAxis == 0 && h.colAxis == 1
}
