package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"tensorscope/viewmodel/summary"
)

// manyLayers is a fingerprint of a 250-layer model with 8 roles.
func manyLayers() *summary.Fingerprint {
	fp := &summary.Fingerprint{Prefix: "model.layers", Metric: summary.MetricStd, Lo: 0, Hi: 1}
	fp.Roles = []string{"q", "k", "v", "o", "up", "down", "gate", "norm"}
	for i := range 250 {
		fp.Indices = append(fp.Indices, i)
		row := make([]float64, len(fp.Roles))
		for j := range row {
			row[j] = float64((i+j)%10) / 10
		}
		fp.Values = append(fp.Values, row)
		fp.Tensors = append(fp.Tensors, make([]*summary.Tensor, len(fp.Roles)))
	}
	return fp
}

// TestFingerprintOfManyLayersScrolls: a 250-layer model's fingerprint asks
// for a row of fpMinCell per layer, draws inside its own bounds, and the
// Overview holds it in a scroll container, so it never draws over the
// layer plot below it (it did, at 1600×1000, for a 250-layer checkpoint).
func TestFingerprintOfManyLayersScrolls(t *testing.T) {
	test.NewTempApp(t)
	f := NewFingerprint()
	f.SetData(manyLayers())
	min := f.MinSize()
	if min.Height < 250*fpMinCell {
		t.Fatalf("MinSize %v leaves less than %d px per layer", min, fpMinCell)
	}
	scroll := container.NewScroll(f)
	scroll.Resize(fyne.NewSize(500, 300))
	if f.Size().Height < min.Height {
		t.Fatalf("in a 500×300 scroll the fingerprint is %v, under its minimum %v", f.Size(), min)
	}
	for _, o := range test.WidgetRenderer(f).Objects() {
		end := o.Position().Add(o.Size())
		if o.Position().X < 0 || o.Position().Y < 0 || end.X > f.Size().Width+0.5 || end.Y > f.Size().Height+0.5 {
			t.Errorf("%T at %v size %v lies outside the fingerprint's %v", o, o.Position(), o.Size(), f.Size())
		}
	}
}
