package viewmodel

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// drain runs posted work until the inspector is idle.
func drain(t *testing.T, q *Queue, in *Inspector) {
	t.Helper()
	if !q.Drain(func() bool { return !in.Idle() }, 20*time.Second) {
		t.Fatal("inspector tasks did not finish")
	}
}

func f32Entry(name string, shape []int, values []float32) *formats.TensorEntry {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	e := &formats.TensorEntry{Name: name, DType: tensor.Float32, Shape: shape, Offset: 0, NBytes: int64(len(b)), Role: formats.RoleWeight}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(b, tensor.Float32, shape) })
	return e
}

// seq is 0, 1, 2, ... n-1 as float32.
func seq(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

func newTestInspector() (*Inspector, *Queue, *[]Change) {
	q := NewQueue()
	in := NewInspector(q.Post)
	var changes []Change
	in.OnChange = func(c Change) { changes = append(changes, c) }
	return in, q, &changes
}

func TestInspectorShowComputesEverything(t *testing.T) {
	in, q, changes := newTestInspector()
	vals := seq(24)
	vals[5] = float32(math.NaN())
	in.Show(0, f32Entry("w", []int{2, 3, 4}, vals))
	drain(t, q, in)
	if in.Err() != nil {
		t.Fatal(in.Err())
	}
	st, ok := in.Stats()
	if !ok || st.Count != 24 || st.NaN != 1 || st.Finite != 23 || st.Max != 23 || st.Zeros != 1 {
		t.Fatalf("stats %+v", st)
	}
	line := in.SummaryLine()
	if !strings.HasPrefix(in.SummaryText(), "float32[2,3,4] n=24 x∈[0, 23]") {
		t.Errorf("summary %q", in.SummaryText())
	}
	var alert bool
	for _, s := range line {
		alert = alert || (s.Alert && strings.Contains(s.Text, "nan 1"))
	}
	if !alert {
		t.Errorf("a NaN count must be flagged: %+v", line)
	}
	if p := in.PercentileLine(); !strings.Contains(p, "p50 ") || !strings.Contains(p, "one bin of 4096") {
		t.Errorf("percentiles %q", p)
	}
	if r, c := in.Axes(); r != 1 || c != 2 {
		t.Errorf("default axes %d,%d", r, c)
	}
	h := in.Heatmap()
	if h == nil || h.Grid.Rows != 3 || h.Grid.Cols != 4 || h.Image.Bounds().Dx() != 4 {
		t.Fatalf("heatmap %+v", h)
	}
	if in.HeatmapNote() != "showing 3×4" {
		t.Errorf("note %q", in.HeatmapNote())
	}
	// The NaN at [0,1,1] is painted in the NaN colour.
	if got := h.Image.NRGBAAt(1, 1); got != h.Colormap.NaN {
		t.Errorf("NaN cell colour %v", got)
	}
	hist, err := in.Histogram()
	if err != nil || hist == nil || len(hist.Counts) != DefaultHistBins {
		t.Fatalf("histogram %+v %v", hist, err)
	}
	var total int64
	for _, c := range hist.Counts {
		total += c
	}
	if total != 23 || hist.NaN != 1 {
		t.Errorf("histogram counts %d finite, %d NaN", total, hist.NaN)
	}
	var seen Change
	for _, c := range *changes {
		seen |= c
	}
	if seen != ChangedAll {
		t.Errorf("changes reported: %b", seen)
	}
	if len(in.Busy()) != 0 {
		t.Errorf("busy after drain: %v", in.Busy())
	}
}

func TestInspectorAxesAndSliders(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{2, 3, 4}, seq(24)))
	drain(t, q, in)
	if err := in.SetFixed(0, 1); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if v := in.Heatmap().Grid.At(0, 0); v != 12 {
		t.Errorf("slice 1 starts at 12, got %v", v)
	}
	if in.ValueText(2, 3) != "23" || in.ElementInfo(2, 3) != "[1, 2, 3] = 23" {
		t.Errorf("value %q info %q", in.ValueText(2, 3), in.ElementInfo(2, 3))
	}
	if err := in.SetFixed(0, 2); err == nil {
		t.Error("index past the axis must fail")
	}
	if err := in.SetAxes(0, 2); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	g := in.Heatmap().Grid
	if g.Rows != 2 || g.Cols != 4 {
		t.Fatalf("axes 0,2 grid %dx%d", g.Rows, g.Cols)
	}
	if v := g.At(1, 2); v != 14 { // [1, fixed 0, 2]
		t.Errorf("grid value %v", v)
	}
	if err := in.SetAxes(1, 1); err == nil {
		t.Error("same axis twice must fail")
	}
}

