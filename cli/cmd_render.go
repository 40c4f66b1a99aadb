//go:build !lite

package cli

import (
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/ui/headless"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
	"tensorscope/viewmodel/summary"
)

func init() { register("render", runRender) }

const renderUsage = "tensorscope render FILE --view heatmap|plot|histogram|graph|window|diff|summary [--with B] [--tensor NAME] [--axes R,C] " +
	"[--index AXIS=I ...] [--expr EXPR] [--colormap NAME] [--range auto|sym|slice|LO,HI] [--bins N] [--direction tb|lr] [--constants] [--depth N|all] [--select NODE] " +
	"[--colour-by category|std|absmax|kurtosis|outlier_ratio|zeros|l2] " +
	"[--diff absolute|relative] [--metric std|absmax|kurtosis|outlier_ratio|zeros|l2] [--size WxH] --out OUT.png"

// Limits of --size.
const (
	minRenderSide = 16
	maxRenderSide = headless.MaxSide
)

// runRender implements `tensorscope render`: one view of a file drawn by
// the GUI's own widgets with Fyne's software painter, without a display,
// saved as PNG. The same input gives the same bytes on the same machine.
func runRender(args []string, stdout, stderr io.Writer) int {
	defer lazyGC()()
	c := newCommand("render", renderUsage)
	view := c.flags.String("view", "", "what to draw: "+strings.Join(headless.Views, ", ")+
		" (window: a model's Graph pane, or with --tensor and for files without a graph the Tensors pane inspecting it)")
	out := c.flags.String("out", "", "the PNG file to write")
	size := c.flags.String("size", "", fmt.Sprintf("image size in pixels, WxH, each %d–%d (default 1024x768, larger when the view needs it; for window, the viewer's own 1280x820)", minRenderSide, maxRenderSide))
	dark := c.flags.Bool("dark", false, "use the dark theme")
	sel := addSelectionFlags(c, "the tensor to show (default: the first with numeric data)")
	// Each flag sets the settings through the viewmodel's own setters,
	// which check it as they do for the GUI's controls.
	settings := viewmodel.DefaultInspectorSettings()
	heatRange, histRange := "", ""
	c.flags.Func("colormap", "heatmap colours: "+strings.Join(viewmodel.ColormapKeys(), ", ")+" (default viridis)", settings.SetColormap)
	c.flags.Func("range", "heatmap colour range (for --view histogram, the binned range): auto (the whole tensor), sym, slice (the plane shown) or LO,HI (default auto)", func(v string) error {
		heatRange = v
		return nil
	})
	c.flags.Func("bins", fmt.Sprintf("histogram bins, %d–%d (default %d)", viewmodel.MinHistBins, viewmodel.MaxHistBins, viewmodel.DefaultHistBins), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("want a number of bins, not %q", v)
		}
		return settings.SetHistBins(n)
	})
	reduce := c.flags.String("reduce", viewmodel.ReductionNames[0], "how a downsampled heatmap cell combines values: "+strings.Join(viewmodel.ReductionNames, ", "))
	c.flags.BoolFunc("log", "histogram counts on a log scale", func(string) error { settings.HistLog = true; return nil })
	c.flags.BoolFunc("plane", "histogram of the heatmap's plane (--axes, --index) instead of the whole tensor", func(string) error {
		settings.HistScope = viewmodel.HistPlane
		return nil
	})
	dequant := c.flags.Bool("dequant", false, "show a quantised tensor's dequantised values")
	c.flags.Func("expr", "the view of the tensor to show, NumPy-style, e.g. 'w[:, :, 1, 1]', 'w[0:64]', "+
		"'w.permute(0,2,1,3).merge(0,1).merge(1,2)' or 'w' for the tensor itself (default: its own view; conv weights [O,I,kh,kw] show the mosaic of their kernels unless --axes or --index name a plane)",
		settings.SetExpr)
	with := c.flags.String("with", "", "--view diff: the file B whose tensor --tensor is compared with FILE's")
	diff := compare.DefaultSettings()
	c.flags.Func("diff", "--view diff: what A−B shows, absolute (a − b) or relative ((a − b)/|a|) (default absolute)", diff.SetDiff)
	graph := viewmodel.DefaultGraphSettings()
	c.flags.Func("direction", "graph direction: "+strings.Join(viewmodel.GraphDirectionKeys, ", ")+" (default tb)", graph.SetDirection)
	c.flags.BoolFunc("constants", "draw constant nodes instead of folding them into their consumers", func(string) error {
		graph.ShowConstants = true
		return nil
	})
	c.flags.Func("depth", "graph: the scope level drawn collapsed, N ≥ 1, or all (expanded); default: flat up to "+
		fmt.Sprint(viewmodel.FlatUpTo)+" nodes, else the deepest level of at most "+fmt.Sprint(viewmodel.MaxOpeningBoxes)+" boxes", graph.SetDepth)
	selectNode := c.flags.String("select", "", "the graph node to select (by name)")
	c.flags.Func("colour-by", "graph: what colours the nodes, their category or a metric of their main weight: "+
		strings.Join(viewmodel.GraphColourNames, ", ")+" (default category; nodes without weights are grey)", graph.SetColourBy)
	metric := summary.MetricStd
	c.flags.Func("metric", "--view summary: the figure that colours the block fingerprint: "+strings.Join(summary.MetricNames, ", ")+" (default std)", func(v string) (err error) {
		metric, err = summary.ParseMetric(v)
		return err
	})
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.usageError(stderr, "expected one FILE, got %d arguments", len(pos))
	}
	if !slices.Contains(headless.Views, *view) {
		return c.usageError(stderr, "--view must be one of %s", strings.Join(headless.Views, ", "))
	}
	if *out == "" || !strings.EqualFold(filepath.Ext(*out), ".png") {
		return c.usageError(stderr, "--out must name a .png file")
	}
	grow := *size == "" // the default grows to what the view needs
	if grow {
		*size = "1024x768"
		if *view == headless.ViewWindow {
			*size = "1280x820"
		}
	}
	w, h, err := parseSize(*size)
	if err != nil {
		return c.usageError(stderr, "--size: %v", err)
	}
	settings.Dequantise = *dequant
	if err := settings.SetReduction(*reduce); err != nil {
		return c.usageError(stderr, "--reduce: %v", err)
	}
	if err := sel.applyTo(&settings); err != nil {
		return c.usageError(stderr, "%v", err)
	}
	if *view == headless.ViewHistogram {
		histRange, heatRange = heatRange, ""
	}
	if err := setRange(heatRange, settings.SetRange); err != nil {
		return c.usageError(stderr, "--range: %v", err)
	}
	if err := setRange(histRange, settings.SetHistRange); err != nil {
		return c.usageError(stderr, "--range: %v", err)
	}
	set := map[string]bool{}
	c.flags.Visit(func(f *flag.Flag) { set[f.Name] = true })
	given := func(names ...string) string { // the first of names on the command line
		for _, n := range names {
			if set[n] {
				return "--" + n
			}
		}
		return ""
	}
	inspectorFlags := []string{"tensor", "axes", "index", "colormap", "range", "bins", "reduce", "log", "plane", "dequant", "expr"}
	if *view != headless.ViewGraph && *view != headless.ViewWindow {
		if f := given("direction", "constants", "depth", "select", "colour-by"); f != "" {
			return c.usageError(stderr, "%s applies to --view graph (or window)", f)
		}
	}
	switch *view {
	case headless.ViewGraph:
		if f := given(inspectorFlags...); f != "" {
			return c.usageError(stderr, "%s does not apply to --view graph", f)
		}
	case headless.ViewHeatmap:
		if f := given("bins", "log", "plane"); f != "" {
			return c.usageError(stderr, "%s applies to --view histogram (or window)", f)
		}
	case headless.ViewPlot:
		if f := given("axes", "index", "colormap", "range", "reduce", "bins", "log", "plane"); f != "" {
			return c.usageError(stderr, "%s does not apply to --view plot", f)
		}
	case headless.ViewHistogram:
		if f := given("colormap", "reduce"); f != "" {
			return c.usageError(stderr, "%s applies to --view heatmap (or window)", f)
		}
	case headless.ViewDiff:
		if f := given("bins", "log", "plane", "reduce", "dequant", "expr"); f != "" {
			return c.usageError(stderr, "%s does not apply to --view diff", f)
		}
		if *with == "" || sel.tensor == "" {
			return c.usageError(stderr, "--view diff needs --with B and --tensor NAME")
		}
	}
	if *view == headless.ViewSummary {
		if f := given(inspectorFlags...); f != "" {
			return c.usageError(stderr, "%s does not apply to --view summary", f)
		}
	} else if f := given("metric"); f != "" {
		return c.usageError(stderr, "--metric applies to --view summary")
	}
	if f := given("with", "diff"); f != "" && *view != headless.ViewDiff {
		return c.usageError(stderr, "%s applies to --view diff", f)
	}
	diff.Plane = settings

	path := pos[0]
	prepared := headless.Prepare(*dark) // its fonts load while the file opens
	defer prepared.Close()
	doc, status := openDocument(path, stderr)
	if doc == nil {
		return status
	}
	defer doc.Close()
	if err := refuseOverwrite(path, *out); err != nil {
		return c.usageError(stderr, "%v", err)
	}
	if f := given("direction", "constants", "depth", "colour-by"); f != "" && doc.Graph == nil {
		return fileError(stderr, path, fmt.Errorf("%s: this %s has no graph", f, doc.FormatName))
	}
	if *selectNode != "" {
		if err := graph.SelectNamed(doc, *selectNode); err != nil {
			return fileError(stderr, path, err)
		}
	}
	opt := headless.Options{View: *view, Width: w, Height: h, Grow: grow, Dark: *dark, Tensor: -1, Settings: settings, Graph: &graph,
		Compare: diff, Metric: metric}
	if *with != "" {
		docB, status := openDocument(*with, stderr)
		if docB == nil {
			return status
		}
		defer docB.Close()
		if err := refuseOverwrite(*with, *out); err != nil {
			return c.usageError(stderr, "%v", err)
		}
		opt.With = docB
	}
	if sel.tensor != "" {
		if opt.Tensor, err = tensorIndex(doc, sel.tensor); err != nil {
			return fileError(stderr, path, err)
		}
		e := doc.Tensors[opt.Tensor]
		if *dequant && e.Quant == nil {
			return fileError(stderr, path, fmt.Errorf("tensor %q is not quantised (--dequant)", e.Name))
		}
	} else if *view == headless.ViewGraph && doc.Graph == nil {
		return fileError(stderr, path, fmt.Errorf("this %s has no graph to render", doc.FormatName))
	} else if f := given(inspectorFlags...); *view == headless.ViewWindow && doc.Graph != nil && f != "" {
		return c.usageError(stderr, "%s sets the inspector, which a model's window shows only for a tensor named with --tensor", f)
	}
	if *view != headless.ViewGraph && *view != headless.ViewSummary && (*view != headless.ViewWindow || doc.Graph == nil || sel.tensor != "") {
		if note := doc.RemoteReadNote(opt.Tensor); note != "" { // a remote tensor is read whole: say so first
			fmt.Fprintf(stderr, "tensorscope render: %s (the view needs every value)\n", note)
		}
	}
	intr := catchInterrupts()
	defer intr.stop()
	img, err := prepared.Render(intr.ctx, doc, opt)
	if err != nil {
		if intr.caught() {
			return intr.report(stderr, "render", *out)
		}
		return fileError(stderr, path, err)
	}
	err = writeOutput(intr.ctx, *out, func(w io.Writer) error { return png.Encode(w, img) })
	status, _ = intr.finish(stderr, "render", *out, err)
	return status
}

