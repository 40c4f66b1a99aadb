//go:build !lite

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"tensorscope/formats"
	"tensorscope/viewmodel/compare"
	"tensorscope/viewmodel/textfmt"
)

func init() { register("diff", runDiff) }

const diffUsage = "tensorscope diff [--json] [--rtol R] [--atol A] [--map OLD=NEW ...] A B"

// Exit statuses of diff, as cmp and diff have them: 1 means "the files
// differ", so trouble reading a file is 2, like bad usage.
const (
	diffSame    = 0
	diffDiffers = 1
	diffTrouble = 2
)

// diffReport is the output of `diff --json`. Graph is present only when
// both files are models.
type diffReport struct {
	Pairs []pairJSON     `json:"pairs"`
	OnlyA []string       `json:"only_a"`
	OnlyB []string       `json:"only_b"`
	Graph *graphDiffJSON `json:"graph,omitempty"`
}

// pairJSON is one pair's figures; every figure is null when the pair was
// not compared, and each error figure is null when it is undefined.
type pairJSON struct {
	Name        string   `json:"name"`
	DTypeA      string   `json:"dtype_a"`
	DTypeB      string   `json:"dtype_b"`
	ShapeA      []int    `json:"shape_a"`
	ShapeB      []int    `json:"shape_b"`
	Count       *int64   `json:"count"`
	MaxAbs      *float64 `json:"max_abs"`
	MeanAbs     *float64 `json:"mean_abs"`
	RMSE        *float64 `json:"rmse"`
	RelL2       *float64 `json:"rel_l2"`
	Cosine      *float64 `json:"cosine"`
	NaNMismatch *int64   `json:"nan_mismatch"`
	OverTol     *int64   `json:"over_tol"`
}

type graphDiffJSON struct {
	Added   []string          `json:"added"`
	Removed []string          `json:"removed"`
	Changed []changedNodeJSON `json:"changed"`
}

type changedNodeJSON struct {
	Name  string           `json:"name"`
	OpA   string           `json:"op_a"`
	OpB   string           `json:"op_b"`
	Attrs []attrChangeJSON `json:"attrs"`
}

// attrChangeJSON spells both values as the viewer shows them; null on the
// side that lacks the attribute.
type attrChangeJSON struct {
	Name string  `json:"name"`
	A    *string `json:"a"`
	B    *string `json:"b"`
}

// runDiff implements `tensorscope diff A B`: tensors matched by name (or
// the only tensor of each file), compared as float64 after dequantisation,
// with NumPy's definitions; for two models the graphs too.
func runDiff(args []string, stdout, stderr io.Writer) int {
	c := newCommand("diff", diffUsage)
	asJSON := c.flags.Bool("json", false, "print one JSON object: pairs, only_a, only_b (and graph for two models)")
	rtol := c.flags.Float64("rtol", compare.DefaultTolerance.RTol, "relative tolerance (NumPy's isclose)")
	atol := c.flags.Float64("atol", compare.DefaultTolerance.ATol, "absolute tolerance (NumPy's isclose)")
	renames := compare.Renames{}
	c.flags.Func("map", "OLD=NEW: tensor OLD of A is called NEW in B (repeatable)", renames.ParseRename)
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 2 {
		return c.usageError(stderr, "expected two files A B, got %d arguments", len(pos))
	}
	tol, err := compare.NewTolerance(*rtol, *atol)
	if err != nil {
		return c.usageError(stderr, "%v", err)
	}
	docs := [2]*formats.Document{}
	for i, p := range pos {
		if docs[i], err = formats.Open(p); err != nil {
			fileError(stderr, p, err)
			return diffTrouble
		}
		defer docs[i].Close()
	}
	m, err := compare.MatchTensors(docs[0], docs[1], renames)
	if err != nil {
		return c.usageError(stderr, "%v", err)
	}
	intr := catchInterrupts()
	defer intr.stop()
	figs, err := compareAll(intr.ctx, m.Pairs, tol, stderr)
	if err != nil {
		if intr.caught() {
			return reportInterrupt(intr, stderr)
		}
		fmt.Fprintf(stderr, "tensorscope diff: %s\n", oneLine(err.Error()))
		return diffTrouble
	}
	var graph *compare.GraphDiff
	if docs[0].Graph != nil && docs[1].Graph != nil {
		graph = compare.DiffGraphs(docs[0].Graph, docs[1].Graph, renames)
	}
	if *asJSON {
		b, err := json.Marshal(diffJSON(figs, m, graph, docs))
		if err != nil {
			fmt.Fprintf(stderr, "tensorscope diff: %v\n", err)
			return diffTrouble
		}
		stdout.Write(append(b, '\n'))
	} else {
		writeDiffTable(stdout, figs, m, graph, docs, tol)
	}
	for i := range figs {
		if !figs[i].Within() {
			return diffDiffers
		}
	}
	if len(m.OnlyA) > 0 || len(m.OnlyB) > 0 || (graph != nil && !graph.Same()) {
		return diffDiffers
	}
	return diffSame
}

