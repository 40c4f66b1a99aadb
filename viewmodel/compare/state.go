package compare

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Change says which parts of a comparison changed.
type Change uint

const (
	ChangedFigures    Change = 1 << iota // files opened, figures computed, or failure
	ChangedRows                          // the filter changed the listed pairs
	ChangedPair                          // another pair is selected, or its tensors loaded
	ChangedHeatmaps                      // the three heatmaps or their settings
	ChangedHistograms                    // the histograms
	ChangedProgress                      // progress of background work
	ChangedAll        = ChangedFigures | ChangedRows | ChangedPair |
		ChangedHeatmaps | ChangedHistograms | ChangedProgress
)

// Comparison is the state of a comparison tab: two files opened for it
// (so that closing either file's own tab does not unmap data it reads),
// their matched tensors with figures, the graph changes of two models, a
// filter over the pairs, and the selected pair's linked views. All work
// over tensor data runs in the background, cancellable; methods run on the
// UI goroutine.
type Comparison struct {
	post     viewmodel.Poster
	OnChange func(Change)

	srcA, srcB viewmodel.Source
	tol        Tolerance
	only       string // compare only A's tensor of this name ("" for all)
	docA, docB *formats.Document
	err        error

	matching Matching
	figures  []PairFigures // in A's order
	graph    *GraphDiff
	filter   string
	sort     pairSort
	rows     []int // indices into figures: filtered, in the sort's order

	progress map[string]float64
	openTask *viewmodel.Task
	owned    *ownedDocs

	pair *PairView
}

// ownedDocs are the documents a comparison opened. The opening task adds
// them as it opens them, so that a Close while it runs still closes them.
type ownedDocs struct {
	mu     sync.Mutex
	docs   []*formats.Document
	closed bool
}

// add keeps d, or closes it at once when the comparison was closed.
func (o *ownedDocs) add(d *formats.Document) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		d.Close()
		return formats.ErrClosed
	}
	o.docs = append(o.docs, d)
	return nil
}

// closeAll closes every document; each unmaps once its last user returns.
func (o *ownedDocs) closeAll() []*formats.Document {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for _, d := range o.docs {
		d.Close()
	}
	return o.docs
}

// NewComparison opens both sources in the background and compares every
// matched pair.
func NewComparison(post viewmodel.Poster, a, b viewmodel.Source, tol Tolerance) *Comparison {
	c := &Comparison{post: post, srcA: a, srcB: b, tol: tol, progress: map[string]float64{}, owned: &ownedDocs{}}
	c.start()
	return c
}

// NewPairComparison is NewComparison computing the figures of one pair
// only, the one named name in A — for drawing one pair without reading
// every tensor of two large models. The other tensors are still matched
// (Matching lists them) but not listed.
func NewPairComparison(post viewmodel.Poster, a, b viewmodel.Source, tol Tolerance, name string) *Comparison {
	c := &Comparison{post: post, srcA: a, srcB: b, tol: tol, only: name, progress: map[string]float64{}, owned: &ownedDocs{}}
	c.start()
	return c
}

// comparisonResult is what the opening task hands to the UI goroutine.
type comparisonResult struct {
	docA, docB *formats.Document
	matching   Matching
	figures    []PairFigures
	graph      *GraphDiff
}

func (c *Comparison) start() {
	a, b, tol, owned, only := c.srcA, c.srcB, c.tol, c.owned, c.only
	c.setProgress("Comparing", 0)
	c.openTask = viewmodel.StartTask(c.post, nil, func(ctx context.Context, progress viewmodel.Progress) (comparisonResult, error) {
		var r comparisonResult
		var err error
		if r.docA, err = openOwned(a, owned); err != nil {
			return r, err
		}
		if r.docB, err = openOwned(b, owned); err != nil {
			return r, err
		}
		err = r.docA.Run(ctx, func(ctx context.Context) error {
			return r.docB.Run(ctx, func(ctx context.Context) error {
				var err error
				if r.matching, err = MatchTensors(r.docA, r.docB, nil); err != nil {
					return err
				}
				if only != "" {
					r.matching.Pairs = onlyPair(r.matching.Pairs, only)
				}
				r.figures, err = compareAllPairs(ctx, r.matching.Pairs, tol, progress)
				return err
			})
		})
		if err != nil {
			return comparisonResult{}, err
		}
		if r.docA.Graph != nil && r.docB.Graph != nil {
			r.graph = DiffGraphs(r.docA.Graph, r.docB.Graph, nil)
		}
		return r, nil
	}, func(f float64) { c.setProgress("Comparing", f) }, func(r comparisonResult, err error) {
		c.openTask = nil
		c.clearProgress("Comparing")
		if err != nil {
			c.err = err
			c.changed(ChangedFigures)
			return
		}
		c.docA, c.docB = r.docA, r.docB
		c.matching, c.figures, c.graph = r.matching, r.figures, r.graph
		c.refilter()
		c.changed(ChangedFigures | ChangedRows)
	})
}

