package viewmodel

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"

	"tensorscope/formats"
	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

// Overview is the state of a document's Overview tab: the model summary,
// computed once in the background under the document's lifetime (a reload
// makes a new Overview), the table's filter and sort, and the metric and
// block the fingerprint and the layer plot show. Methods run on the UI
// goroutine.
type Overview struct {
	// Model lists every summarised tensor at once; the figures of each
	// arrive as it is finished (Tensor.Done).
	Model *summary.Model
	// Headline is the model's metadata worth seeing first.
	Headline string

	Progress  float64 // of the computation, in [0,1]
	Running   bool
	Cancelled bool
	Err       error
	// Deferred says why the summary has not started: it would read every
	// tensor of a remote document from the server. Start starts it.
	Deferred string

	Metric summary.Metric
	Block  int // index in Model.Blocks; -1 when there are none

	filter   string
	sortCol  OverviewColumn
	sortDesc bool
	rows     []int // Model.Tensors indices shown, in order

	// OnChange is called after the state changes (figures arriving,
	// progress, filter, sort).
	OnChange func()

	doc       *Doc
	task      *Task
	listeners []func()
}

// OverviewColumn is a column of the Overview's table.
type OverviewColumn int

const (
	OverviewName OverviewColumn = iota
	OverviewDType
	OverviewShape
	OverviewParams
	OverviewStd
	OverviewAbsMax
	OverviewKurtosis
	OverviewOutlier
	OverviewZeros
	OverviewDeadRows
	OverviewFlags
)

// OverviewColumns are the table's headings.
var OverviewColumns = []string{"name", "dtype", "shape", "params", "std", "absmax", "kurtosis", "outlier", "zeros", "dead rows", "flags"}

// HasOverview reports whether the document gets an Overview tab: files
// with more than one tensor.
func (d *Doc) HasOverview() bool { return len(d.Doc.Tensors) > 1 }

// Overview returns the document's Overview, starting its computation the
// first time it is asked for. Switching tabs asks again and gets the same
// one; a reload makes a new one.
func (d *Doc) Overview() *Overview {
	if d.overview != nil && d.overviewOf == d.Doc {
		return d.overview
	}
	o := &Overview{doc: d, Model: summary.New(d.Doc), Headline: summary.Headline(d.Doc), Block: -1}
	o.Block = o.Model.LargestBlock()
	d.overview, d.overviewOf = o, d.Doc
	o.refilter()
	if b := o.Model.Totals.Bytes; d.Doc.Remote() && b >= formats.RemoteNoteMin {
		o.Deferred = "Summarising reads all " + textfmt.Bytes(b) + " of the tensors from the server"
	} else {
		o.Start()
	}
	return o
}

// Start computes the summary in the background (again, after Cancel).
func (o *Overview) Start() {
	if o.Running {
		return
	}
	d := o.doc
	o.Running, o.Cancelled, o.Err, o.Progress, o.Deferred = true, false, nil, 0, ""
	post := d.post
	o.task = Go(d, func(ctx context.Context, progress Progress) (*summary.Model, error) {
		m := summary.New(d.Doc)
		// Finished tensors reach the UI in batches: one post at a time,
		// taking everything that finished since, so that a slow UI never
		// falls behind by more than one update.
		var (
			mu      sync.Mutex
			pending []arrival
			posted  bool
		)
		flush := func() {
			mu.Lock()
			batch := pending
			pending, posted = nil, false
			mu.Unlock()
			o.arrived(batch)
		}
		err := m.Compute(ctx, d.Doc, progress, func(i int) {
			a := arrival{i, *m.Tensors[i]} // the worker is done with it
			mu.Lock()
			pending = append(pending, a)
			if !posted {
				posted = true
				post(flush)
			}
			mu.Unlock()
		})
		return m, err
	}, func(f float64) {
		o.Progress = f
		o.changed()
	}, func(m *summary.Model, err error) {
		o.task = nil
		o.Running = false
		if err != nil {
			if errors.Is(err, context.Canceled) {
				o.Cancelled = true
			} else {
				o.Err = err
			}
			o.changed()
			return
		}
		for i, t := range m.Tensors {
			*o.Model.Tensors[i] = *t
		}
		o.Progress = 1
		o.resort()
		o.changed()
	})
	o.changed()
}

// arrival is a finished tensor's figures, Model.Tensors[i].
type arrival struct {
	i int
	t summary.Tensor
}

// arrived stores finished tensors' figures.
func (o *Overview) arrived(batch []arrival) {
	stored := false
	for _, a := range batch {
		if a.i < len(o.Model.Tensors) && o.Model.Tensors[a.i].Name == a.t.Name {
			*o.Model.Tensors[a.i] = a.t
			stored = true
		}
	}
	if stored {
		if o.sortCol != OverviewName {
			o.resort()
		}
		o.changed()
	}
}

