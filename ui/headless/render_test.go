package headless

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/formats/tsm"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

var updateRender = flag.Bool("update-render", false, "rewrite the golden images in testdata/")

// Render fixtures are written by the project's own encoders into a
// temporary directory: Render reopens files by path, as the GUI does.

// waveTSR is a TSR v1 float32[3,40,64] of smooth signed waves, a different
// amplitude per plane, with a NaN, a +Inf and a −Inf in plane 0.
func waveTSR(t *testing.T) []byte {
	x := float32Tensor(t, []int{3, 40, 64}, func(i int) float32 {
		k, r, c := i/(40*64), (i/64)%40, i%64
		switch i {
		case 5*64 + 9:
			return float32(math.NaN())
		case 20*64 + 30:
			return float32(math.Inf(1))
		case 33*64 + 50:
			return float32(math.Inf(-1))
		}
		return float32(math.Sin(float64(r)/6+float64(k))*math.Cos(float64(c)/9)) * float32(k+1)
	})
	var b bytes.Buffer
	if err := tsr.EncodeV1(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// largeFP16TSR is a TSR4 float16[1,1,1500,1100], larger than the heatmap
// grid in both directions, so that it is downsampled.
func largeFP16TSR(t *testing.T) []byte {
	const rows, cols = 1500, 1100
	b := make([]byte, 2*rows*cols)
	for i := 0; i < rows*cols; i++ {
		r, c := float64(i/cols), float64(i%cols)
		v := math.Sin(r/97)*math.Cos(c/61) + 0.3*math.Sin((r+c)/13)
		binary.LittleEndian.PutUint16(b[2*i:], tensor.Float32ToFloat16(float32(v)))
	}
	x, err := tensor.FromBytes(b, tensor.Float16, []int{rows, cols})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, []*tensor.Tensor{x}, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cnnTmfile is the synthetic ResNet-like model of 60 nodes with weights.
func cnnTmfile(t *testing.T) []byte {
	var b bytes.Buffer
	if err := tmfile.Encode(&b, synth.CNN(60, true)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// smallTSM is a TenniS module: an input, a convolution with a constant
// 8×3×3×3 kernel, and a ReLU.
func smallTSM(t *testing.T) []byte {
	w := make([]float32, 8*3*3*3)
	for i := range w {
		w[i] = float32(math.Sin(float64(i)*0.37)) * float32(1+i%3)
	}
	b := tsm.NewBuilder()
	x := b.Input("input", tsm.FLOAT32, 1, 3, 16, 16)
	k := b.Const("conv.weight", tsm.Float32s(w, 8, 3, 3, 3))
	c := b.Node("conv2d", "conv", []int{x, k}, tsm.P("stride", tsm.Int32s([]int32{1, 1, 1, 1}, 4)))
	r := b.Node("relu", "relu", []int{c})
	b.Output(r)
	var buf bytes.Buffer
	if err := tsm.Encode(&buf, b.Module()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// quantTmfile is a model whose one weight is int8[4,6] quantised per
// output channel (dimension 0) with different scales.
func quantTmfile(t *testing.T) []byte {
	b := tmfile.NewBuilder(1, "quantised")
	x := b.Input("data", []int32{1, 6})
	q := make([]byte, 24)
	for i := range q {
		q[i] = byte(int8(i*11%41 - 20))
	}
	scales := []tmfile.QuantParam{{Scale: 0.5}, {Scale: 0.05}, {Scale: 0.2}, {Scale: 1}}
	w := b.ConstRaw("fc.weight", []int32{4, 6}, tmfile.DataInt8, 24, q, scales)
	fc := b.Op("fc", "FullyConnected", nil, []int32{1, 4}, x, w)
	b.Output(fc)
	m, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openFile writes data to a file named name and opens it.
func openFile(t *testing.T, name string, data []byte) *formats.Document {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

func tensorNamed(t *testing.T, doc *formats.Document, name string) int {
	t.Helper()
	for i, e := range doc.Tensors {
		if e.Name == name {
			return i
		}
	}
	var names []string
	for _, e := range doc.Tensors {
		names = append(names, e.Name)
	}
	t.Fatalf("no tensor %q among %v", name, names)
	return -1
}

// RenderOptions is a test case's Options with the settings spelt as the
// render command's flags give them.
type RenderOptions struct {
	View          string
	Width, Height int
	Grow          bool
	Dark          bool
	Tensor        int
	Settings      InspectorSettings
}

// InspectorSettings are settings as flags spell them; zero values keep the
// defaults.
type InspectorSettings struct {
	Axes       []int
	Index      map[int]int
	Colormap   string
	Range      viewmodel.RangeMode
	Lo, Hi     float64
	Bins       int
	Reduction  string
	Dequantise bool
	LogCounts  bool
	PlaneHist  bool
	Expr       string
}

// options makes Options through the viewmodel's setters, as the render
// command does; the range applies to the histogram for its view.
func (o RenderOptions) options() (Options, error) {
	s := viewmodel.DefaultInspectorSettings()
	f := o.Settings
	var errs []error
	if f.Axes != nil {
		if len(f.Axes) != 2 {
			errs = append(errs, fmt.Errorf("axes %v", f.Axes))
		} else {
			errs = append(errs, s.SetAxes(f.Axes[0], f.Axes[1]))
		}
	}
	for a, i := range f.Index {
		errs = append(errs, s.SetIndex(a, i))
	}
	if f.Colormap != "" {
		errs = append(errs, s.SetColormap(f.Colormap))
	}
	if o.View == ViewHistogram {
		errs = append(errs, s.SetHistRange(f.Range, f.Lo, f.Hi))
	} else {
		errs = append(errs, s.SetRange(f.Range, f.Lo, f.Hi))
	}
	if f.Bins != 0 {
		errs = append(errs, s.SetHistBins(f.Bins))
	}
	if f.Reduction != "" {
		errs = append(errs, s.SetReduction(f.Reduction))
	}
	errs = append(errs, s.SetExpr(f.Expr))
	s.Dequantise, s.HistLog = f.Dequantise, f.LogCounts
	if f.PlaneHist {
		s.HistScope = viewmodel.HistPlane
	}
	opt := Options{View: o.View, Width: o.Width, Height: o.Height, Grow: o.Grow, Dark: o.Dark, Tensor: o.Tensor, Settings: s}
	return opt, errors.Join(errs...)
}

// renderWith renders through the setters and Render.
func renderWith(ctx context.Context, doc *formats.Document, o RenderOptions) (image.Image, error) {
	opt, err := o.options()
	if err != nil {
		return nil, err
	}
	return Render(ctx, doc, opt)
}

func render(t *testing.T, doc *formats.Document, opt RenderOptions) image.Image {
	t.Helper()
	img, err := renderWith(context.Background(), doc, opt)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != opt.Width || b.Dy() != opt.Height {
		t.Fatalf("rendered %v, want %d×%d", b, opt.Width, opt.Height)
	}
	return img
}

// assertGolden compares img pixel for pixel with testdata/render/name; on
// a difference it writes img to testdata/failed/render/name.
func assertGolden(t *testing.T, name string, img image.Image) {
	t.Helper()
	master := filepath.Join("testdata", name)
	if *updateRender {
		if err := writePNG(master, img); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(master)
	if err != nil {
		t.Fatalf("%v (run the test with -update-render to create it)", err)
	}
	want, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff, first := differentPixels(want, img); diff > 0 {
		failed := filepath.Join("testdata", "failed", name)
		if err := writePNG(failed, img); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s: %d pixels differ from the master (first at %v); the actual image is in %s", name, diff, first, failed)
	}
}

func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func differentPixels(a, b image.Image) (n int, first image.Point) {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy(), a.Bounds().Min
	}
	first = image.Pt(-1, -1)
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	return n, first
}

func TestRenderGolden(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	large := openFile(t, "large.tsr", largeFP16TSR(t))
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	module := openFile(t, "small.tsm", smallTSM(t))
	quant := openFile(t, "quant.tmfile", quantTmfile(t))
	cases := []struct {
		name string
		doc  *formats.Document
		opt  RenderOptions
	}{
		{"heatmap_wave.png", wave, RenderOptions{View: ViewHeatmap, Width: 520, Height: 360, Tensor: -1}},
		{"heatmap_wave_axes.png", wave, RenderOptions{View: ViewHeatmap, Width: 420, Height: 480, Tensor: 0,
			Settings: InspectorSettings{Axes: []int{2, 1}, Index: map[int]int{0: 2}, Colormap: "coolwarm (diverging)",
				Range: viewmodel.RangeSymmetric}}},
		{"heatmap_large_absmax.png", large, RenderOptions{View: ViewHeatmap, Width: 640, Height: 480, Tensor: -1,
			Settings: InspectorSettings{Colormap: "grayscale", Reduction: "absmax", Range: viewmodel.RangeManual, Lo: 0, Hi: 1.2}}},
		{"heatmap_tsm.png", module, RenderOptions{View: ViewHeatmap, Width: 360, Height: 300, Tensor: tensorNamed(t, module, "conv.weight"),
			Settings: InspectorSettings{Index: map[int]int{0: 5, 1: 2}}}},
		{"histogram_wave.png", wave, RenderOptions{View: ViewHistogram, Width: 520, Height: 360, Tensor: -1}},
		{"histogram_wave_plane_log.png", wave, RenderOptions{View: ViewHistogram, Width: 520, Height: 360, Tensor: 0,
			Settings: InspectorSettings{Bins: 24, LogCounts: true, PlaneHist: true, Index: map[int]int{0: 1},
				Range: viewmodel.RangeManual, Lo: -1.5, Hi: 1.5}}},
		{"graph_cnn.png", cnn, RenderOptions{View: ViewGraph, Width: 400, Height: 900, Tensor: -1}},
		{"graph_cnn_dark.png", cnn, RenderOptions{View: ViewGraph, Width: 600, Height: 300, Tensor: -1, Dark: true}},
		{"window_wave.png", wave, RenderOptions{View: ViewWindow, Width: 1100, Height: 700, Tensor: -1,
			Settings: InspectorSettings{Index: map[int]int{0: 1}, Colormap: "grayscale"}}},
		{"window_quant_dequantised.png", quant, RenderOptions{View: ViewWindow, Width: 1280, Height: 820,
			Tensor: tensorNamed(t, quant, "fc.weight"), Settings: InspectorSettings{Dequantise: true, Colormap: "coolwarm (diverging)"}}},
		{"window_cnn.png", cnn, RenderOptions{View: ViewWindow, Width: 1000, Height: 700, Tensor: -1}},
		{"window_cnn_weight.png", cnn, RenderOptions{View: ViewWindow, Width: 1280, Height: 820,
			Tensor: tensorNamed(t, cnn, "stem_conv.weight"), Settings: InspectorSettings{Axes: []int{0, 1}, Index: map[int]int{2: 1, 3: 1},
				Range: viewmodel.RangeManual, Lo: -0.5, Hi: 0.5}}},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.name, ".png"), func(t *testing.T) {
			assertGolden(t, c.name, render(t, c.doc, c.opt))
		})
	}
}

// The same input gives the same PNG bytes.
func TestRenderDeterministic(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	for _, c := range []struct {
		doc *formats.Document
		opt RenderOptions
	}{
		{wave, RenderOptions{View: ViewHeatmap, Width: 360, Height: 240, Tensor: -1}},
		{wave, RenderOptions{View: ViewHistogram, Width: 360, Height: 240, Tensor: -1}},
		{cnn, RenderOptions{View: ViewGraph, Width: 300, Height: 600, Tensor: -1}},
		{cnn, RenderOptions{View: ViewWindow, Width: 900, Height: 600, Tensor: -1}},
		{wave, RenderOptions{View: ViewWindow, Width: 900, Height: 820, Tensor: -1}},
	} {
		var first []byte
		for i := 0; i < 2; i++ {
			var b bytes.Buffer
			if err := png.Encode(&b, render(t, c.doc, c.opt)); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b.Bytes()
			} else if !bytes.Equal(first, b.Bytes()) {
				t.Errorf("%s of %s: two renders differ", c.opt.View, c.doc.Path)
			}
		}
	}
}

// Settings change what is drawn: each differs from the default render.
func TestRenderSettingsTakeEffect(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	base := RenderOptions{View: ViewHeatmap, Width: 360, Height: 240, Tensor: -1}
	def := render(t, wave, base)
	for _, s := range []InspectorSettings{
		{Colormap: "grayscale"},
		{Range: viewmodel.RangeSymmetric},
		{Range: viewmodel.RangeManual, Lo: -0.2, Hi: 0.2},
		{Index: map[int]int{0: 1}},
		{Axes: []int{2, 1}},
	} {
		opt := base
		opt.Settings = s
		if n, _ := differentPixels(def, render(t, wave, opt)); n == 0 {
			t.Errorf("settings %+v drew the default heatmap", s)
		}
	}
	quant := openFile(t, "quant.tmfile", quantTmfile(t))
	qopt := RenderOptions{View: ViewHeatmap, Width: 360, Height: 240, Tensor: tensorNamed(t, quant, "fc.weight")}
	stored := render(t, quant, qopt)
	qopt.Settings.Dequantise = true
	if n, _ := differentPixels(stored, render(t, quant, qopt)); n == 0 {
		t.Error("dequantised values drew the stored ones")
	}
	hist := RenderOptions{View: ViewHistogram, Width: 360, Height: 240, Tensor: -1}
	defHist := render(t, wave, hist)
	for _, s := range []InspectorSettings{{Bins: 16}, {LogCounts: true}, {PlaneHist: true}, {Range: viewmodel.RangeManual, Lo: 0, Hi: 1}} {
		opt := hist
		opt.Settings = s
		if n, _ := differentPixels(defHist, render(t, wave, opt)); n == 0 {
			t.Errorf("settings %+v drew the default histogram", s)
		}
	}
}

// The graph coloured by the std of each node's main weight, as the
// pane's "Colour by" draws it, with the colour bar (issue 24).
func TestRenderGraphColouredGolden(t *testing.T) {
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	g := viewmodel.DefaultGraphSettings()
	if err := g.SetColourBy("std"); err != nil {
		t.Fatal(err)
	}
	img, err := Render(context.Background(), cnn, Options{View: ViewGraph, Width: 400, Height: 900, Tensor: -1, Graph: &g})
	if err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "graph_cnn_std.png", img)
}

// Graph settings change what is drawn: each differs from the default.
func TestRenderGraphSettingsTakeEffect(t *testing.T) {
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	base := Options{View: ViewGraph, Width: 400, Height: 600, Tensor: -1}
	def := render(t, cnn, RenderOptions{View: ViewGraph, Width: 400, Height: 600, Tensor: -1})
	lr, consts, sel, zoomed := viewmodel.DefaultGraphSettings(), viewmodel.DefaultGraphSettings(), viewmodel.DefaultGraphSettings(), viewmodel.DefaultGraphSettings()
	for _, err := range []error{lr.SetDirection("lr"), sel.SelectNamed(cnn, "stem_conv"), zoomed.SetViewport(1, 100, 100)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	consts.ShowConstants = true
	coloured := viewmodel.DefaultGraphSettings()
	coloured.ColourBy = 1
	for name, g := range map[string]viewmodel.GraphSettings{"lr": lr, "constants": consts, "selection": sel, "viewport": zoomed, "colour": coloured} {
		opt := base
		opt.Graph = &g
		img, err := Render(context.Background(), cnn, opt)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := differentPixels(def, img); n == 0 {
			t.Errorf("graph settings %s drew the default graph", name)
		}
	}
	// A model's window shows its Graph pane with the settings too.
	win := Options{View: ViewWindow, Width: 1000, Height: 700, Tensor: -1}
	defWin, err := Render(context.Background(), cnn, win)
	if err != nil {
		t.Fatal(err)
	}
	win.Graph = &lr
	lrWin, err := Render(context.Background(), cnn, win)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := differentPixels(defWin, lrWin); n == 0 {
		t.Error("a left-to-right graph drew the default window")
	}
}

func TestRenderErrors(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	module := openFile(t, "small.tsm", smallTSM(t))
	strIndex := -1
	for i, e := range module.Tensors {
		if !e.DType.Numeric() || !e.HasData() {
			strIndex = i
			break
		}
	}
	type tc struct {
		doc  *formats.Document
		opt  RenderOptions
		want string
	}
	cases := []tc{
		{wave, RenderOptions{View: ViewGraph}, "no graph"},
		{wave, RenderOptions{View: "pie"}, "unknown view"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 3}, "no tensor 3"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Axes: []int{0, 5}}}, "axes"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Axes: []int{1, 2}, Index: map[int]int{1: 0}}}, "axis 1 is plotted"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Index: map[int]int{0: 3}}}, "outside axis 0"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Index: map[int]int{7: 0}}}, "no axis 7"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Colormap: "jet"}}, "unknown colour map"},
		{wave, RenderOptions{View: ViewHistogram, Tensor: 0, Settings: InspectorSettings{Range: viewmodel.RangeSymmetric}}, "symmetric"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0, Settings: InspectorSettings{Range: viewmodel.RangeManual, Lo: 1, Hi: 1}}, "low below high"},
		{wave, RenderOptions{View: ViewHeatmap, Tensor: 0}, "needs at least"},
		{wave, RenderOptions{View: ViewWindow, Tensor: 0}, "needs at least"},
	}
	if strIndex >= 0 {
		cases = append(cases, tc{module, RenderOptions{View: ViewHeatmap, Tensor: strIndex}, "tensor"})
	}
	for _, c := range cases {
		c.opt.Width, c.opt.Height = 200, 150
		_, err := renderWith(context.Background(), c.doc, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: error %v, want one mentioning %q", c.opt.View, c.opt.Settings, err, c.want)
		}
	}
}