func onlyPair(pairs []TensorPair, name string) []TensorPair {
	for _, p := range pairs {
		if p.Name == name {
			return []TensorPair{p}
		}
	}
	return nil
}

// openOwned opens s and hands the document to owned.
func openOwned(s viewmodel.Source, owned *ownedDocs) (*formats.Document, error) {
	d, err := openSource(s)
	if err != nil {
		return nil, viewmodel.OpenError(s.Display(), err)
	}
	if err := owned.add(d); err != nil {
		return nil, err
	}
	return d, nil
}

func openSource(s viewmodel.Source) (*formats.Document, error) {
	if s.Path != "" {
		return formats.Open(s.Path)
	}
	return formats.OpenBytes(s.Name, s.Data)
}

// compareAllPairs compares the pairs in turn; progress counts the bytes of
// both files read so far.
func compareAllPairs(ctx context.Context, pairs []TensorPair, tol Tolerance, progress viewmodel.Progress) ([]PairFigures, error) {
	var total, finished int64
	for _, p := range pairs {
		total += PairBytes(p)
	}
	out := make([]PairFigures, 0, len(pairs))
	for _, p := range pairs {
		size := PairBytes(p)
		var inPair atomic.Int64
		f, err := ComparePair(ctx, p, tol, func(done, n int64) {
			if n > 0 && progress != nil {
				inPair.Store(size * done / n)
				progress(finished+inPair.Load(), max(total, 1))
			}
		})
		if err != nil {
			return nil, err
		}
		finished += size
		out = append(out, f)
	}
	return out, nil
}

func (c *Comparison) changed(ch Change) {
	if c.OnChange != nil {
		c.OnChange(ch)
	}
}

// Title names the comparison for its tab: "a.nn vs b.nn".
func (c *Comparison) Title() string {
	return sourceName(c.srcA) + " vs " + sourceName(c.srcB)
}

// Names are the two files' names, A's then B's.
func (c *Comparison) Names() (a, b string) { return sourceName(c.srcA), sourceName(c.srcB) }

