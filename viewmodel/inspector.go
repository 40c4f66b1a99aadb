package viewmodel

import (
	"context"
	"errors"
	"fmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Change says which parts of the inspector changed, so the UI refreshes
// only those.
type Change uint

const (
	ChangedTensor    Change = 1 << iota // a new tensor is shown, or loading it failed
	ChangedSummary                      // statistics and percentiles
	ChangedHeatmap                      // the heatmap image or its settings
	ChangedHistogram                    // the histogram or its settings
	ChangedProgress                     // progress of background work
	ChangedSettings                     // the settings were applied as a whole (Apply)
	ChangedAll       = ChangedTensor | ChangedSummary | ChangedHeatmap | ChangedHistogram | ChangedProgress | ChangedSettings
)

// Inspector is the state of the tensor inspector: the shown tensor, its
// summary, heatmap and histogram settings and results. Every computation
// over tensor data runs in the background and is cancelled when the
// selection changes; results arrive through the Poster. Methods run on the
// UI goroutine.
type Inspector struct {
	post     Poster
	OnChange func(Change)

	index   int
	entry   *formats.TensorEntry
	err     error
	raw     *tensor.Tensor // values as stored
	shown   *tensor.Tensor // raw, or dequantised
	dequant bool
	part    tensor.ComplexPart // the real view of a complex tensor
	text    textState          // elements shown as text (strings, records)
	view    tensorView         // the expression shown and raw are seen through (tensorview.go)

	summary summaryResult
	heat    heatmapState
	hist    histogramState
	line    linePlotState // vectors: value against index

	loadTask, summaryTask *Task
	progress              map[string]float64
	// doc holds the shown tensors' bytes: every task acquires it, so that
	// closing it never unmaps a file under a running computation.
	doc *formats.Document

	// plane is the settings whose axes and indices apply to the tensor
	// being loaded; settingsErr says why they did not fit, unless
	// planeQuiet (a tensor's remembered or pinned plane, which applies only
	// where it fits).
	plane       *InspectorSettings
	planeQuiet  bool
	settingsErr error
	perTensor   perTensorSettings

	// pendingPlace is applied when the tensor being loaded arrives: the
	// plane and zoom the user had before a reload.
	pendingPlace *tensorPlace
}

// NewInspector returns an empty inspector posting through post.
func NewInspector(post Poster) *Inspector {
	return &Inspector{post: post, index: -1, heat: newHeatmapState(), hist: newHistogramState(),
		line: newLinePlotState(), progress: map[string]float64{}, part: tensor.Magnitude}
}

// setDocument names the document whose tensors are shown (nil for
// entries that belong to none, in tests).
func (in *Inspector) setDocument(d *formats.Document) { in.doc = d }

func (in *Inspector) changed(c Change) {
	if in.OnChange != nil {
		in.OnChange(c)
	}
}

// Show selects the document tensor index (entry e) and starts loading it.
func (in *Inspector) Show(index int, e *formats.TensorEntry) {
	if index == in.index && e == in.entry {
		return
	}
	in.leaveTensor()
	in.stopAll()
	in.pendingPlace = nil
	in.index, in.entry = index, e
	in.enterTensor()
	in.err, in.raw, in.shown = nil, nil, nil
	in.view = tensorView{}
	in.summary = summaryResult{}
	in.heat.reset()
	in.hist.reset()
	in.line.reset()
	in.text = textState{}
	in.changed(ChangedAll)
	if e == nil {
		return
	}
	if e.HasText() && !e.HasData() {
		in.showText()
		return
	}
	if !e.HasData() {
		msg := "the file holds no data for this tensor"
		if e.Note != "" {
			msg = e.Note
		}
		in.err = errors.New(msg)
		in.changed(ChangedTensor)
		return
	}
	if !e.DType.Numeric() && !e.DType.IsComplex() {
		in.err = fmt.Errorf("%s values cannot be plotted", e.TypeString())
		in.changed(ChangedTensor)
		return
	}
	in.load()
}

// Clear shows nothing.
func (in *Inspector) Clear() { in.Show(-1, nil) }

func (in *Inspector) load() {
	e, dequant, part := in.entry, in.dequant && in.entry.Quant != nil, in.part
	job := "Loading"
	if note := e.RemoteReadNote(); note != "" { // "Reading all 1.0 GiB of tensor … from the server"
		job = note
	}
	in.setProgress(job, 0)
	in.loadTask = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) ([2]*tensor.Tensor, error) {
		raw, err := e.Load(formats.WithProgress(ctx, progress))
		if err == nil && raw != nil && raw.DType().IsComplex() {
			shown, err := raw.ComplexPart(part)
			return [2]*tensor.Tensor{raw, shown}, err
		}
		if err != nil || !dequant {
			return [2]*tensor.Tensor{raw, raw}, err
		}
		deq, err := dequantise(ctx, raw, e.Quant)
		return [2]*tensor.Tensor{raw, deq}, err
	}, func(frac float64) { in.setProgress(job, frac) }, func(ts [2]*tensor.Tensor, err error) {
		in.loadTask = nil
		in.clearProgress(job)
		if err != nil {
			in.err = err
			in.changed(ChangedTensor | ChangedProgress)
			return
		}
		in.setLoaded(ts[0], ts[1])
		in.applyPlane()
		in.applyPendingPlace()
		in.changed(ChangedTensor)
		in.startSummary()
		in.startHeatmap()
		in.startLinePlot()
	})
}

