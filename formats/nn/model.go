package nn

import (
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// layer is one entry of the JSON "layers" list.
type layer struct {
	index     int
	name, typ string
	in, out   int64 // -1 when unknown
	trainable bool
	linear    int // ordinal among Linear layers, -1 for other types
	node      *formats.Meta
	weight    int // index into Document.Tensors, -1 when none
	bias      int
}

func (l *layer) isLinear() bool { return l.linear >= 0 }

// params is what DataCode's model_info counts for the layer: weights and
// biases of Linear layers, nothing for activations. ok is false when the
// count is unknown or overflows.
func (l *layer) params() (int64, bool) {
	if !l.isLinear() {
		return 0, true
	}
	if l.in < 0 || l.out < 0 {
		return 0, false
	}
	hi, w := bits.Mul64(uint64(l.in), uint64(l.out))
	p, carry := bits.Add64(w, uint64(l.out), 0)
	if hi != 0 || carry != 0 || p > math.MaxInt64 {
		return 0, false
	}
	return int64(p), true
}

// describe derives from the JSON what the panes show: the architecture
// table with DataCode's model_info totals, the training stages and their
// histories, tensors matched to layers, and the chain graph.
func describe(doc *formats.Document, root *formats.Meta) {
	layers := readLayers(doc, root.Child("layers"))
	matchTensors(doc, layers)
	doc.Tables = append(doc.Tables, architecture(doc, root, layers)...)
	training(doc, root.Child("training"))
	if len(layers) > 0 {
		doc.Graph = chain(doc, layers)
	}
}

func intValue(m *formats.Meta) (int64, bool) {
	if m == nil || !m.IsLeaf() {
		return 0, false
	}
	switch v := m.Value.(type) {
	case int64:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	}
	return 0, false
}

func stringValue(m *formats.Meta) string {
	if m == nil || !m.IsLeaf() {
		return ""
	}
	if s, ok := m.Value.(string); ok {
		return s
	}
	return ""
}

func readLayers(doc *formats.Document, list *formats.Meta) []*layer {
	if list == nil {
		doc.Warn(16, `the JSON has no "layers" list`)
		return nil
	}
	if !list.List {
		doc.Warn(16, `the JSON's "layers" is %s, expected a list`, kind(list))
		return nil
	}
	var layers []*layer
	linear := 0
	for i, m := range list.Children {
		l := &layer{index: i, in: -1, out: -1, trainable: true, linear: -1, node: m, weight: -1, bias: -1}
		l.name = stringValue(m.Child("name"))
		l.typ = stringValue(m.Child("type"))
		if l.typ == "" {
			doc.Warn(16, "layer %d has no type", i)
			l.typ = "?"
		}
		if l.name == "" {
			l.name = fmt.Sprintf("layer %d", i)
		}
		if l.typ == "Linear" {
			l.linear = linear
			linear++
			for _, f := range []struct {
				key string
				dst *int64
			}{{"in_features", &l.in}, {"out_features", &l.out}} {
				v, ok := intValue(m.Child(f.key))
				if !ok || v < 0 {
					doc.Warn(16, "Linear layer %d (%s) has no valid %s", i, l.name, f.key)
					continue
				}
				*f.dst = v
			}
			if t := m.Child("trainable"); t != nil {
				if b, ok := t.Value.(bool); ok && t.IsLeaf() {
					l.trainable = b
				}
			}
		}
		layers = append(layers, l)
	}
	// Activations keep the width of what feeds them.
	width := int64(-1)
	for _, l := range layers {
		if l.isLinear() {
			if width >= 0 && l.in >= 0 && l.in != width {
				doc.Warn(16, "layer %d (%s) takes %d inputs but the layer before it gives %d", l.index, l.name, l.in, width)
			}
			width = l.out
			continue
		}
		l.in, l.out = width, width
	}
	return layers
}

var tensorName = regexp.MustCompile(`^layer(\d+)\.(weight|bias)$`)

// matchTensors attaches tensors to Linear layers. In "layer{k}.weight" k
// counts Linear layers only, while other layers are named by position, so
// names collide ("layer1" is both the ReLU and the second Linear in the
// sample): k is read as a Linear ordinal, never looked up as a layer name.
func matchTensors(doc *formats.Document, layers []*layer) {
	var linears []*layer
	for _, l := range layers {
		if l.isLinear() {
			linears = append(linears, l)
		}
	}
	seen := map[string]bool{}
	for i, e := range doc.Tensors {
		at := attrInt(e, "record_offset")
		if seen[e.Name] {
			doc.Warn(at, "tensor name %q repeats", e.Name)
		}
		seen[e.Name] = true
		m := tensorName.FindStringSubmatch(e.Name)
		if m == nil {
			doc.Warn(at, "tensor %q is not named layer{k}.weight or layer{k}.bias; it belongs to no layer", e.Name)
			continue
		}
		k, err := strconv.Atoi(m[1])
		if err != nil || k >= len(linears) {
			doc.Warn(at, "tensor %q names Linear layer %s, but the model has %d Linear layers", e.Name, m[1], len(linears))
			continue
		}
		l := linears[k]
		slot := &l.weight
		if m[2] == "bias" {
			slot = &l.bias
		}
		if *slot >= 0 {
			doc.Warn(at, "tensor %q is a second %s for layer %d (%s)", e.Name, m[2], l.index, l.name)
			continue
		}
		*slot = i
		e.Attrs = append(e.Attrs,
			formats.Attr{Name: "layer", Value: l.name},
			formats.Attr{Name: "layer_index", Value: int64(l.index)},
			formats.Attr{Name: "param", Value: m[2]})
		checkShape(doc, at, e, l, m[2])
	}
	for _, l := range linears {
		if l.weight < 0 {
			doc.Warn(-1, "Linear layer %d (%s) has no weight tensor layer%d.weight", l.index, l.name, l.linear)
		}
		if l.bias < 0 {
			doc.Warn(-1, "Linear layer %d (%s) has no bias tensor layer%d.bias", l.index, l.name, l.linear)
		}
	}
}

// checkShape compares a tensor with its layer: weights are [out, in] (the
// original spec's [in, out] is wrong), biases [out] or [1, out].
func checkShape(doc *formats.Document, at int64, e *formats.TensorEntry, l *layer, param string) {
	if l.in < 0 || l.out < 0 {
		return
	}
	s := e.Shape
	eq := func(want ...int64) bool {
		if len(s) != len(want) {
			return false
		}
		for i := range s {
			if int64(s[i]) != want[i] {
				return false
			}
		}
		return true
	}
	if param == "weight" {
		switch {
		case eq(l.out, l.in):
		case eq(l.in, l.out):
			doc.Warn(at, "tensor %q is stored [in, out] = %v; DataCode stores Linear weights [out, in] = [%d, %d]", e.Name, s, l.out, l.in)
		default:
			doc.Warn(at, "tensor %q has shape %v; layer %d (%s, %d→%d) needs [%d, %d]", e.Name, s, l.index, l.name, l.in, l.out, l.out, l.in)
		}
		return
	}
	if !eq(l.out) && !eq(1, l.out) {
		doc.Warn(at, "tensor %q has shape %v; layer %d (%s) needs [%d] or [1, %d]", e.Name, s, l.index, l.name, l.out, l.out)
	}
}

func attrInt(e *formats.TensorEntry, name string) int64 {
	for _, a := range e.Attrs {
		if a.Name == name {
			if v, ok := a.Value.(int64); ok {
				return v
			}
		}
	}
	return -1
}

func width(n int64) string {
	if n < 0 {
		return "?"
	}
	return strconv.FormatInt(n, 10)
}

// architecture returns the layer table and the model summary, counted as
// DataCode's ml.model_info counts: an Input row as wide as the first
// layer's input, then every layer with in→out and its parameters; totals
// split by the Linear layers' trainable flags.
func architecture(doc *formats.Document, root *formats.Meta, layers []*layer) []formats.Table {
	arch := formats.Table{Title: "Architecture", Columns: []string{"layer", "type", "in→out", "params"}}
	if len(layers) > 0 {
		first := int64(-1)
		for _, l := range layers {
			if l.isLinear() {
				first = l.in
				break
			}
		}
		arch.Rows = append(arch.Rows, []string{"input", "Input", width(first) + "→" + width(first), "0"})
	}
	var trainable, frozen int64
	known := true
	for _, l := range layers {
		p, ok := l.params()
		ps := strconv.FormatInt(p, 10)
		if !ok {
			ps, known = "?", false
		} else if l.trainable {
			trainable += p
		} else {
			frozen += p
		}
		arch.Rows = append(arch.Rows, []string{l.name, l.typ, width(l.in) + "→" + width(l.out), ps})
	}
	total := func(n int64) string {
		if !known {
			return "?"
		}
		return strconv.FormatInt(n, 10)
	}
	device := stringValue(root.Child("device"))
	if device == "" {
		device = "?"
	}
	summary := formats.Table{Title: "Model", Columns: []string{"property", "value"}, Rows: [][]string{
		{"type", modelType(layers)},
		{"device", device},
		{"dtype", "f32"},
		{"layers", strconv.Itoa(len(layers))},
		{"trainable params", total(trainable)},
		{"frozen params", total(frozen)},
		{"total params", total(trainable + frozen)},
		{"tensors", strconv.Itoa(len(doc.Tensors))},
	}}
	return []formats.Table{summary, arch}
}

// modelType follows model_info, which calls a model of more than two
// layers an MLP. What it prints for smaller models is not recorded, so
// those are named by their single layer's type, or as a sequence.
func modelType(layers []*layer) string {
	switch {
	case len(layers) > 2:
		return "MLP"
	case len(layers) == 1:
		return layers[0].typ
	case len(layers) == 0:
		return "empty"
	}
	return "Sequential"
}

// training adds the stages table and one plot per history group.
func training(doc *formats.Document, t *formats.Meta) {
	if t == nil || t.IsLeaf() || t.List {
		return
	}
	stages := t.Child("stages")
	var stageList []*formats.Meta
	if stages != nil && stages.List {
		stageList = stages.Children
	}
	if len(stageList) > 0 {
		tab := formats.Table{Title: "Training stages", Columns: []string{
			"stage", "epochs", "loss", "optimizer", "lr", "trainable params", "frozen params",
			"frozen layers", "final loss", "final accuracy", "final val loss", "final val accuracy"}}
		for i, s := range stageList {
			tab.Rows = append(tab.Rows, []string{
				strconv.Itoa(i + 1),
				leafText(s.Child("epochs")),
				leafText(s.Child("loss")),
				leafText(s.Child("optimizer_type")),
				leafText(s.Child("optimizer_params").Child("lr")),
				leafText(s.Child("trainable_params")),
				leafText(s.Child("frozen_params")),
				listText(s.Child("frozen_layers")),
				lastText(s.Child("loss_history")),
				lastText(s.Child("accuracy_history")),
				lastText(s.Child("val_loss_history")),
				lastText(s.Child("val_accuracy_history")),
			})
			historyPlots(doc, fmt.Sprintf("Stage %d", i+1), s)
		}
		doc.Tables = append(doc.Tables, tab)
	}
	// The top-level histories are the legacy record of the whole training;
	// with one stage they repeat it, so they are plotted only otherwise.
	if len(stageList) != 1 {
		historyPlots(doc, "Training", t)
	}
}

func historyPlots(doc *formats.Document, prefix string, m *formats.Meta) {
	groups := []struct {
		title, ylabel string
		keys          []string
	}{
		{"loss", "loss", []string{"loss_history", "val_loss_history"}},
		{"accuracy", "accuracy", []string{"accuracy_history", "val_accuracy_history"}},
		{"learning rate", "lr", []string{"lr_history"}},
	}
	for _, g := range groups {
		p := formats.Plot{Title: prefix + " " + g.title, XLabel: "epoch", YLabel: g.ylabel}
		for _, k := range g.keys {
			if s, ok := numbers(strings.TrimSuffix(k, "_history"), m.Child(k)); ok {
				p.Series = append(p.Series, s)
			}
		}
		if len(p.Series) > 0 {
			doc.Plots = append(doc.Plots, p)
		}
	}
}

// numbers reads a list of numbers as a series over epochs 1..n. A null
// entry (an epoch without a value) is left out, and the epochs of the
// values that remain are then given explicitly.
func numbers(name string, m *formats.Meta) (formats.Series, bool) {
	s := formats.Series{Name: name}
	if m == nil || !m.List {
		return s, false
	}
	gaps := false
	for i, c := range m.Children {
		switch v := c.Value.(type) {
		case int64:
			s.X = append(s.X, float64(i+1))
			s.Y = append(s.Y, float64(v))
		case float64:
			s.X = append(s.X, float64(i+1))
			s.Y = append(s.Y, v)
		case nil:
			gaps = true
		default:
			return s, false
		}
	}
	if !gaps {
		s.X = nil
	}
	return s, len(s.Y) > 0
}

func leafText(m *formats.Meta) string {
	if m == nil || !m.IsLeaf() || m.Value == nil {
		return ""
	}
	switch v := m.Value.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', 6, 64)
	case string:
		return v
	}
	return fmt.Sprint(m.Value)
}