func sourceName(s viewmodel.Source) string {
	d := s.Display()
	if i := strings.LastIndexAny(d, `/\`); i >= 0 {
		return d[i+1:]
	}
	return d
}

// Ready reports that both files are open and every pair compared.
func (c *Comparison) Ready() bool { return c.docA != nil }

// Err is why the comparison could not be made, or nil.
func (c *Comparison) Err() error { return c.err }

// Tolerance is the isclose tolerance of the over-tolerance counts.
func (c *Comparison) Tolerance() Tolerance { return c.tol }

// Sources are the two files compared, A then B.
func (c *Comparison) Sources() (a, b viewmodel.Source) { return c.srcA, c.srcB }

// Documents returns the two documents (nil until Ready).
func (c *Comparison) Documents() (a, b *formats.Document) { return c.docA, c.docB }

// Matching is how the tensors were paired.
func (c *Comparison) Matching() Matching { return c.matching }

// Figures are every pair's figures in A's order.
func (c *Comparison) Figures() []PairFigures { return c.figures }

// Graph is the comparison of two models' graphs, or nil.
func (c *Comparison) Graph() *GraphDiff { return c.graph }

// Summary is one line: how many pairs differ, what only one file has, and
// how the graphs differ.
func (c *Comparison) Summary() string {
	if c.err != nil {
		return c.err.Error()
	}
	if !c.Ready() {
		return "Comparing…"
	}
	within := 0
	for i := range c.figures {
		if c.figures[i].Within() {
			within++
		}
	}
	s := fmt.Sprintf("%s: %d within rtol=%g atol=%g, %d differ; %d only in A, %d only in B",
		textfmt.CountNoun(len(c.figures), "pair"), within, c.tol.RTol, c.tol.ATol, len(c.figures)-within, len(c.matching.OnlyA), len(c.matching.OnlyB))
	if g := c.graph; g != nil {
		if g.Same() {
			s += "; graphs: same nodes, ops and attributes"
		} else {
			s += fmt.Sprintf("; graphs: %s added, %d removed, %d changed", textfmt.CountNoun(len(g.Added), "node"), len(g.Removed), len(g.Changed))
		}
	}
	return s
}

// Filter is the text pairs are filtered by.
func (c *Comparison) Filter() string { return c.filter }

// SetFilter lists only pairs whose name contains text (case-insensitive).
func (c *Comparison) SetFilter(text string) {
	if text == c.filter {
		return
	}
	c.filter = text
	c.refilter()
	c.changed(ChangedRows)
}

func (c *Comparison) refilter() {
	needle := strings.ToLower(c.filter)
	c.rows = c.rows[:0]
	for _, i := range errorOrder(c.figures) {
		if needle == "" || strings.Contains(strings.ToLower(c.figures[i].Name), needle) {
			c.rows = append(c.rows, i)
		}
	}
	c.sortRows()
}

// Rows is the number of listed pairs.
func (c *Comparison) Rows() int { return len(c.rows) }

// Row returns the figures of listed row i.
func (c *Comparison) Row(i int) *PairFigures {
	if i < 0 || i >= len(c.rows) || c.rows[i] < 0 {
		return nil
	}
	return &c.figures[c.rows[i]]
}

// Select shows listed row i in the pair views (−1 for none).
func (c *Comparison) Select(i int) {
	f := c.Row(i)
	if c.pair != nil {
		if f != nil && c.pair.figures == f {
			return
		}
		c.pair.close()
		c.pair = nil
	}
	if f != nil {
		idx := c.rows[i]
		c.pair = newPairView(c, c.matching.Pairs[idx], f)
	}
	c.changed(ChangedPair | ChangedHeatmaps | ChangedHistograms)
}

// SelectName selects the listed pair named name, reporting whether there
// was one (headless rendering, tests).
func (c *Comparison) SelectName(name string) bool {
	for i := range c.rows {
		if f := c.Row(i); f != nil && f.Name == name {
			c.Select(i)
			return true
		}
	}
	return false
}

// Pair is the selected pair's view state, or nil.
func (c *Comparison) Pair() *PairView { return c.pair }

// Busy returns the running jobs and their progress in [0,1].
func (c *Comparison) Busy() map[string]float64 { return c.progress }

func (c *Comparison) setProgress(job string, frac float64) {
	c.progress[job] = frac
	c.changed(ChangedProgress)
}

func (c *Comparison) clearProgress(job string) {
	delete(c.progress, job)
	c.changed(ChangedProgress)
}

// Idle reports that no background work is running or waiting to report.
func (c *Comparison) Idle() bool {
	if c.openTask != nil {
		return false
	}
	return c.pair == nil || c.pair.idle()
}

// Close cancels all work and closes both files; each is unmapped as soon
// as the last task still reading it has returned (see
// formats.Document.Acquire). It returns the documents so that a caller
// that must not leave work behind (headless rendering, tests) can wait
// for their Unmapped channels.
func (c *Comparison) Close() []*formats.Document {
	c.openTask.Cancel()
	c.openTask = nil
	if c.pair != nil {
		c.pair.close()
		c.pair = nil
	}
	return c.owned.closeAll()
}

// displayTensor loads e for display: integer tensors with quantisation
// parameters are dequantised (to float32, as the inspector shows them).
func displayTensor(ctx context.Context, e *formats.TensorEntry) (*tensor.Tensor, error) {
	t, err := e.Load(ctx)
	if err != nil {
		return nil, err
	}
	if q := e.Quant; q != nil && t.DType().IsInteger() {
		return tensor.Dequantize(ctx, t, q.Scales, q.ZeroPoints, q.Axis)
	}
	return t, nil
}