// selection is the tensor and plane chosen by --tensor, --axes, --index,
// shared by render and export.
type selection struct {
	tensor string
	axes   []int
	index  map[int]int
}

func addSelectionFlags(c *command, tensorHelp string) *selection {
	s := &selection{}
	c.flags.StringVar(&s.tensor, "tensor", "", tensorHelp)
	c.flags.Func("axes", "R,C: the tensor axes shown as rows and columns (default: the two largest, as the viewer opens it)", func(v string) error {
		parts := strings.Split(v, ",")
		if len(parts) != 2 {
			return errors.New("want two axes, R,C")
		}
		s.axes = make([]int, 2)
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 0 {
				return fmt.Errorf("%q is not an axis number", p)
			}
			s.axes[i] = n
		}
		if s.axes[0] == s.axes[1] {
			return errors.New("rows and columns need two different axes")
		}
		return nil
	})
	c.flags.Func("index", "AXIS=I: hold an axis that is not plotted at index I (repeatable; default 0)", func(v string) error {
		a, i, ok := strings.Cut(v, "=")
		axis, err1 := strconv.Atoi(strings.TrimSpace(a))
		idx, err2 := strconv.Atoi(strings.TrimSpace(i))
		if !ok || err1 != nil || err2 != nil || axis < 0 || idx < 0 {
			return fmt.Errorf("want AXIS=INDEX with two numbers, not %q", v)
		}
		if s.index == nil {
			s.index = map[int]int{}
		}
		if _, dup := s.index[axis]; dup {
			return fmt.Errorf("axis %d is given twice", axis)
		}
		s.index[axis] = idx
		return nil
	})
	return s
}

