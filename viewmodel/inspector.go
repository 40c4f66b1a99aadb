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
	ChangedAll       = ChangedTensor | ChangedSummary | ChangedHeatmap | ChangedHistogram | ChangedProgress
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

	summary summaryResult
	heat    heatmapState
	hist    histogramState

	loadTask, summaryTask *Task
	progress              map[string]float64
	// started holds every task started and not known to have returned,
	// cancelled ones included: they may still be reading the tensor's
	// storage, so Close hands them all to whoever unmaps it.
	started []*Task
}

// NewInspector returns an empty inspector posting through post.
func NewInspector(post Poster) *Inspector {
	return &Inspector{post: post, index: -1, heat: newHeatmapState(), hist: newHistogramState(),
		progress: map[string]float64{}, part: tensor.Magnitude}
}

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
	in.stopAll()
	in.index, in.entry = index, e
	in.err, in.raw, in.shown = nil, nil, nil
	in.summary = summaryResult{}
	in.heat.reset()
	in.hist.reset()
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
	in.setProgress("Loading", 0)
	in.loadTask = StartTask(in.post, func(ctx context.Context, progress Progress) ([2]*tensor.Tensor, error) {
		raw, err := e.Load(formats.WithProgress(ctx, progress))
		if err == nil && raw != nil && raw.DType().IsComplex() {
			shown, err := raw.ComplexPart(part)
			return [2]*tensor.Tensor{raw, shown}, err
		}
		if err != nil || !dequant {
			return [2]*tensor.Tensor{raw, raw}, err
		}
		q := e.Quant
		deq, err := tensor.Dequantize(ctx, raw, q.Scales, q.ZeroPoints, q.Axis)
		return [2]*tensor.Tensor{raw, deq}, err
	}, func(frac float64) { in.setProgress("Loading", frac) }, func(ts [2]*tensor.Tensor, err error) {
		in.loadTask = nil
		in.clearProgress("Loading")
		if err != nil {
			in.err = err
			in.changed(ChangedTensor | ChangedProgress)
			return
		}
		in.raw, in.shown = ts[0], ts[1]
		in.heat.setTensor(in.shown)
		in.changed(ChangedTensor)
		in.startSummary()
		in.startHeatmap()
	})
	in.track(in.loadTask)
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

// Close cancels all background work and returns every task that may still
// be running, cancelled earlier ones included, so the caller can wait for
// them before releasing the tensor's storage.
func (in *Inspector) Close() []*Task {
	in.stopAll()
	in.track(nil)
	return append([]*Task(nil), in.started...)
}

// track remembers t (if not nil) and forgets tasks that have returned.
func (in *Inspector) track(t *Task) {
	keep := in.started[:0]
	for _, s := range in.started {
		if !s.Finished() {
			keep = append(keep, s)
		}
	}
	in.started = keep
	if t != nil {
		in.started = append(in.started, t)
	}
}

func (in *Inspector) tasks() []*Task {
	var out []*Task
	for _, t := range []*Task{in.loadTask, in.summaryTask, in.heat.task, in.hist.task, in.text.task} {
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
	in.loadTask, in.summaryTask, in.heat.task, in.hist.task, in.text.task = nil, nil, nil, nil, nil
	for k := range in.progress {
		delete(in.progress, k)
	}
}