func TestInspectorColoursWithoutRecomputing(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{3, 4}, seq(12)))
	drain(t, q, in)
	grid := in.Heatmap().Grid
	in.SetColormap("grayscale")
	if in.heat.task != nil {
		t.Fatal("changing colours must not start a computation")
	}
	h := in.Heatmap()
	if h.Grid != grid || h.Colormap.Name != "grayscale" {
		t.Fatal("recolouring must reuse the grid")
	}
	if c := h.Image.NRGBAAt(0, 0); c.R != 0 || c.G != 0 { // minimum → black
		t.Errorf("min colour %v", c)
	}
	if c := h.Image.NRGBAAt(3, 2); c.R != 255 {
		t.Errorf("max colour %v", c)
	}
	if err := in.SetRange(RangeManual, 0, 22); err != nil {
		t.Fatal(err)
	}
	if h := in.Heatmap(); h.Lo != 0 || h.Hi != 22 || h.Image.NRGBAAt(3, 2).R != uint8(math.Round(11.0/22*255)) {
		t.Errorf("manual range: lo %v hi %v colour %v", h.Lo, h.Hi, h.Image.NRGBAAt(3, 2))
	}
	if err := in.SetRange(RangeManual, 1, 1); err == nil {
		t.Error("an empty manual range must fail")
	}
	in.SetRange(RangeSymmetric, 0, 0)
	if h := in.Heatmap(); h.Lo != -11 || h.Hi != 11 {
		t.Errorf("symmetric range %v..%v", h.Lo, h.Hi)
	}
}

func TestInspectorHistogramSettings(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{4, 8}, seq(32)))
	drain(t, q, in)
	in.SetHistBins(16)
	if in.hist.task != nil {
		t.Error("power-of-two bins over the whole tensor come from the summary, with no pass over the data")
	}
	h, _ := in.Histogram()
	if len(h.Counts) != 16 || h.Counts[0] != 2 {
		t.Errorf("merged histogram %v", h.Counts)
	}
	if err := in.SetHistBins(10); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	h, _ = in.Histogram()
	if len(h.Counts) != 10 {
		t.Errorf("10 bins: %v", h.Counts)
	}
	in.SetHistScope(HistPlane)
	in.SetFixed(0, 0) // no-op for a 2-D tensor: plane is the whole tensor
	drain(t, q, in)
	h, _ = in.Histogram()
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	if n != 32 {
		t.Errorf("plane histogram counts %d", n)
	}
	if err := in.SetHistRange(RangeManual, 0, 16); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	h, _ = in.Histogram()
	if h.Above != 15 || !strings.Contains(in.HistogramNote(), "15 above") {
		t.Errorf("outside range: above %d, note %q", h.Above, in.HistogramNote())
	}
	in.SetHistLog(true)
	if img := in.RenderHistogram(300, 200, testStyle); img == nil {
		t.Error("no histogram image")
	}
}

