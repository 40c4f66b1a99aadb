package headless

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tsr"
	"tensorscope/viewmodel/compare"
)

// waveB is waveTSR's tensor with a bump added in plane 1 and plane 2
// scaled by 1.1, so that A−B shows where and how they differ.
func waveB(t *testing.T) []byte {
	x := float32Tensor(t, []int{3, 40, 64}, func(i int) float32 {
		k, r, c := i/(40*64), (i/64)%40, i%64
		v := float32(math.Sin(float64(r)/6+float64(k))*math.Cos(float64(c)/9)) * float32(k+1)
		switch {
		case i == 5*64+9:
			return float32(math.NaN())
		case i == 20*64+30:
			return float32(math.Inf(1))
		case i == 33*64+50:
			return float32(math.Inf(-1))
		case k == 1:
			dr, dc := float64(r-25), float64(c-20)
			return v + float32(0.5*math.Exp(-(dr*dr+dc*dc)/40))
		case k == 2:
			return v * 1.1
		}
		return v
	})
	var b bytes.Buffer
	if err := tsr.EncodeV1(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// diffOptions are the render command's --view diff options, made through
// the settings' setters.
func diffOptions(t *testing.T, with *formats.Document, w, h int, index map[int]int, mode string) Options {
	t.Helper()
	s := compare.DefaultSettings()
	for a, i := range index {
		if err := s.Plane.SetIndex(a, i); err != nil {
			t.Fatal(err)
		}
	}
	if mode != "" {
		if err := s.SetDiff(mode); err != nil {
			t.Fatal(err)
		}
	}
	return Options{View: ViewDiff, Width: w, Height: h, Tensor: 0, With: with, Compare: s}
}

func TestRenderDiffGolden(t *testing.T) {
	a := openFile(t, "wave.tsr", waveTSR(t))
	b := openFile(t, "wave_b.tsr", waveB(t))
	for _, c := range []struct {
		name  string
		index map[int]int
		mode  string
	}{
		{"diff_wave_bump.png", map[int]int{0: 1}, ""},
		{"diff_wave_scaled_relative.png", map[int]int{0: 2}, "relative"},
	} {
		img, err := Render(context.Background(), a, diffOptions(t, b, 1100, 420, c.index, c.mode))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r := img.Bounds(); r.Dx() != 1100 || r.Dy() != 420 {
			t.Fatalf("%s: rendered %v", c.name, r)
		}
		assertGolden(t, c.name, img)
	}
}

func TestRenderDiffErrors(t *testing.T) {
	a := openFile(t, "wave.tsr", waveTSR(t))
	b := openFile(t, "wave_b.tsr", waveB(t))
	other := openFile(t, "quant.tmfile", quantTmfile(t))
	cnn := openFile(t, "cnn.tmfile", cnnTmfile(t))
	bad := diffOptions(t, b, 900, 400, map[int]int{0: 7}, "")
	for _, c := range []struct {
		name string
		doc  *formats.Document
		opt  Options
		want string
	}{
		{"no second file", a, Options{View: ViewDiff, Width: 900, Height: 400, Tensor: 0, Compare: compare.DefaultSettings()}, "second file"},
		{"no tensor", a, Options{View: ViewDiff, Width: 900, Height: 400, Tensor: -1, With: b, Compare: compare.DefaultSettings()}, "--tensor"},
		{"index outside the axis", a, bad, "outside axis 0"},
		{"shapes differ", a, diffOptions(t, other, 900, 400, nil, ""), "shapes differ"},
		{"no partner", cnn, Options{View: ViewDiff, Width: 900, Height: 400, Tensor: tensorNamed(t, cnn, "stem_conv.weight"), With: other,
			Compare: compare.DefaultSettings()}, "no partner"},
	} {
		_, err := Render(context.Background(), c.doc, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