// Cancel stops the computation; Start resumes it from the beginning.
func (o *Overview) Cancel() {
	if o.task != nil {
		o.task.Cancel()
		o.task = nil
		o.Running, o.Cancelled = false, true
		o.changed()
	}
}

func (o *Overview) changed() {
	if o.OnChange != nil {
		o.OnChange()
	}
	for _, f := range o.listeners {
		f()
	}
}

// AddListener calls f, besides OnChange, after every change (the graph's
// colours follow the figures as they arrive).
func (o *Overview) AddListener(f func()) { o.listeners = append(o.listeners, f) }

// Done counts the tensors whose figures are in.
func (o *Overview) Done() int {
	n := 0
	for _, t := range o.Model.Tensors {
		if t.Done {
			n++
		}
	}
	return n
}

// SetFilter shows only tensors whose name (or a flag) contains s, case
// folded.
func (o *Overview) SetFilter(s string) {
	o.filter = s
	o.refilter()
	o.changed()
}

// Filter is the table's filter text.
func (o *Overview) Filter() string { return o.filter }

// SortBy sorts the table by column c; sorting by the same column again
// reverses the order. Undefined figures sort last either way.
func (o *Overview) SortBy(c OverviewColumn) {
	if o.sortCol == c {
		o.sortDesc = !o.sortDesc
	} else {
		o.sortCol, o.sortDesc = c, c != OverviewName && c != OverviewDType && c != OverviewShape
	}
	o.resort()
	o.changed()
}

// Sort returns the sort column and direction.
func (o *Overview) Sort() (OverviewColumn, bool) { return o.sortCol, o.sortDesc }

// Rows are the Model.Tensors indices the table shows, in order.
func (o *Overview) Rows() []int { return o.rows }

func (o *Overview) refilter() {
	f := strings.ToLower(o.filter)
	o.rows = o.rows[:0]
	for i, t := range o.Model.Tensors {
		if f == "" || strings.Contains(strings.ToLower(t.Name), f) || slices.Contains(t.Flags, f) {
			o.rows = append(o.rows, i)
		}
	}
	o.resort()
}

func (o *Overview) resort() {
	ts := o.Model.Tensors
	key := func(i int) float64 {
		t := ts[i]
		if !t.Done && o.sortCol >= OverviewStd {
			return math.NaN()
		}
		switch o.sortCol {
		case OverviewParams:
			return float64(t.Params)
		case OverviewStd:
			return t.Value(summary.MetricStd)
		case OverviewAbsMax:
			return t.Value(summary.MetricAbsMax)
		case OverviewKurtosis:
			return t.Kurtosis
		case OverviewOutlier:
			return t.OutlierRatio
		case OverviewZeros:
			return float64(t.Zeros)
		case OverviewDeadRows:
			return float64(t.DeadRows)
		case OverviewFlags:
			return float64(len(t.Flags))
		}
		return 0
	}
	slices.SortStableFunc(o.rows, func(a, b int) int {
		var c int
		switch o.sortCol {
		case OverviewName:
			c = strings.Compare(ts[a].Name, ts[b].Name)
		case OverviewDType:
			c = strings.Compare(ts[a].DType, ts[b].DType)
		case OverviewShape:
			c = slices.Compare(ts[a].Shape, ts[b].Shape)
		default:
			ka, kb := key(a), key(b)
			switch {
			case math.IsNaN(ka) && math.IsNaN(kb):
				return a - b
			case math.IsNaN(ka):
				return 1
			case math.IsNaN(kb):
				return -1
			case ka < kb:
				c = -1
			case ka > kb:
				c = 1
			}
		}
		if o.sortDesc {
			c = -c
		}
		if c == 0 {
			return a - b
		}
		return c
	})
}

// SetMetric chooses the metric of the fingerprint and the layer plot.
func (o *Overview) SetMetric(m summary.Metric) {
	o.Metric = m
	o.changed()
}

// SetBlock chooses the block (index in Model.Blocks) shown.
func (o *Overview) SetBlock(b int) {
	if b >= 0 && b < len(o.Model.Blocks) {
		o.Block = b
		o.changed()
	}
}

// Fingerprint is the chosen block's grid, nil without blocks.
func (o *Overview) Fingerprint() *summary.Fingerprint {
	if o.Block < 0 {
		return nil
	}
	return o.Model.Fingerprint(o.Block, o.Metric)
}

// Layers are the chosen block's series, nil without blocks.
func (o *Overview) Layers() []summary.Series {
	if o.Block < 0 {
		return nil
	}
	return o.Model.Layers(o.Block, o.Metric)
}

// DocIndex is the document index of Model.Tensors[i], for the inspector.
func (o *Overview) DocIndex(i int) int {
	name := o.Model.Tensors[i].Name
	for k, e := range o.doc.Doc.Tensors {
		if e.Name == name {
			return k
		}
	}
	return -1
}

// IndexOf is the Model.Tensors index of t, -1 when it is not there.
func (o *Overview) IndexOf(t *summary.Tensor) int {
	return slices.Index(o.Model.Tensors, t)
}
