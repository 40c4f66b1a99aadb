package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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

func TestDistinctParts(t *testing.T) {
	for _, c := range []struct{ names, want []string }{
		{[]string{"block.0.weight", "block.1.weight", "block.10.weight"}, []string{"0", "1", "10"}},
		{[]string{"mlp.experts.0.w1", "mlp.experts.0.w2", "mlp.experts.1.w1"}, []string{"0.w1", "0.w2", "1.w1"}},
		{[]string{"attn_q.weight", "ffn_up.weight"}, []string{"attn_q", "ffn_up"}},
		{[]string{"a.b", "a.b.c"}, []string{"b", "c"}},
		{[]string{"same", "same"}, []string{"same", "same"}},
		{[]string{"only.one"}, []string{"only.one"}},
	} {
		if got := distinctParts(c.names); !slices.Equal(got, c.want) {
			t.Errorf("distinctParts(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// A fingerprint of 300 roles labels every few columns with what tells the
// roles apart (block.N.weight → N), not every column with an ellipsis.
func TestFingerprintLabelsNarrowColumns(t *testing.T) {
	test.NewTempApp(t)
	fp := &summary.Fingerprint{Prefix: "model.layers", Metric: summary.MetricStd, Lo: 0, Hi: 1}
	for j := range 300 {
		fp.Roles = append(fp.Roles, fmt.Sprintf("block.%d.weight", j))
	}
	for i := range 4 {
		fp.Indices = append(fp.Indices, i)
		fp.Values = append(fp.Values, make([]float64, len(fp.Roles)))
		fp.Tensors = append(fp.Tensors, make([]*summary.Tensor, len(fp.Roles)))
	}
	f := NewFingerprint()
	f.SetData(fp)
	f.Resize(f.MinSize())
	var labels []string
	for _, o := range test.WidgetRenderer(f).Objects() {
		if txt, ok := o.(*canvas.Text); ok && txt.Position().Y < f.cells.Y {
			labels = append(labels, txt.Text)
		}
	}
	if len(labels) < 10 || len(labels) > 100 {
		t.Fatalf("%d column labels for 300 narrow columns, want one every few: %q", len(labels), labels)
	}
	for _, l := range labels[:5] {
		if strings.Contains(l, "…") || strings.Contains(l, "block") {
			t.Errorf("column label %q, want the block number alone", l)
		}
	}
}
