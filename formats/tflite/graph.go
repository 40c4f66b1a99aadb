package tflite

import (
	"fmt"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/tflite/internal/tfl"
)

// maxNesting bounds subgraphs nested in subgraphs (a WHILE in an IF in a
// WHILE…); recursion between subgraphs is cut where it closes.
const maxNesting = 32

// maxCustomTrees bounds the custom options listed in the metadata pane.
const maxCustomTrees = 100

// graph builds subgraph s's graph once; nested bodies are shared by every
// node that runs them.
func (d *decoder) graph(s, depth int) *formats.Graph {
	if d.state[s] == 2 {
		return d.graphs[s]
	}
	d.state[s] = 1
	d.reached[s] = true
	g := d.build(s, depth)
	d.graphs[s], d.state[s] = g, 2
	return g
}

// valueName names a graph value: as the document lists its tensor, else
// by the tensor's own name (a graph shows one subgraph at a time).
func (d *decoder) valueName(s, i int, t *tfl.Tensor) string {
	if k := d.tensorOf[s][i]; k >= 0 {
		return d.doc.Tensors[k].Name
	}
	return tensorName(t, i)
}

func (d *decoder) build(s, depth int) *formats.Graph {
	var sg tfl.SubGraph
	d.model.Subgraphs(&sg, s)
	nt := sg.TensorsLength()
	nops := sg.OperatorsLength()
	g := &formats.Graph{Values: make([]formats.Value, nt), Nodes: make([]formats.Node, nops, nops+sg.InputsLength())}
	var t tfl.Tensor
	for i := 0; i < nt; i++ {
		sg.Tensors(&t, i)
		v := &g.Values[i]
		v.Name, v.Producer, v.Tensor = d.valueName(s, i, &t), -1, d.tensorOf[s][i]
		v.DType = dtypes[t.Type()]
		v.Shape, _ = shapeOf(&t)
		if ns := t.ShapeSignatureLength(); ns == len(v.Shape) {
			for j := 0; j < ns; j++ {
				if t.ShapeSignature(j) < 0 {
					if v.DimNames == nil {
						v.DimNames = make([]string, ns)
					}
					v.Shape[j], v.DimNames[j] = -1, "?"
				}
			}
		}
	}
	var op tfl.Operator
	ids := make([]int, 0, 4*nops) // every node's inputs and outputs in one allocation
	take := func(n int) []int {
		if cap(ids)-len(ids) < n {
			ids = make([]int, 0, max(4096, n))
		}
		out := ids[len(ids) : len(ids) : len(ids)+n]
		ids = ids[:len(ids)+n]
		return out
	}
	for j := 0; j < nops; j++ {
		sg.Operators(&op, j)
		at := tableOf(op.Table())
		n := &g.Nodes[j]
		n.ID = j
		var code opCode
		if k := int(op.OpcodeIndex()); k < len(d.codes) {
			code = d.codes[k]
		} else {
			code.name = "opcode " + strconv.Itoa(k)
			d.warn(at, "subgraph %d operator %d: opcode_index %d, the model has %d operator codes", s, j, k, len(d.codes))
		}
		n.Op = code.name
		n.Inputs = take(op.InputsLength())
		for k := 0; k < op.InputsLength(); k++ {
			x := int(op.Inputs(k))
			switch {
			case x == -1:
			case x < 0 || x >= nt:
				d.warn(at, "subgraph %d operator %d: input %d is tensor %d, the subgraph has %d", s, j, k, x, nt)
			default:
				n.Inputs = append(n.Inputs, x)
			}
		}
		n.Outputs = take(op.OutputsLength())
		for k := 0; k < op.OutputsLength(); k++ {
			x := int(op.Outputs(k))
			switch {
			case x == -1:
			case x < 0 || x >= nt:
				d.warn(at, "subgraph %d operator %d: output %d is tensor %d, the subgraph has %d", s, j, k, x, nt)
			case g.Values[x].Producer >= 0:
				d.warn(at, "subgraph %d: tensor %d is an output of operator %d and again of operator %d", s, x, g.Values[x].Producer, j)
			default:
				g.Values[x].Producer = j
				n.Outputs = append(n.Outputs, x)
			}
		}
		if len(n.Outputs) > 0 {
			n.Name = g.Values[n.Outputs[0]].Name
		}
		n.Attrs = d.options(&op, code, s, j)
		d.nest(n, s, depth, at)
		n.Meaning = meaningOf(n, code, g)
	}
	for k := 0; k < sg.InputsLength(); k++ {
		x := int(sg.Inputs(k))
		if x < 0 || x >= nt {
			d.warn(tableOf(sg.Table()), "subgraph %d: input %d is tensor %d, the subgraph has %d", s, k, x, nt)
			continue
		}
		v := &g.Values[x]
		if v.Producer >= 0 {
			continue
		}
		id := len(g.Nodes)
		v.Producer = id
		g.Nodes = append(g.Nodes, formats.Node{ID: id, Name: v.Name, Op: "Input", Kind: formats.KindInput,
			Outputs: []int{x}, Meaning: formats.Meaning{Category: formats.CategoryInput}})
		g.Inputs = append(g.Inputs, id)
	}
	seen := map[int]bool{}
	for k := 0; k < sg.OutputsLength(); k++ {
		x := int(sg.Outputs(k))
		if x < 0 || x >= nt {
			d.warn(tableOf(sg.Table()), "subgraph %d: output %d is tensor %d, the subgraph has %d", s, k, x, nt)
			continue
		}
		if p := g.Values[x].Producer; p >= 0 && !seen[p] {
			seen[p] = true
			g.Outputs = append(g.Outputs, p)
		}
	}
	return g
}

