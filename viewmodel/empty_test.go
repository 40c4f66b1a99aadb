package viewmodel

import (
	"image/color"
	"testing"
)

// A tensor without values is shown, not refused: the inspector computes
// nothing over it, its plane settings do not fail, and its plots draw
// EmptyText.
func TestInspectorShowsEmptyTensors(t *testing.T) {
	for _, shape := range [][]int{{0, 3}, {3, 0}, {0}, {1, 0}, {2, 0, 3, 3}} {
		in, q, _ := newTestInspector()
		s := DefaultInspectorSettings()
		if err := s.SetIndex(len(shape)-1, 0); err != nil {
			t.Fatal(err)
		}
		in.Apply(s)
		in.Show(0, f32Entry("e", shape, nil))
		drain(t, q, in)
		if in.Err() != nil || in.SettingsErr() != nil || !in.Empty() {
			t.Errorf("%v: err %v, settings %v, empty %v", shape, in.Err(), in.SettingsErr(), in.Empty())
		}
		if in.Heatmap() != nil || in.PlaneErr() != nil {
			t.Errorf("%v: heatmap %v, plane error %v", shape, in.Heatmap(), in.PlaneErr())
		}
		style := PlotStyle{Foreground: color.Black, Background: color.White}
		for name, img := range map[string]any{"histogram": in.RenderHistogram(200, 100, style), "plot": in.RenderLinePlot(200, 100, style)} {
			if img == nil {
				t.Errorf("%v: no %s drawn", shape, name)
			}
		}
	}
}
