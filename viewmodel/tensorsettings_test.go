package viewmodel

import (
	"slices"
	"testing"
)

// Two weights of one shape and a bias, as a model's tensor list has them.
func threeTensors() (a, b, bias func(*Inspector)) {
	ea := f32Entry("a", []int{2, 3, 4}, seq(24))
	eb := f32Entry("b", []int{2, 3, 4}, seq(24))
	ec := f32Entry("bias", []int{4}, seq(4))
	return func(in *Inspector) { in.Show(0, ea) }, func(in *Inspector) { in.Show(1, eb) },
		func(in *Inspector) { in.Show(2, ec) }
}

func TestSettingsBelongToTheirTensor(t *testing.T) {
	in, q, _ := newTestInspector()
	showA, showB, _ := threeTensors()
	showA(in)
	drain(t, q, in)
	must(t, in.SetColormap("coolwarm"), in.SetRange(RangeManual, -1, 1), in.SetAxes(0, 2), in.SetFixed(1, 2),
		in.SetHistBins(32))
	drain(t, q, in)

	showB(in)
	drain(t, q, in)
	s := in.Settings()
	if s.Colormap != Colormaps[0] || s.Range.Mode != RangeAuto || s.HistBins != DefaultHistBins {
		t.Errorf("a's settings leaked to b: %+v", s)
	}
	if r, c := in.Axes(); r != 1 || c != 2 || in.Fixed()[0] != 0 {
		t.Errorf("b's plane: axes %d,%d fixed %v, want its default 1,2", r, c, in.Fixed())
	}
	must(t, in.SetColormap("grayscale"))

	showA(in)
	drain(t, q, in)
	s = in.Settings()
	if ColormapKey(s.Colormap) != "coolwarm" || s.Range != (RangeSetting{RangeManual, -1, 1}) || s.HistBins != 32 {
		t.Errorf("a's settings were not restored: %+v", s)
	}
	if r, c := in.Axes(); r != 0 || c != 2 || in.Fixed()[1] != 2 {
		t.Errorf("a's plane: axes %d,%d fixed %v, want 0,2 at axis 1 = 2", r, c, in.Fixed())
	}
	if h := in.Heatmap(); h == nil || h.Lo != -1 || h.Hi != 1 || h.Colormap != s.Colormap {
		t.Errorf("a's heatmap was not drawn with its settings: %+v", h)
	}
	showB(in)
	drain(t, q, in)
	if got := ColormapKey(in.Colormap()); got != "grayscale" {
		t.Errorf("b's colour map %q, want its own grayscale", got)
	}
}

func TestPinnedSettingsApplyToEveryTensorTheyFit(t *testing.T) {
	in, q, _ := newTestInspector()
	showA, showB, showBias := threeTensors()
	showA(in)
	drain(t, q, in)
	must(t, in.SetColormap("coolwarm"), in.SetAxes(0, 2), in.SetFixed(1, 1), in.SetHistBins(16))
	in.SetPinned(true)

	showB(in)
	drain(t, q, in)
	if ColormapKey(in.Colormap()) != "coolwarm" || in.Settings().HistBins != 16 {
		t.Errorf("pinned settings did not reach b: %+v", in.Settings())
	}
	if r, c := in.Axes(); r != 0 || c != 2 || in.Fixed()[1] != 1 {
		t.Errorf("pinned plane on b: axes %d,%d fixed %v", r, c, in.Fixed())
	}
	// Changes made while pinned travel on.
	must(t, in.SetColormap("grayscale"))
	showBias(in)
	drain(t, q, in)
	if ColormapKey(in.Colormap()) != "grayscale" {
		t.Errorf("the bias did not get the pinned colour map: %s", in.Colormap().Name)
	}
	// The plane does not fit a vector: its own, and no error.
	if err := in.SettingsErr(); err != nil {
		t.Errorf("a pinned plane that does not fit reported %v", err)
	}
	if r, c := in.Axes(); r != -1 || c != 0 || !in.ShowsLinePlot() {
		t.Errorf("bias plane %d,%d", r, c)
	}

	in.SetPinned(false)
	showBias(in) // unpinned, it keeps what it had while pinned
	showA(in)
	drain(t, q, in)
	showBias(in)
	drain(t, q, in)
	if ColormapKey(in.Colormap()) != "grayscale" {
		t.Errorf("the bias seen while pinned lost its settings: %s", in.Colormap().Name)
	}
	showB(in)
	drain(t, q, in)
	if ColormapKey(in.Colormap()) != "grayscale" || !slices.Equal(in.Fixed(), []int{0, 1, 0}) {
		t.Errorf("b after unpinning: %s, fixed %v; want the settings it was left with", in.Colormap().Name, in.Fixed())
	}
	showA(in)
	drain(t, q, in)
	if ColormapKey(in.Colormap()) != "coolwarm" {
		t.Errorf("a after unpinning: %s, want its own coolwarm", in.Colormap().Name)
	}
}

func must(t *testing.T, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A pinned expression carries to the next tensor when it fits it, and is
// dropped without an error when it does not (the tensor opens on its own
// default view).
func TestPinnedExpressionFitsOrIsDropped(t *testing.T) {
	q := NewQueue()
	in := NewInspector(q.Post)
	a := f32Entry("a", []int{4, 6}, seq(24))
	b := f32Entry("b", []int{3, 5}, seq(15))
	c := f32Entry("c", []int{7}, seq(7))
	in.Show(0, a)
	drain(t, q, in)
	if err := in.SetExpr("w[1:3]"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	in.SetPinned(true)
	in.Show(1, b)
	drain(t, q, in)
	if got := in.Tensor().Shape(); in.Expr() != "w[1:3]" || !slices.Equal(got, []int{2, 5}) {
		t.Errorf("pinned w[1:3] on [3,5]: expr %q, shape %v", in.Expr(), got)
	}
	if err := in.SetExpr("w[:, 4]"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	in.Show(2, c) // rank 1: w[:, 4] does not fit
	drain(t, q, in)
	if in.SettingsErr() != nil || in.Expr() != "" || !slices.Equal(in.Tensor().Shape(), []int{7}) {
		t.Errorf("pinned w[:, 4] on [7]: err %v, expr %q, shape %v", in.SettingsErr(), in.Expr(), in.Tensor().Shape())
	}
}