// options decodes an operator's builtin options (both unions) into typed
// attributes, or a custom operator's custom_code and FlexBuffer options.
func (d *decoder) options(op *tfl.Operator, code opCode, s, j int) []formats.Attr {
	var attrs []formats.Attr
	if code.version > 1 {
		attrs = append(attrs, formats.Attr{Name: "version", Value: int64(code.version)})
	}
	opt := d.schema.tables["Operator"]
	ta := tableAt(d.buf, uint64(op.Table().Pos), opt)
	for _, name := range [...]string{"builtin_options", "builtin_options_2"} {
		f := opt.field(name)
		at := ta.at(f)
		tat := ta.slotAt(f.slot - 2)
		if at == 0 || tat == 0 {
			continue
		}
		c := int(d.buf[tat])
		if c == 0 {
			continue
		}
		if c > len(f.typ.union.members) {
			attrs = append(attrs, formats.Attr{Name: name, Value: fmt.Sprintf("options type %d, newer than this reader's schema", c)})
			continue
		}
		attrs = append(attrs, tableAt(d.buf, ta.deref(at), f.typ.union.members[c-1]).attrs()...)
	}
	if !code.custom {
		return attrs
	}
	attrs = append(attrs, formats.Attr{Name: "custom_code", Value: code.name})
	raw := op.CustomOptionsBytes()
	if o, n := op.LargeCustomOptionsOffset(), op.LargeCustomOptionsSize(); o > 1 {
		if o > uint64(len(d.buf)) || n > uint64(len(d.buf))-o {
			d.warn(tableOf(op.Table()), "subgraph %d operator %d: custom options at offset %d, size %d, reach past the end of the file", s, j, o, n)
			return attrs
		}
		raw = d.buf[o : o+n]
	}
	if len(raw) == 0 {
		return attrs
	}
	if op.CustomOptionsFormat() != tfl.CustomOptionsFormatFLEXBUFFERS {
		return append(attrs, formats.Attr{Name: "custom_options", Value: formats.Bytes(raw[:min(len(raw), 256)])})
	}
	tree, err := flexTree("options", raw)
	if err != nil {
		// Many custom operators (the Flex delegate's, TFLite Micro's) keep
		// their own bytes here despite the format field.
		return append(attrs, formats.Attr{Name: "custom_options", Value: formats.Bytes(raw[:min(len(raw), 256)])},
			formats.Attr{Name: "custom_options format", Value: "not a FlexBuffer: " + err.Error()})
	}
	if len(d.custom.Children) < maxCustomTrees {
		tree.Name = fmt.Sprintf("subgraph %d operator %d %s", s, j, code.name)
		d.custom.Add(tree)
	}
	flatten(&attrs, "", tree, 64)
	return attrs
}

// flatten lists a tree's leaves as attributes named by their paths.
func flatten(attrs *[]formats.Attr, prefix string, m *formats.Meta, limit int) {
	for _, c := range m.Children {
		if len(*attrs) >= limit {
			return
		}
		name := c.Name
		if prefix != "" {
			name = prefix + "." + name
		}
		if c.IsLeaf() {
			*attrs = append(*attrs, formats.Attr{Name: name, Value: c.Value})
		} else {
			flatten(attrs, name, c, limit)
		}
	}
}

// nest attaches the subgraphs a node runs (WHILE's cond and body, IF's
// branches, CALL_ONCE's init, StableHLO's bodies): options named
// *_subgraph_index or branch_subgraph_indices.
func (d *decoder) nest(n *formats.Node, s, depth int, at int64) {
	for _, a := range n.Attrs {
		var idx []int64
		switch v := a.Value.(type) {
		case int64:
			if strings.HasSuffix(a.Name, "_subgraph_index") {
				idx = []int64{v}
			}
		case []int64:
			if strings.HasSuffix(a.Name, "_subgraph_indices") {
				idx = v
			}
		}
		for k, x := range idx {
			name := strings.TrimSuffix(strings.TrimSuffix(a.Name, "_subgraph_index"), "_subgraph_indices")
			if len(idx) > 1 || strings.HasSuffix(a.Name, "_indices") {
				name += "[" + strconv.Itoa(k) + "]"
			}
			switch {
			case x < 0 || x >= int64(d.nsub):
				d.warn(at, "subgraph %d operator %d %s: %s is subgraph %d, the model has %d", s, n.ID, n.Op, a.Name, x, d.nsub)
			case d.state[x] == 1:
				d.warn(at, "subgraph %d operator %d %s: %s is subgraph %d, which is running it already (recursion); not nested", s, n.ID, n.Op, a.Name, x)
			case depth+1 > maxNesting:
				d.warn(at, "subgraph %d operator %d %s: subgraphs nest more than %d deep; subgraph %d is not nested", s, n.ID, n.Op, maxNesting, x)
			default:
				n.Subgraphs = append(n.Subgraphs, formats.Subgraph{Name: name + " (subgraph " + strconv.FormatInt(x, 10) + ")", Graph: d.graph(int(x), depth+1)})
			}
		}
	}
}
