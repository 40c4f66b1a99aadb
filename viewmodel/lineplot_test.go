package viewmodel

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func TestVectorAxis(t *testing.T) {
	for _, c := range []struct {
		shape []int
		want  int
	}{
		{[]int{256}, 0}, {[]int{1, 12, 1, 1}, 1}, {[]int{1, 1}, 1}, {[]int{3, 4}, -1}, {[]int{2, 1, 5}, -1},
	} {
		if got := vectorAxis(c.shape); got != c.want {
			t.Errorf("vectorAxis(%v) = %d, want %d", c.shape, got, c.want)
		}
	}
}

func TestLongVectorIsAMinMaxEnvelope(t *testing.T) {
	const n = 1000
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(i % 10) // every block of 10: 0..9, mean 4.5
	}
	vals[995] = float32(math.NaN())
	in, q, _ := newTestInspector()
	in.SetPlotColumns(100)
	in.Show(0, f32Entry("signal", []int{1, n}, vals))
	drain(t, q, in)
	if !in.ShowsLinePlot() {
		t.Fatal("a [1,1000] tensor is not plotted")
	}
	p, err := in.LinePlot()
	if err != nil || p == nil {
		t.Fatalf("plot %v, %v", p, err)
	}
	if p.N != n || p.Step != 10 || p.Columns() != 100 || p.Axis != 1 || p.Bars() {
		t.Fatalf("plot of %d values, step %d, %d columns, axis %d, bars %v", p.N, p.Step, p.Columns(), p.Axis, p.Bars())
	}
	for c := range 99 {
		if p.Min[c] != 0 || p.Max[c] != 9 || p.Mean[c] != 4.5 {
			t.Fatalf("column %d: %g..%g mean %g, want 0..9 mean 4.5", c, p.Min[c], p.Max[c], p.Mean[c])
		}
	}
	// The last column lost its 5 to the NaN: finite values 0..4, 6..9.
	if p.Min[99] != 0 || p.Max[99] != 9 || p.Mean[99] != 40.0/9 || p.NonFinite != 1 {
		t.Errorf("last column %g..%g mean %g, %d non-finite", p.Min[99], p.Max[99], p.Mean[99], p.NonFinite)
	}
	if note := in.LinePlotNote(); !strings.Contains(note, "10 per column") || !strings.Contains(note, "1 NaN") {
		t.Errorf("note %q", note)
	}
	if img := in.RenderLinePlot(300, 200, PlotStyle{}); img == nil || img.Bounds().Dx() != 300 {
		t.Errorf("rendered %v", img)
	}
	// A wider view gets every value its column.
	in.SetPlotColumns(2000)
	drain(t, q, in)
	if p, _ := in.LinePlot(); p.Step != 1 || p.Columns() != n || p.Mean[7] != 7 {
		t.Errorf("at 2000 columns: step %d, %d columns", p.Step, p.Columns())
	}
}

func TestShortVectorIsBarsAndAHeatmapOnRequest(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("bias", []int{12}, seq(12)))
	drain(t, q, in)
	p, _ := in.LinePlot()
	if p == nil || !p.Bars() || p.Step != 1 || p.Mean[11] != 11 {
		t.Fatalf("bias plot %+v", p)
	}
	if in.Heatmap() == nil {
		t.Error("the heatmap of a vector must stay available")
	}
	in.SetVectorAsHeatmap(true)
	drain(t, q, in)
	if in.ShowsLinePlot() || !in.Settings().VectorAsHeatmap {
		t.Error("the heatmap choice did not stick")
	}
	if p, _ := in.LinePlot(); p != nil {
		t.Error("a plot was kept for a vector shown as a heatmap")
	}
	s := in.Settings()
	s.VectorAsHeatmap = false
	in.Apply(s)
	drain(t, q, in)
	if p, _ := in.LinePlot(); p == nil || !in.ShowsLinePlot() {
		t.Error("applying settings without the heatmap choice did not plot")
	}
}

func TestMatrixIsNotPlotted(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{3, 4}, seq(12)))
	drain(t, q, in)
	if in.IsVector() || in.ShowsLinePlot() {
		t.Error("a [3,4] tensor is offered as a plot")
	}
	if p, _ := in.LinePlot(); p != nil {
		t.Error("a plot was computed for a matrix")
	}
}

