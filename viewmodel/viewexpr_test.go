package viewmodel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// seqTensor is a contiguous float32 tensor of 0, 1, 2, ... in row-major
// order, so an element's value is its row-major position.
func seqTensor(t *testing.T, shape ...int) *tensor.Tensor {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	e := f32Entry("w", shape, seq(n))
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// flatPos is the row-major position of idx in shape.
func flatPos(shape, idx []int) int {
	p := 0
	for k, i := range idx {
		p = p*shape[k] + i
	}
	return p
}

// Each expression gives the shape NumPy gives, every element is the one
// its index map names, and nothing is copied.
func TestViewExprApply(t *testing.T) {
	w := seqTensor(t, 4, 3, 3, 2) // [O, I, kh, kw]
	tests := []struct {
		expr  string
		shape []int
	}{
		{"w", []int{4, 3, 3, 2}},
		{"", []int{4, 3, 3, 2}},
		{"w[:, :, 1, 1]", []int{4, 3}},
		{"w[0:2]", []int{2, 3, 3, 2}},
		{"w[-1]", []int{3, 3, 2}},
		{"w[1:-1, ..., 0]", []int{2, 3, 3}},
		{"w[..., ::2]", []int{4, 3, 3, 1}},
		{"w[::3, 1:]", []int{2, 2, 3, 2}},
		{"w[-10:10]", []int{4, 3, 3, 2}},
		{"w.permute(0,2,1,3).merge(0,1).merge(1,2)", []int{12, 6}},
		{"w.permute(0, 2, 1, 3).merge(0, 1).merge(1, 2)[3:6, 2:]", []int{3, 4}},
		{"x.permute(0,2,1,3).merge(0,1).merge(1,2).transpose(0,1)", []int{6, 12}},
		{"w.merge(-2,-1)", []int{4, 3, 6}},
		{"w.select(1, -1).split(0, 2, -1)", []int{2, 2, 3, 2}},
		{"w.view(12, -1)", []int{12, 6}},
		{"w.reshape(-1)", []int{72}},
		{"  w [0] . permute(1, 0, 2)  ", []int{3, 3, 2}},
		{"[0][1]", []int{3, 2}},
	}
	for _, tc := range tests {
		e, err := ParseViewExpr(tc.expr)
		if err != nil {
			t.Fatalf("%q: %v", tc.expr, err)
		}
		v, toSource, err := e.Apply(w)
		if err != nil {
			t.Fatalf("%q: %v", tc.expr, err)
		}
		if !slices.Equal(v.Shape(), tc.shape) {
			t.Fatalf("%q: shape %v, want %v", tc.expr, v.Shape(), tc.shape)
		}
		if v.Storage() != w.Storage() {
			t.Fatalf("%q: copied", tc.expr)
		}
		forEach(v.Shape(), func(idx []int) {
			src := toSource(idx)
			got, err := v.Float64At(idx)
			if err != nil || got != float64(flatPos(w.Shape(), src)) {
				t.Fatalf("%q: %v = %v, %v; its source %v holds %d", tc.expr, idx, got, err, src, flatPos(w.Shape(), src))
			}
		})
	}
}

// forEach calls fn with every index of shape in row-major order.
func forEach(shape []int, fn func(idx []int)) {
	idx := make([]int, len(shape))
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	for {
		fn(idx)
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// Bad expressions say where and what, in the user's terms.
func TestViewExprErrors(t *testing.T) {
	w := seqTensor(t, 4, 3, 3, 2)
	tests := []struct{ expr, want string }{
		{"w[0", "col 4: expected ',' or ']', found the end"},
		{"w[:, :, 1, 1", "col 13: expected ',' or ']', found the end"},
		{"w[]", "col 3: expected an index, a slice or '...', found \"]\""},
		{"w[a]", "col 3: expected an index, a slice or '...', found \"a\""},
		{"w(0)", "col 2: expected '[' or '.', found \"(\""},
		{"w.flip(0)", "col 3: unknown operation \"flip\""},
		{"w.permute(0,2,1,3", "col 18: expected ')', found the end"},
		{"w.permute(0,,1)", "col 13: expected an integer, found \",\""},
		{"w.merge(1)", "col 3: merge takes 2 arguments, not 1"},
		{"w.view()", "col 3: view needs arguments"},
		{"w[99999999999999999999]", "col 3: integer 99999999999999999999 is out of range"},
		{"w.", "col 3: expected an operation name, found the end"},
		// Parsed, then refused by the tensor's shape.
		{"w[4]", "col 3: index 4 is out of range for axis 0 of size 4"},
		{"w[:, :, :, :, 0]", "col 2: [:, :, :, :, 0]: 5 indices for a tensor of rank 4"},
		{"w[..., ...]", "only one '...' may appear"},
		{"w[3:1]", "col 3: slice 3:1 of an axis of size 4 selects nothing"},
		{"w[::-1]", "col 3: step -1: only positive steps are views"},
		{"w.merge(2,1)", "col 3: merge(2,1): axes 2 and 1: the first must not come after the second"},
		{"w.merge(1,4)", "col 3: merge(1,4): axis 4 is out of range for rank 4"},
		{"w.permute(0,1,2)", "col 3: permute(0,1,2): a tensor of rank 4 needs 4 axes, not 3"},
		{"w.permute(0,1,1,2)", "axis 1 repeated"},
		{"w.view(5, -1)", "col 3: view(5, -1): sizes [5 -1] cannot divide 72 elements"},
		{"w.permute(0,2,1,3).merge(0,1)[1:4]", "col 31: Slice(dim=0, start=1, len=3) of float32[12,3,2]: dim 0 merges dims that are not adjacent in memory"},
		{"w.permute(0,2,1,3).merge(0,1).view(72)", "col 31: view(72): View([72])"},
	}
	for _, tc := range tests {
		e, err := ParseViewExpr(tc.expr)
		if err == nil {
			_, _, err = e.Apply(w)
		}
		if err == nil {
			t.Errorf("%q was accepted", tc.expr)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.expr, err, tc.want)
		}
	}
	if _, err := ParseViewExpr(strings.Repeat("[0]", 400)); err == nil {
		t.Error("an expression of 1200 characters was accepted")
	}
	if _, err := ParseViewExpr(strings.Repeat(".merge(0,0)", 80)); err == nil || !strings.Contains(err.Error(), "more than 64 operations") {
		t.Errorf("80 operations: %v", err)
	}
}

// Conv weights open as a mosaic whose hover names the kernel element;
// 1×1 kernels, large "kernels" and integers keep the plane of the two
// largest axes.
func TestConvWeightOpensAsMosaic(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("conv.weight", []int{4, 3, 3, 2}, seq(72)))
	drain(t, q, in)
	if in.Err() != nil {
		t.Fatal(in.Err())
	}
	if in.Expr() != MosaicExpr {
		t.Fatalf("view %q, want the mosaic", in.Expr())
	}
	if r, c := in.PlaneSize(); r != 12 || c != 6 {
		t.Fatalf("mosaic plane %d×%d, want 12×6", r, c)
	}
	h := in.Heatmap()
	if h == nil || h.RowBlock != 3 || h.ColBlock != 2 {
		t.Fatalf("heatmap %+v: want separators every 3 rows and 2 columns", h)
	}
	// Row 4 is kernel row o=1, y=1; column 5 is input i=2, x=1.
	if got, want := in.ElementInfo(4, 5), fmt.Sprintf("[1, 2, 1, 1] = %d", flatPos([]int{4, 3, 3, 2}, []int{1, 2, 1, 1})); got != want {
		t.Fatalf("hover %q, want %q", got, want)
	}
	if got := in.CellInfo(4, 5); got != in.ElementInfo(4, 5) {
		t.Fatalf("cell hover %q", got)
	}
	st, ok := in.Stats()
	if !ok || st.Count != 72 || st.Max != 71 {
		t.Fatalf("stats of the mosaic %+v", st)
	}
	if s := in.Settings(); s.Expr != MosaicExpr {
		t.Fatalf("settings name view %q", s.Expr)
	}

	// The plane view of the tensor itself, then back to the default.
	if err := in.SetExpr("w"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if r, c := in.PlaneSize(); in.Expr() != "w" || r != 4 || c != 3 {
		t.Fatalf("plane view %q %d×%d", in.Expr(), r, c)
	}
	if err := in.SetExpr(""); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if in.Expr() != MosaicExpr {
		t.Fatalf("empty expression: view %q, want the default mosaic", in.Expr())
	}

	// A depthwise weight's mosaic is a plain strided plane (I = 1), but its
	// kernels are still separated.
	in.Show(2, f32Entry("dw", []int{5, 1, 3, 3}, seq(45)))
	drain(t, q, in)
	if h := in.Heatmap(); in.Expr() != MosaicExpr || h == nil || h.RowBlock != 3 || h.ColBlock != 3 {
		t.Fatalf("depthwise: view %q heatmap %+v", in.Expr(), h)
	}

	for _, c := range []struct {
		shape []int
		plane [2]int
	}{
		{[]int{8, 6, 1, 1}, [2]int{8, 6}},
		{[]int{1, 2, 16, 16}, [2]int{16, 16}},
	} {
		n := c.shape[0] * c.shape[1] * c.shape[2] * c.shape[3]
		in.Show(1, f32Entry("other", c.shape, seq(n)))
		drain(t, q, in)
		if r, col := in.PlaneSize(); in.Expr() != "" || r != c.plane[0] || col != c.plane[1] {
			t.Errorf("%v: view %q plane %d×%d, want the tensor's %v", c.shape, in.Expr(), r, col, c.plane)
		}
	}
}

// The expression box: a bad expression changes nothing and says where; a
// good one is shown like any tensor (stats, heatmap, histogram, values).
func TestInspectorExpression(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{4, 3, 3, 2}, seq(72)))
	drain(t, q, in)
	err := in.SetExpr("w[:, :, 1, 1")
	if err == nil || !strings.Contains(err.Error(), "col 13: expected ',' or ']'") {
		t.Fatalf("bad expression: %v", err)
	}
	if in.Expr() != MosaicExpr {
		t.Fatalf("a bad expression changed the view to %q", in.Expr())
	}
	if err := in.SetExpr("w[:, :, 1, 1]"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if r, c := in.PlaneSize(); r != 4 || c != 3 {
		t.Fatalf("plane %d×%d", r, c)
	}
	st, ok := in.Stats()
	if !ok || st.Count != 12 || st.Min != 3 || st.Max != 69 {
		t.Fatalf("stats %+v", st)
	}
	if got := in.SummaryText(); !strings.HasPrefix(got, "float32[4,3,3,2] viewed as [4,3] n=12 ") {
		t.Fatalf("summary %q", got)
	}
	if h, err := in.Histogram(); err != nil || h == nil || histTotal(h) != 12 {
		t.Fatalf("histogram %+v %v", h, err)
	}
	if got, want := in.ElementInfo(2, 1), fmt.Sprintf("[2, 1, 1, 1] = %d", flatPos([]int{4, 3, 3, 2}, []int{2, 1, 1, 1})); got != want {
		t.Fatalf("hover %q, want %q", got, want)
	}
	if got := in.ValueText(2, 1); got != fmt.Sprint(flatPos([]int{4, 3, 3, 2}, []int{2, 1, 1, 1})) {
		t.Fatalf("value %q", got)
	}
	// Another tensor starts from its own default view.
	in.Show(1, f32Entry("b", []int{5}, seq(5)))
	drain(t, q, in)
	if in.Expr() != "" {
		t.Fatalf("the expression leaked to the next tensor: %q", in.Expr())
	}
}

// Settings carry the expression, validated once; applied, it is shown,
// and one that does not fit the tensor is a settings error with the
// tensor shown as it is.
func TestSettingsExpr(t *testing.T) {
	var s InspectorSettings
	if err := s.SetExpr("w[0"); err == nil {
		t.Fatal("a bad expression was accepted")
	}
	s = DefaultInspectorSettings()
	if err := s.SetExpr(" w[..., 0] "); err != nil || s.Expr != "w[..., 0]" {
		t.Fatalf("%q %v", s.Expr, err)
	}
	in, q, _ := newTestInspector()
	in.Apply(s)
	in.Show(0, f32Entry("w", []int{4, 3, 3, 2}, seq(72)))
	drain(t, q, in)
	// The view is [4,3,3]: its default plane is its two largest axes,
	// the later among equals (4×3).
	if r, c := in.PlaneSize(); in.Expr() != "w[..., 0]" || r != 4 || c != 3 || in.SettingsErr() != nil {
		t.Fatalf("view %q plane %d×%d err %v", in.Expr(), r, c, in.SettingsErr())
	}
	if err := s.SetExpr("w[7]"); err != nil {
		t.Fatal(err)
	}
	in.Apply(s)
	drain(t, q, in)
	if err := in.SettingsErr(); err == nil || !strings.Contains(err.Error(), "index 7 is out of range") || in.Expr() != "" {
		t.Fatalf("err %v view %q", err, in.Expr())
	}
	// Axes named without an expression mean the tensor's own plane.
	s = DefaultInspectorSettings()
	if err := s.SetAxes(0, 1); err != nil {
		t.Fatal(err)
	}
	in.Apply(s)
	drain(t, q, in)
	if r, c := in.PlaneSize(); in.Expr() != "" || r != 4 || c != 3 {
		t.Fatalf("axes 0,1: view %q plane %d×%d", in.Expr(), r, c)
	}
}

// histTotal is the number of values a histogram counted in its bins.
func histTotal(h *tensor.Histogram) int64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// No input makes the parser or Apply panic, and whatever Apply accepts is a
// view of the tensor's own storage whose every element is the one its
// index map names.
func FuzzViewExpr(f *testing.F) {
	for _, s := range []string{MosaicExpr, "w[:, :, 1, 1]", "w[0:64]", "w[..., ::2]", "w[-1, 1:-1]",
		"w.select(0,-1).split(0,1,3).view(-1)", "w.transpose(-1,0)[::3]", "w[", "w.merge(0", "x..", "[0]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseViewExpr(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "col ") && !strings.Contains(err.Error(), "characters") {
				t.Fatalf("%q: error %q names no column", src, err)
			}
			return
		}
		w := seqTensor(t, 4, 3, 3, 2)
		v, toSource, err := e.Apply(w)
		if err != nil {
			return
		}
		if v.Storage() != w.Storage() {
			t.Fatalf("%q copied", src)
		}
		forEach(v.Shape(), func(idx []int) {
			src2 := toSource(idx)
			got, err := v.Float64At(idx)
			if err != nil || got != float64(flatPos(w.Shape(), src2)) {
				t.Fatalf("%q: %v = %v, %v; its source %v", src, idx, got, err, src2)
			}
		})
	})
}

