package viewmodel

import (
	"reflect"
	"testing"

	"tensorscope/formats"
	"tensorscope/graphview"
)

// Boxes are labelled from the codec's Meaning alone: attributes that some
// format spells as kernel or channels mean nothing to the viewmodel.
func TestGraphLabelsReadMeaningOnly(t *testing.T) {
	d := chainDoc()
	conv := &d.Graph.Nodes[3]
	conv.Meaning = formats.Meaning{}
	m := NewGraphModel(d, false)
	if got := m.View().Nodes[1].Details; !reflect.DeepEqual(got, []string{"W 8×1×3×3", "b 8"}) {
		t.Errorf("details without meaning %q, want only the weights", got)
	}
	if c := m.View().Nodes[1].Category; c != graphview.CategoryOther {
		t.Errorf("category without meaning %v", c)
	}
	if c := m.View().Nodes[0].Category; c != graphview.CategoryInput {
		t.Errorf("a graph input without meaning is %v, want input (by its kind)", c)
	}
}

func TestGraphLabelText(t *testing.T) {
	for _, c := range []struct {
		m              formats.Meaning
		kernel, channs string
	}{
		{formats.Meaning{Variant: "MAX", Kernel: []int{3, 3}, Stride: []int{2, 2}}, "MAX 3×3 /2", ""},
		{formats.Meaning{Kernel: []int{1, 7}, Stride: []int{1, 1}, OutChannels: 64, Groups: 2}, "1×7", "→ 64 ch, 2 groups"},
		{formats.Meaning{Stride: []int{2, 1}, InChannels: 3, OutChannels: 16, Kernel: []int{3, 3}}, "3×3 /2,1", "3 → 16 ch"},
		{formats.Meaning{InChannels: 784, OutChannels: 128}, "", "784 → 128"},
		{formats.Meaning{OutChannels: 10}, "", "→ 10"},
		{formats.Meaning{Stride: []int{0, 0}}, "", ""},
	} {
		if got := kernelText(&c.m); got != c.kernel {
			t.Errorf("%+v: kernel text %q, want %q", c.m, got, c.kernel)
		}
		if got := channelText(&c.m); got != c.channs {
			t.Errorf("%+v: channel text %q, want %q", c.m, got, c.channs)
		}
	}
}

// Every normalised category has a colour of its own.
func TestGraphCategoriesDistinct(t *testing.T) {
	seen := map[graphview.Category]formats.Category{}
	for c := formats.Category(0); c < formats.NumCategories; c++ {
		g := nodeCategory(&formats.Node{Meaning: formats.Meaning{Category: c}})
		if prev, dup := seen[g]; dup {
			t.Errorf("%v and %v share colour %v", prev, c, g)
		}
		seen[g] = c
		if g.String() == "other" && c != formats.CategoryOther {
			t.Errorf("%v has no colour", c)
		}
	}
}