// Packed and block dtypes are plotted from their decoded values, as the
// statistics read them.
func TestPackedVectorIsPlotted(t *testing.T) {
	// int4: two per byte, low nibble first: 1, -2, 3, -4.
	b := []byte{0xE1, 0xC3}
	shape := []int{4}
	e := &formats.TensorEntry{Name: "q", DType: tensor.Int4, Shape: shape, NBytes: 2}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(b, tensor.Int4, shape) })
	in, q, _ := newTestInspector()
	in.Show(0, e)
	drain(t, q, in)
	p, err := in.LinePlot()
	if err != nil || p == nil {
		t.Fatalf("int4 plot %v, %v", p, err)
	}
	want := []float64{1, -2, 3, -4}
	for i, w := range want {
		if p.Mean[i] != w {
			t.Fatalf("int4 plot values %v, want %v", p.Mean, want)
		}
	}
}

// The hover text maps a pixel of the drawn plot back to its value or
// column.
func TestLinePlotInfoAtPixel(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("bias", []int{12}, seq(12)))
	drain(t, q, in)
	if in.RenderLinePlot(400, 300, PlotStyle{}) == nil {
		t.Fatal("no plot drawn")
	}
	f := in.line.frame
	pixelOf := func(v float64) float64 { return f.left + (v-f.xmin)/(f.xmax-f.xmin)*(f.right-f.left) }
	if got := in.LinePlotInfoAt(pixelOf(7.2), 400, 300); got != "index 7: 7" {
		t.Errorf("hover over bar 7: %q", got)
	}
	if got := in.LinePlotInfoAt(pixelOf(7), 401, 300); got != "" {
		t.Errorf("at a size not drawn: %q", got)
	}

	vals := make([]float32, 1000)
	for i := range vals {
		vals[i] = float32(i % 10)
	}
	in.SetPlotColumns(100)
	in.Show(1, f32Entry("signal", []int{1000}, vals))
	drain(t, q, in)
	in.RenderLinePlot(400, 300, PlotStyle{})
	f = in.line.frame
	if got := in.LinePlotInfoAt(pixelOf(123), 400, 300); got != "indices 120–129: 0 to 9, mean 4.5" {
		t.Errorf("hover over a reduced column: %q", got)
	}
}

// Selecting another tensor cancels a plot still being computed: its result
// never arrives.
func TestLinePlotCancelledOnSelection(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("long", []int{1 << 20}, make([]float32, 1<<20)))
	stepUntil(t, q, func() bool { return in.line.task != nil }) // loaded: the plot is running
	plotTask := in.line.task
	in.Show(1, f32Entry("bias", []int{3}, []float32{7, 8, 9}))
	if !plotTask.cancelled.Load() {
		t.Error("the first tensor's plot was not cancelled")
	}
	plotTask.Wait()
	drain(t, q, in)
	if p, _ := in.LinePlot(); p == nil || p.N != 3 || p.Mean[0] != 7 {
		t.Errorf("plot after switching: %+v", p)
	}
}

// stepUntil runs posted functions one at a time until cond holds, so that
// results posted after that moment stay queued.
func stepUntil(t *testing.T, q *Queue, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		q.mu.Lock()
		var f func()
		if len(q.fns) > 0 {
			f, q.fns = q.fns[0], q.fns[1:]
		}
		q.mu.Unlock()
		switch {
		case f != nil:
			f()
		case time.Now().After(deadline):
			t.Fatal("the condition did not come true")
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A ggml block type is plotted from its dequantised values: one q8_0 block
// of 32 int8 values with an f16 scale of 0.5.
func TestBlockVectorIsPlotted(t *testing.T) {
	b := make([]byte, 34)
	binary.LittleEndian.PutUint16(b, tensor.Float32ToFloat16(0.5))
	for i := range 32 {
		b[2+i] = byte(int8(i - 16))
	}
	shape := []int{32}
	e := &formats.TensorEntry{Name: "q8", DType: tensor.GGMLQ8_0, Shape: shape, NBytes: 34}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(b, tensor.GGMLQ8_0, shape) })
	in, q, _ := newTestInspector()
	in.Show(0, e)
	drain(t, q, in)
	p, err := in.LinePlot()
	if err != nil || p == nil || !p.Bars() {
		t.Fatalf("q8_0 plot %+v, %v", p, err)
	}
	for i, v := range p.Mean {
		if want := float64(i-16) * 0.5; v != want {
			t.Fatalf("value %d is %g, want %g", i, v, want)
		}
	}
}