func reportInterrupt(intr *interrupts, stderr io.Writer) int {
	intr.mu.Lock()
	s := intr.sig
	intr.mu.Unlock()
	fmt.Fprintf(stderr, "tensorscope diff: interrupted (%v)\n", s)
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// compareAll compares the pairs one after another (each comparison uses
// every core), reporting progress on stderr when the run is long.
func compareAll(ctx context.Context, pairs []compare.TensorPair, tol compare.Tolerance, stderr io.Writer) ([]compare.PairFigures, error) {
	var total int64
	for _, p := range pairs {
		total += compare.PairBytes(p)
	}
	meter := startDiffProgress(stderr, total)
	defer meter.stop()
	out := make([]compare.PairFigures, 0, len(pairs))
	for _, p := range pairs {
		size := compare.PairBytes(p)
		f, err := compare.ComparePair(ctx, p, tol, func(done, n int64) {
			if n > 0 {
				meter.current.Store(size * done / n)
			}
		})
		if err != nil {
			return nil, err
		}
		meter.finished.Add(size)
		meter.current.Store(0)
		out = append(out, f)
	}
	return out, nil
}

// diffProgress prints "compared 41% of 7.9 GiB" on stderr now and then once
// a run has taken longer than a second: on one rewritten line on a
// terminal, every five seconds otherwise (CI logs).
type diffProgress struct {
	finished, current atomic.Int64
	done              chan struct{}
	exited            chan struct{}
}

func startDiffProgress(stderr io.Writer, total int64) *diffProgress {
	p := &diffProgress{done: make(chan struct{}), exited: make(chan struct{})}
	terminal := isTerminal(stderr)
	every := 5 * time.Second
	if terminal {
		every = 200 * time.Millisecond
	}
	go func() {
		defer close(p.exited)
		select {
		case <-time.After(time.Second):
		case <-p.done:
			return
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		printed := false
		for {
			done := p.finished.Load() + p.current.Load()
			line := fmt.Sprintf("tensorscope diff: compared %d%% of %s", done*100/max(total, 1), textfmt.Bytes(total))
			if terminal {
				fmt.Fprintf(stderr, "\r%s", line)
				printed = true
			} else {
				fmt.Fprintln(stderr, line)
			}
			select {
			case <-tick.C:
			case <-p.done:
				if printed {
					fmt.Fprint(stderr, "\r\033[K")
				}
				return
			}
		}
	}()
	return p
}

func (p *diffProgress) stop() {
	close(p.done)
	<-p.exited
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func diffJSON(figs []compare.PairFigures, m compare.Matching, g *compare.GraphDiff, docs [2]*formats.Document) diffReport {
	r := diffReport{Pairs: make([]pairJSON, 0, len(figs)), OnlyA: nonNilStrings(m.OnlyA), OnlyB: nonNilStrings(m.OnlyB)}
	for i := range figs {
		r.Pairs = append(r.Pairs, pairToJSON(&figs[i]))
	}
	if g != nil {
		r.Graph = graphToJSON(g, docs)
	}
	return r
}

func pairToJSON(f *compare.PairFigures) pairJSON {
	p := pairJSON{Name: f.Name, DTypeA: f.DTypeA.String(), DTypeB: f.DTypeB.String(), ShapeA: f.ShapeA, ShapeB: f.ShapeB}
	if !f.Compared() {
		return p
	}
	d := f.Diff
	p.Count, p.NaNMismatch, p.OverTol = &d.Count, &d.NaNMismatch, &d.OverTol
	p.MaxAbs, p.MeanAbs, p.RMSE = optional(f.MaxAbs()), optional(f.MeanAbs()), optional(f.RMSE())
	p.RelL2, p.Cosine = optional(f.RelL2()), optional(f.Cosine())
	return p
}

func optional(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}

func graphToJSON(g *compare.GraphDiff, docs [2]*formats.Document) *graphDiffJSON {
	ga, gb := docs[0].Graph, docs[1].Graph
	out := &graphDiffJSON{Added: []string{}, Removed: []string{}, Changed: []changedNodeJSON{}}
	for _, id := range g.Added {
		out.Added = append(out.Added, gb.Nodes[id].Name)
	}
	for _, id := range g.Removed {
		out.Removed = append(out.Removed, ga.Nodes[id].Name)
	}
	for _, c := range g.Changed {
		cj := changedNodeJSON{Name: c.Name, OpA: c.OpA, OpB: c.OpB, Attrs: []attrChangeJSON{}}
		for _, a := range c.Attributes {
			cj.Attrs = append(cj.Attrs, attrChangeJSON{Name: a.Name, A: attrText(a.A), B: attrText(a.B)})
		}
		out.Changed = append(out.Changed, cj)
	}
	return out
}

func attrText(v any) *string {
	if v == nil {
		return nil
	}
	s := textfmt.Value(v)
	return &s
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeDiffTable prints the pairs most different first, then what only
// one file has, the graph changes, and a one-line verdict.
func writeDiffTable(w io.Writer, figs []compare.PairFigures, m compare.Matching, g *compare.GraphDiff,
	docs [2]*formats.Document, tol compare.Tolerance) {
	if len(figs) > 0 {
		tw := newTable(w)
		fmt.Fprintln(tw, "name\tdtype\tshape\tmax_abs\tmean_abs\trmse\trel_l2\tcosine\tnan≠\tinf≠\tover_tol")
		for _, f := range compare.SortByError(figs) {
			writeDiffRow(tw, &f)
		}
		tw.Flush()
	}
	for _, only := range []struct {
		which string
		names []string
	}{{"A", m.OnlyA}, {"B", m.OnlyB}} {
		if len(only.names) > 0 {
			fmt.Fprintf(w, "only in %s (%d): %s\n", only.which, len(only.names), strings.Join(only.names, ", "))
		}
	}
	if g != nil {
		writeGraphDiff(w, g, docs)
	}
	within := 0
	for i := range figs {
		if figs[i].Within() {
			within++
		}
	}
	fmt.Fprintf(w, "%d pairs: %d within rtol=%g atol=%g, %d differ; %d only in A, %d only in B\n",
		len(figs), within, tol.RTol, tol.ATol, len(figs)-within, len(m.OnlyA), len(m.OnlyB))
}

func writeDiffRow(w io.Writer, f *compare.PairFigures) {
	dtype := f.DTypeA.String()
	if f.DTypeB != f.DTypeA {
		dtype += "/" + f.DTypeB.String()
	}
	shape := textfmt.Dims(f.ShapeA)
	if !f.Compared() {
		if f.NotCompared == "shapes differ" {
			shape += "/" + textfmt.Dims(f.ShapeB)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\tnot compared: %s\n", f.Name, dtype, shape, oneLine(f.NotCompared))
		return
	}
	num := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	d := f.Diff
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\n", f.Name, dtype, shape,
		num(f.MaxAbs()), num(f.MeanAbs()), num(f.RMSE()), num(f.RelL2()), num(f.Cosine()),
		d.NaNMismatch, d.InfMismatch, d.OverTol)
}

func writeGraphDiff(w io.Writer, g *compare.GraphDiff, docs [2]*formats.Document) {
	if g.Same() {
		fmt.Fprintln(w, "graph: the same nodes, ops and attributes")
		return
	}
	fmt.Fprintf(w, "graph: %d nodes added, %d removed, %d changed\n", len(g.Added), len(g.Removed), len(g.Changed))
	for _, id := range g.Removed {
		n := docs[0].Graph.Nodes[id]
		fmt.Fprintf(w, "  - %s (%s)\n", nodeLabel(n.Name, id), n.Op)
	}
	for _, id := range g.Added {
		n := docs[1].Graph.Nodes[id]
		fmt.Fprintf(w, "  + %s (%s)\n", nodeLabel(n.Name, id), n.Op)
	}
	for _, c := range g.Changed {
		op := c.OpA
		if c.OpB != c.OpA {
			op = c.OpA + " → " + c.OpB
		}
		fmt.Fprintf(w, "  ~ %s (%s)", nodeLabel(c.Name, c.IDA), op)
		for i, a := range c.Attributes {
			sep := ","
			if i == 0 {
				sep = ":"
			}
			fmt.Fprintf(w, "%s %s %s → %s", sep, a.Name, attrOrNone(a.A), attrOrNone(a.B))
		}
		fmt.Fprintln(w)
	}
}

func nodeLabel(name string, id int) string {
	if name == "" {
		return fmt.Sprintf("node #%d", id)
	}
	return name
}

func attrOrNone(v any) string {
	if v == nil {
		return "(none)"
	}
	return textfmt.Value(v)
}