// applyTo sets the plane of s: the axes and the held indices.
func (sel *selection) applyTo(s *viewmodel.InspectorSettings) error {
	if sel.axes != nil {
		if err := s.SetAxes(sel.axes[0], sel.axes[1]); err != nil {
			return fmt.Errorf("--axes: %v", err)
		}
	}
	for a, i := range sel.index {
		if err := s.SetIndex(a, i); err != nil {
			return fmt.Errorf("--index: %v", err)
		}
	}
	return nil
}

// tensorIndex finds a tensor by name.
func tensorIndex(doc *formats.Document, name string) (int, error) {
	for i, e := range doc.Tensors {
		if e.Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no tensor named %q (try `tensorscope info` for the list)", name)
}

func parseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		w, err = strconv.Atoi(a)
		if err == nil {
			h, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("want WIDTHxHEIGHT in pixels, e.g. 1024x768, not %q", s)
	}
	for _, n := range []int{w, h} {
		if n < minRenderSide || n > maxRenderSide {
			return 0, 0, fmt.Errorf("each side must be %d–%d pixels, not %d", minRenderSide, maxRenderSide, n)
		}
	}
	return w, h, nil
}

// setRange reads auto (the whole tensor), sym(metric), slice or LO,HI ("" for auto) and passes it to
// set, a settings setter, which checks it.
func setRange(s string, set func(mode viewmodel.RangeMode, lo, hi float64) error) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return set(viewmodel.RangeAuto, 0, 0)
	case "sym", "symmetric":
		return set(viewmodel.RangeSymmetric, 0, 0)
	case "slice":
		return set(viewmodel.RangeSlice, 0, 0)
	}
	a, b, ok := strings.Cut(s, ",")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("want auto, sym, slice or LO,HI with two numbers, not %q", s)
	}
	return set(viewmodel.RangeManual, lo, hi)
}