// Exporting what is shown writes the view's elements in its row-major
// order, a mosaic included: the composite view goes out without a copy
// of its own, through every writer.
func TestExportShownMosaic(t *testing.T) {
	q := NewQueue()
	d := &Doc{post: q.Post, Inspector: NewInspector(q.Post)}
	d.Inspector.Show(0, f32Entry("w", []int{2, 2, 2, 2}, seq(16)))
	drain(t, q, d.Inspector)
	if d.Inspector.Expr() != MosaicExpr {
		t.Fatalf("view %q", d.Inspector.Expr())
	}
	dir := t.TempDir()
	want := []float64{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15} // kernel rows side by side
	for _, name := range []string{"m.npy", "m.tsr", "m.safetensors", "m.csv"} {
		path := filepath.Join(dir, name)
		done := false
		var err error
		if _, e := d.ExportShown(path, func(_ string, e error) { err, done = e, true }); e != nil {
			t.Fatal(e)
		}
		if !q.Drain(func() bool { return !done }, 10*time.Second) {
			t.Fatal("export did not finish")
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "m.csv" {
			b, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(b), "0,1,4,5\n2,3,6,7\n8,9,12,13\n10,11,14,15") {
				t.Errorf("csv %q", b)
			}
			continue
		}
		doc, err := formats.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		x, err := doc.Tensors[0].Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, x.Len())
		if err := x.ReadFloat64s(0, got); err != nil || !slices.Equal(got, want) || !slices.Equal(x.Shape(), []int{4, 4}) {
			t.Errorf("%s: %v %v, %v; want %v", name, x.Shape(), got, err, want)
		}
		doc.Close()
	}
}

