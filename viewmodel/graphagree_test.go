package viewmodel

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// TestGraphChannelsAgree checks, on real models of every format with
// convolutions, that the channels a conv box shows are the ones the
// properties panel lists and the ones its folded weight's shape
// [out, in/groups, kh, kw] has.
func TestGraphChannelsAgree(t *testing.T) {
	paths := samples.Files(t, "tmfile", ".tmfile")
	for _, name := range []string{"mobilenet_v3_small_opset13.onnx", "efficientnet_b0_opset14_fp16.onnx", "swin_t_topology_w24_opset16.onnx"} {
		paths = append(paths, filepath.Join(samples.Dir(t, "onnx"), "torchvision-export", name))
	}
	paths = append(paths, samples.Files(t, "tsm", ".tsm")...)
	paths = append(paths, samples.Files(t, "nn", ".nn")...)
	checked := 0
	for _, path := range paths {
		d, err := formats.Open(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if d.Graph != nil {
			checked += checkConvChannels(t, filepath.Base(path), NewGraphModel(d, false))
		}
		d.Close()
	}
	if checked < 100 {
		t.Errorf("checked %d convolutions with folded weights, want at least 100", checked)
	}
}

// checkConvChannels checks every convolution of m with a 4-D folded weight
// and returns how many it checked.
func checkConvChannels(t *testing.T, file string, m *GraphModel) int {
	t.Helper()
	checked := 0
	m.ExpandAll() // every node its own box
	for id := range m.g.Nodes {
		n := &m.g.Nodes[id]
		v := m.ViewNode(id)
		if n.Meaning.Category != formats.CategoryConvolution || v < 0 || strings.Contains(strings.ToLower(n.Op), "transpose") || strings.Contains(strings.ToLower(n.Op), "deconv") {
			continue
		}
		weight := -1
		for _, w := range m.folded[id] {
			if shape, dt := m.valueShape(w); dt.IsFloat() && len(shape) == 4 && !vectorLike(shape) {
				weight = w
			}
		}
		if weight < 0 {
			continue
		}
		checked++
		shape, _ := m.valueShape(weight)
		mean := n.Meaning
		groups := max(mean.Groups, 1)
		where := fmt.Sprintf("%s: %s %q (weight %v)", file, n.Op, n.Name, shape)
		// [out, in/groups, kh, kw], or [multiplier, channels, kh, kw] for
		// TenniS's depthwise ones: either way out × in/groups elements.
		if mean.OutChannels <= 0 || mean.InChannels%groups != 0 || mean.OutChannels*(mean.InChannels/groups) != shape[0]*shape[1] ||
			(mean.OutChannels != shape[0] && mean.OutChannels != shape[0]*shape[1]) {
			t.Errorf("%s: meaning says %d → %d channels in %d groups", where, mean.InChannels, mean.OutChannels, groups)
			continue
		}
		box := m.View().Nodes[v].Details
		if want := channelText(&mean); !slices.Contains(box, want) {
			t.Errorf("%s: box lines %q lack %q", where, box, want)
		}
		if want := "W " + joinDims(shape); !slices.Contains(box, want) {
			t.Errorf("%s: box lines %q lack %q", where, box, want)
		}
		for _, line := range box {
			if strings.HasPrefix(line, "W ") && line != "W "+joinDims(shape) {
				t.Errorf("%s: box has a second weight line %q", where, line)
			}
		}
		if got := propValue(m.NodeProperties(v), "Out channels"); got != fmt.Sprint(mean.OutChannels) {
			t.Errorf("%s: properties say %q out channels", where, got)
		}
		if got := propValue(m.NodeProperties(v), "In channels"); mean.InChannels > 0 && got != fmt.Sprint(mean.InChannels) {
			t.Errorf("%s: properties say %q in channels", where, got)
		}
	}
	return checked
}

func propValue(sections []PropSection, label string) string {
	for _, s := range sections {
		for _, r := range s.Rows {
			if r.Label == label {
				return r.Value
			}
		}
	}
	return ""
}

// An activation whose shape no one recorded shows "?" in the panel, a
// dim of unknown size "?", and a scalar "scalar": never "[]" or "-1".
func TestGraphPropertiesUnknownShape(t *testing.T) {
	d := chainDoc()
	d.Graph.Values[3].Shape = []int{-1, 8, 14, 14}
	d.Graph.Values = append(d.Graph.Values, formats.Value{Name: "scale", Shape: []int{}, Producer: -1, Tensor: -1})
	d.Graph.Nodes[4].Inputs = append(d.Graph.Nodes[4].Inputs, 5)
	m := NewGraphModel(d, false)
	props := m.NodeProperties(m.ViewNode(4))
	in, out := sectionRows(props, "Inputs"), sectionRows(props, "Outputs")
	if len(in) != 2 || len(out) != 1 {
		t.Fatalf("inputs %v outputs %v", in, out)
	}
	if want := "conv_out [?, 8, 14, 14] ← conv"; in[0].Value != want {
		t.Errorf("input %q, want %q", in[0].Value, want)
	}
	if want := "scale scalar"; in[1].Value != want {
		t.Errorf("scalar input %q, want %q", in[1].Value, want)
	}
	if want := "out ?"; out[0].Value != want {
		t.Errorf("output %q, want %q", out[0].Value, want)
	}
}

func sectionRows(sections []PropSection, title string) []PropRow {
	for _, s := range sections {
		if s.Title == title {
			return s.Rows
		}
	}
	return nil
}

// Inputs and outputs come right after the node itself, before its meaning
// and attributes; a long attribute list folds.
func TestGraphPropertiesOrderAndFolding(t *testing.T) {
	d := chainDoc()
	conv := &d.Graph.Nodes[3]
	for i := range 10 {
		conv.Attrs = append(conv.Attrs, formats.Attr{Name: fmt.Sprintf("extra%d", i), Value: int64(i)})
	}
	m := NewGraphModel(d, false)
	props := m.NodeProperties(m.ViewNode(3))
	var titles []string
	for _, s := range props {
		titles = append(titles, s.Title)
		if s.Title == "Attributes" && (len(s.Rows) != 16 || s.Folded != foldedAttrRows) {
			t.Errorf("attributes: %d rows, %d shown folded; want 16 folded to %d", len(s.Rows), s.Folded, foldedAttrRows)
		}
	}
	if want := []string{"Node", "Inputs", "Outputs", "Meaning", "Attributes"}; !slices.Equal(titles, want) {
		t.Errorf("sections %q, want %q", titles, want)
	}
	short := m.NodeProperties(m.ViewNode(4))
	for _, s := range short {
		if s.Folded != 0 {
			t.Errorf("%s of the activation folded to %d rows", s.Title, s.Folded)
		}
	}
}