func listText(m *formats.Meta) string {
	if m == nil || !m.List {
		return leafText(m)
	}
	parts := make([]string, len(m.Children))
	for i, c := range m.Children {
		parts[i] = leafText(c)
	}
	return strings.Join(parts, ", ")
}

func lastText(m *formats.Meta) string {
	if m == nil || !m.List || len(m.Children) == 0 {
		return ""
	}
	return leafText(m.Children[len(m.Children)-1])
}

// chain builds the graph: one node per layer in file order, each fed by the
// previous one, with the Linear weights and biases as constant inputs.
func chain(doc *formats.Document, layers []*layer) *formats.Graph {
	g := &formats.Graph{}
	value := func(v formats.Value) int {
		g.Values = append(g.Values, v)
		return len(g.Values) - 1
	}
	shapeOf := func(n int64) []int {
		if n < 0 {
			return nil
		}
		return []int{int(n)}
	}
	prev := value(formats.Value{Name: "input", DType: tensor.Float32, Shape: shapeOf(layers[0].in), Producer: -1, Tensor: -1})
	for _, l := range layers {
		n := formats.Node{ID: l.index, Name: l.name, Op: l.typ, Kind: formats.KindOp, Inputs: []int{prev}, Meaning: meaningOf(l)}
		for _, c := range l.node.Children {
			if c.Name != "name" && c.Name != "type" && c.IsLeaf() {
				n.Attrs = append(n.Attrs, formats.Attr{Name: c.Name, Value: c.Value})
			}
		}
		for _, ti := range []int{l.weight, l.bias} {
			if ti >= 0 {
				e := doc.Tensors[ti]
				n.Inputs = append(n.Inputs, value(formats.Value{Name: e.Name, DType: e.DType, Shape: e.Shape, Producer: -1, Tensor: ti}))
			}
		}
		prev = value(formats.Value{Name: l.name + ":out", DType: tensor.Float32, Shape: shapeOf(l.out), Producer: l.index, Tensor: -1})
		n.Outputs = []int{prev}
		g.Nodes = append(g.Nodes, n)
	}
	g.Inputs = []int{0}
	g.Outputs = []int{len(layers) - 1}
	formats.FillWeightScopes(g)
	return g
}
