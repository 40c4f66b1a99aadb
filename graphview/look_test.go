package graphview

import (
	"image/png"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"testing"
)

func TestLookPNG(t *testing.T) {
	dir := os.Getenv("GRAPHVIEW_LOOK")
	if dir == "" {
		t.Skip("set GRAPHVIEW_LOOK=dir to write sample PNGs")
	}
	for _, c := range []struct {
		n   int
		dir Direction
		max int
	}{{12, TopToBottom, 0}, {200, TopToBottom, 0}, {40, LeftToRight, 0}, {200, TopToBottom, 4 << 20}} {
		s, err := NewScene(generated(c.n), SceneOptions{Direction: c.dir, Measure: EstimateMeasure})
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.Create(dir + "/" + t.Name() + "_" + string(rune('0'+c.dir)) + "_" + itoa(c.n) + "_" + itoa(c.max) + ".png")
		scale, err := ExportPNG(f, s, ExportOptions{Scale: 1.5}, c.max)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		f, _ = os.Create(dir + "/" + t.Name() + "_" + itoa(c.n) + ".svg")
		ExportSVG(f, s, ExportOptions{})
		f.Close()
		t.Logf("n=%d scale %g", c.n, scale)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestLookWidget(t *testing.T) {
	dir := os.Getenv("GRAPHVIEW_LOOK")
	if dir == "" {
		t.Skip("set GRAPHVIEW_LOOK=dir to write sample screenshots")
	}
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.LightTheme())
	s, err := NewScene(generated(60), SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGraphView(s)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 700))
	save := func(name string) {
		f, _ := os.Create(dir + "/widget_" + name + ".png")
		png.Encode(f, w.Canvas().Capture())
		f.Close()
	}
	save("home")
	g.Fit()
	save("fit")
	g.CenterOn(20)
	g.Select(20)
	save("center20")
	g.HighlightLineage(20)
	g.SetView(0.45, g.Offset())
	g.CenterOn(20)
	save("lineage045")
	a.Settings().SetTheme(theme.DarkTheme())
	g.ClearHighlight()
	g.ActualSize()
	save("dark")
}