func TestInspectorZoomAndDownsample(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("big", []int{1, 300, 500}, seq(150000)))
	in.SetMaxCells(100, 100)
	drain(t, q, in)
	h := in.Heatmap()
	if h.Grid.Rows > 100 || h.Grid.Cols > 100 {
		t.Fatalf("grid %dx%d exceeds 100x100", h.Grid.Rows, h.Grid.Cols)
	}
	if note := in.HeatmapNote(); !strings.HasPrefix(note, "showing ") || !strings.HasSuffix(note, " of 300×500, mean") {
		t.Errorf("note %q", note)
	}
	if info := in.CellInfo(0, 0); !strings.HasPrefix(info, "rows 0–2, cols 0–4: mean") {
		t.Errorf("downsampled cell info %q", info)
	}
	in.SetView(Window{Row: 10, Col: 20, Rows: 4, Cols: 5})
	drain(t, q, in)
	h = in.Heatmap()
	if h.Grid.Rows != 4 || h.Grid.Cols != 5 || h.Grid.At(0, 0) != 10*500+20 {
		t.Errorf("zoomed grid %dx%d first %v", h.Grid.Rows, h.Grid.Cols, h.Grid.At(0, 0))
	}
	if info := in.CellInfo(1, 1); info != "[0, 11, 21] = 5521" {
		t.Errorf("cell info %q", info)
	}
	if !strings.Contains(in.HeatmapNote(), "rows 10–13, cols 20–24 of 300×500") {
		t.Errorf("zoomed note %q", in.HeatmapNote())
	}
	in.SetView(Window{Row: 299, Col: 499, Rows: 10, Cols: 10}) // clamped inside the plane
	if v := in.View(); v.Row != 290 || v.Col != 490 {
		t.Errorf("clamped view %+v", v)
	}
	in.ResetView()
	drain(t, q, in)
	if v := in.View(); v != (Window{0, 0, 300, 500}) {
		t.Errorf("reset view %+v", v)
	}
}

// TestInspectorCancelsOnSelection: selecting another tensor while the
// first is still being computed must never show the first one's results.
func TestInspectorCancelsOnSelection(t *testing.T) {
	in, q, _ := newTestInspector()
	slow := make(chan struct{})
	a := &formats.TensorEntry{Name: "a", DType: tensor.Float32, Shape: []int{2}}
	a.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		<-slow
		return tensor.FromBytes(make([]byte, 8), tensor.Float32, []int{2})
	})
	in.Show(0, a)
	loadA := in.loadTask
	in.Show(1, f32Entry("b", []int{3}, []float32{7, 8, 9}))
	drain(t, q, in) // b is complete; a is still loading
	close(slow)     // now a's load returns, after b's results
	loadA.Wait()
	drain(t, q, in)
	if in.Entry().Name != "b" || in.Tensor().Len() != 3 {
		t.Fatalf("shown %q with %d elements", in.Entry().Name, in.Tensor().Len())
	}
	st, _ := in.Stats()
	if st.Count != 3 || st.Min != 7 {
		t.Errorf("stats of the wrong tensor: %+v", st)
	}
}

func TestInspectorErrorsAndQuantised(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, &formats.TensorEntry{Name: "act", DType: tensor.Float32, Shape: []int{4}, Note: "activations are computed at run time"})
	if in.Err() == nil || !strings.Contains(in.Err().Error(), "run time") {
		t.Errorf("no-data error %v", in.Err())
	}
	// Complex tensors are shown by their parts (see TestInspectorComplexParts); opaque ones are not.
	vx := &formats.TensorEntry{Name: "v", DType: tensor.Void32, Shape: []int{2}}
	vx.SetLoader(func(context.Context) (*tensor.Tensor, error) { return nil, nil })
	in.Show(1, vx)
	if in.Err() == nil {
		t.Error("void values cannot be plotted")
	}
	raw := []byte{0, 10, 20, 255}
	qe := &formats.TensorEntry{Name: "q", DType: tensor.Uint8, Shape: []int{4},
		Quant: &formats.Quant{Scales: []float64{0.5}, ZeroPoints: []int64{10}}}
	qe.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(raw, tensor.Uint8, []int{4}) })
	in.Show(2, qe)
	drain(t, q, in)
	if !in.Quantised() || in.Tensor().DType() != tensor.Uint8 {
		t.Fatal("stored integers first")
	}
	in.SetDequantised(true)
	drain(t, q, in)
	if in.Tensor().DType() != tensor.Float32 {
		t.Fatalf("dequantised dtype %s", in.Tensor().DType())
	}
	st, _ := in.Stats()
	if st.Min != -5 || st.Max != 122.5 {
		t.Errorf("dequantised range %v..%v", st.Min, st.Max)
	}
	if info := in.ElementInfo(0, 3); info != "[3] = 122.5 (stored 255)" {
		t.Errorf("dequantised info %q", info)
	}
}