// A quantised conv weight is a mosaic whether its stored integers or its
// dequantised values are shown; hover gives both.
func TestQuantisedConvWeightMosaic(t *testing.T) {
	in, q, _ := newTestInspector()
	raw := make([]byte, 2*2*3*3)
	for i := range raw {
		raw[i] = byte(i)
	}
	shape := []int{2, 2, 3, 3}
	e := &formats.TensorEntry{Name: "qconv", DType: tensor.Uint8, Shape: shape,
		Quant: &formats.Quant{Scales: []float64{0.5}, ZeroPoints: []int64{0}}}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(raw, tensor.Uint8, shape) })
	in.Show(0, e)
	drain(t, q, in)
	if in.Expr() != MosaicExpr {
		t.Fatalf("stored: view %q", in.Expr())
	}
	in.SetDequantised(true)
	drain(t, q, in)
	if in.Expr() != MosaicExpr {
		t.Fatalf("dequantised: view %q", in.Expr())
	}
	// Row 4 is o=1, y=1; column 2 is i=0, x=2: stored 18+3+2 = 23.
	if got := in.ElementInfo(4, 2); got != "[1, 0, 1, 2] = 11.5 (stored 23)" {
		t.Fatalf("hover %q", got)
	}
}

// The mosaic is offered where it says more than a plane: not for rows of
// kernels that are themselves rows ([16,1,1,32] is a 16×32 plane), nor for
// 1×1 kernels; always while it is in effect.
func TestMosaicOfferedWhereItMeansSomething(t *testing.T) {
	for _, c := range []struct {
		shape []int
		offer bool
	}{
		{[]int{4, 3, 3, 2}, true},
		{[]int{8, 4, 1, 1}, false}, // 1×1 kernels
		{[]int{16, 1, 1, 32}, false},
		{[]int{1, 16, 32, 1}, false},
		{[]int{1, 1, 5, 5}, true}, // one small kernel opens as its (one-tile) mosaic: offered, to turn off
		{[]int{16, 2, 1, 32}, true},
		{[]int{1, 3, 24, 24}, true}, // an image's channels side by side
		{[]int{4, 3, 3}, false},
	} {
		in, q, _ := newTestInspector()
		n := 1
		for _, d := range c.shape {
			n *= d
		}
		in.Show(0, f32Entry("w", c.shape, seq(n)))
		drain(t, q, in)
		if got := in.CanMosaic(); got != c.offer {
			t.Errorf("%v: mosaic offered %v, want %v", c.shape, got, c.offer)
		}
	}
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{16, 1, 1, 32}, seq(512)))
	drain(t, q, in)
	if err := in.SetExpr(MosaicExpr); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if !in.CanMosaic() {
		t.Error("a mosaic in effect is no longer offered, so it cannot be turned off")
	}
}