// A cancelled context stops a render waiting for background work.
func TestRenderCancelled(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := renderWith(ctx, wave, RenderOptions{View: ViewHeatmap, Width: 100, Height: 100, Tensor: -1})
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestGraphScene(t *testing.T) {
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	s, pal, err := GraphScene(cnn, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(viewmodel.NewGraphModel(cnn, false).View().Nodes); len(s.Graph().Nodes) != want {
		t.Errorf("scene of %d nodes, want %d (constants folded)", len(s.Graph().Nodes), want)
	}
	if pal.Background.R > 0x40 {
		t.Errorf("dark palette background %v", pal.Background)
	}
	wave := openFile(t, "wave.tsr", waveTSR(t))
	if _, _, err := GraphScene(wave, false); err == nil {
		t.Error("a TSR file has a graph scene")
	}
}

// float32Tensor makes a tensor of shape whose element i is f(i).
func float32Tensor(t *testing.T, shape []int, f func(i int) float32) *tensor.Tensor {
	t.Helper()
	n, _ := tensor.NumElements(shape)
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f(i)))
	}
	x, err := tensor.FromBytes(b, tensor.Float32, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A default size (Grow) grows to what the view needs, where a chosen one
// is refused (TestRenderErrors): the same heatmap at 200x150.
func TestRenderDefaultSizeGrows(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	opt := RenderOptions{View: ViewHeatmap, Tensor: 0, Width: 200, Height: 150, Grow: true}
	img, err := renderWith(context.Background(), wave, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The heatmap's toolbars need more width; 150 rows are enough.
	if b := img.Bounds(); b.Dx() <= 200 || b.Dy() != 150 {
		t.Errorf("grew to %dx%d, want wider than 200 (the view's minimum) and 150 high", b.Dx(), b.Dy())
	}
}