// TestInspectorFakeQuantisedFloatWeight: a float weight the model
// quantises when it runs (ONNX QuantizeLinear) shows its stored floats,
// then, dequantised, the values the model computes with.
func TestInspectorFakeQuantisedFloatWeight(t *testing.T) {
	in, q, _ := newTestInspector()
	raw := make([]byte, 16)
	for i, v := range []float32{0.3, -0.8, 1.75, 100} {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	we := &formats.TensorEntry{Name: "w", DType: tensor.Float32, Shape: []int{4},
		Quant: &formats.Quant{Scales: []float64{0.5}, ZeroPoints: []int64{0}, Target: tensor.Int8}}
	we.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(raw, tensor.Float32, []int{4}) })
	in.Show(0, we)
	drain(t, q, in)
	if !in.Quantised() {
		t.Fatal("the weight is not offered dequantised")
	}
	in.SetDequantised(true)
	drain(t, q, in)
	if in.Err() != nil {
		t.Fatal(in.Err())
	}
	got := make([]float64, 4)
	if err := in.Tensor().ReadFloat64s(0, got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[0.5 -1 2 63.5]" { // 0.6→1, -1.6→-2, 3.5→4 (half to even), 200→127
		t.Errorf("fake-quantised values %v", got)
	}
}

// TestDocCloseWaitsForCancelledWork: a load cancelled by a newer
// selection may still be reading the old tensor; closing the tab must not
// unmap the document under it, only once it has returned.
func TestDocCloseWaitsForCancelledWork(t *testing.T) {
	q := NewQueue()
	fd, err := formats.OpenBytes("w.tsr", tsrBytes(t, []float32{1, 2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	d := newDoc(q.Post, fd, Source{Name: "w.tsr"})
	slow := make(chan struct{})
	a := &formats.TensorEntry{Name: "a", DType: tensor.Float32, Shape: []int{2}}
	a.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		<-slow
		return tensor.FromBytes(make([]byte, 8), tensor.Float32, []int{2})
	})
	d.Inspector.Show(0, a)
	d.Inspector.Show(1, f32Entry("b", []int{3}, []float32{7, 8, 9}))
	drain(t, q, d.Inspector)
	d.close()
	select {
	case <-fd.Unmapped():
		t.Fatal("the document was unmapped while a cancelled load was still reading it")
	case <-time.After(50 * time.Millisecond):
	}
	close(slow)
	select {
	case <-fd.Unmapped():
	case <-time.After(10 * time.Second):
		t.Fatal("the document was not unmapped after its last user returned")
	}
}

// The percentiles of a constant tensor are its one value, not points inside
// the bin its histogram widened to have a width (an all-zero tensor showed
// p50 0.0001221).
func TestInspectorPercentilesOfAConstant(t *testing.T) {
	for _, v := range []float32{0, -3.5} {
		in, q, _ := newTestInspector()
		vals := make([]float32, 1000)
		for i := range vals {
			vals[i] = v
		}
		in.Show(0, f32Entry("c", []int{10, 100}, vals))
		drain(t, q, in)
		p := in.PercentileLine()
		fields := strings.Fields(p) // p1 V p5 V ...
		ok := len(fields) == 2*len(SummaryPercentiles)
		for i := 1; ok && i < len(fields); i += 2 {
			ok = fields[i] == sig4(float64(v))
		}
		if !ok {
			t.Errorf("constant %g: percentiles %q, want each %s and no resolution", v, p, sig4(float64(v)))
		}
	}
}