// dequantise gives a quantised tensor's real values: the stored integers
// scaled, or, for a float weight the model quantises when it runs, the
// values it computes with after quantising and dequantising.
func dequantise(ctx context.Context, raw *tensor.Tensor, q *formats.Quant) (*tensor.Tensor, error) {
	if q.Target.Valid() && raw.DType().IsFloat() {
		return tensor.FakeQuantize(ctx, raw, q.Scales, q.ZeroPoints, q.Axis, q.Target)
	}
	return tensor.Dequantize(ctx, raw, q.Scales, q.ZeroPoints, q.Axis)
}

// Index is the document index of the shown tensor, -1 for none.
func (in *Inspector) Index() int { return in.index }

// Entry is the shown tensor's entry, or nil.
func (in *Inspector) Entry() *formats.TensorEntry { return in.entry }

// Tensor is the tensor whose values are shown (dequantised when chosen),
// nil while loading or on error.
func (in *Inspector) Tensor() *tensor.Tensor { return in.shown }

// Err is why the tensor cannot be shown, or nil.
func (in *Inspector) Err() error { return in.err }

// Quantised reports whether the tensor has quantisation parameters, so
// that the UI offers "stored / dequantised".
func (in *Inspector) Quantised() bool { return in.entry != nil && in.entry.Quant != nil }

// Dequantised reports whether values are shown dequantised.
func (in *Inspector) Dequantised() bool { return in.dequant }

// SetDequantised switches between stored integers and real values.
func (in *Inspector) SetDequantised(on bool) {
	if on == in.dequant {
		return
	}
	in.dequant = on
	if !in.Quantised() || in.raw == nil {
		return
	}
	in.stopAll()
	in.summary = summaryResult{}
	in.heat.reset()
	in.hist.reset()
	in.line.reset()
	in.load()
}

// Busy returns the running jobs and their progress in [0,1].
func (in *Inspector) Busy() map[string]float64 { return in.progress }

func (in *Inspector) setProgress(job string, frac float64) {
	in.progress[job] = frac
	in.changed(ChangedProgress)
}

func (in *Inspector) clearProgress(job string) {
	delete(in.progress, job)
	in.changed(ChangedProgress)
}

// Idle reports that no background work is running or waiting to report.
func (in *Inspector) Idle() bool { return len(in.tasks()) == 0 }

// Close cancels all background work. Work still returning holds the
// document (see formats.Document.Acquire), so the owner may close it now.
func (in *Inspector) Close() { in.stopAll() }

func (in *Inspector) tasks() []*Task {
	var out []*Task
	for _, t := range []*Task{in.loadTask, in.summaryTask, in.heat.task, in.hist.task, in.line.task, in.text.task} {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

func (in *Inspector) stopAll() {
	for _, t := range in.tasks() {
		t.Cancel()
	}
	in.loadTask, in.summaryTask, in.heat.task, in.hist.task, in.line.task, in.text.task = nil, nil, nil, nil, nil, nil
	for k := range in.progress {
		delete(in.progress, k)
	}
}
