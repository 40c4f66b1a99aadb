package onnx

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
)

// modelFieldNames names ModelProto's fields for the header pane.
var modelFieldNames = map[protowire.Number]string{
	1: "ir_version", 2: "producer_name", 3: "producer_version", 4: "domain", 5: "model_version",
	6: "doc_string", 7: "graph", 8: "opset_import", 14: "metadata_props", 20: "training_info",
	25: "functions", 26: "configuration",
}

// headerSpanMax bounds the hex dump of the header pane: the top-level
// fields before the graph are a few hundred bytes.
const headerSpanMax = 4096

// model reads the ModelProto: every top-level field becomes a header
// field with its offset, the small ones go into the metadata tree, and
// the graph is decoded.
func (b *builder) model(m msg) error {
	model := formats.NewObject("model")
	opsets := formats.NewList("opset_import")
	props := formats.NewObject("metadata_props")
	functions := formats.NewList("functions")
	var graph *field
	var irVersion int64 = -1
	spanEnd := int64(0)
	err := m.each("ModelProto", func(f field) error {
		name, known := modelFieldNames[f.num]
		if !known {
			name = fmt.Sprintf("field %d", f.num)
			b.warn(f.at, "ModelProto field %d is not defined by onnx.proto; skipped", f.num)
		} else if want := modelFieldTypes[f.num]; want != f.typ {
			return formats.Errorf(f.at, "ModelProto.%s: wire type %s, expected %s", name, typeName(f.typ), typeName(want))
		}
		hf := formats.HeaderField{Name: name, Offset: f.at, Size: int(f.end - f.at)}
		switch f.num {
		case 1, 5:
			hf.Value = int64(f.varint)
			model.Add(formats.Leaf(name, int64(f.varint)))
			if f.num == 1 {
				irVersion = int64(f.varint)
				hf.Meaning = irMeaning(irVersion)
			}
		case 2, 3, 4, 6:
			s := text(m.bytesOf(f))
			hf.Value = clip(s, 80)
			model.Add(formats.Leaf(name, s))
		case 7:
			if graph != nil {
				b.warn(f.at, "a second graph field; protobuf merges them, the viewer shows the first")
				break
			}
			g := f
			graph = &g
			hf.Value = fmt.Sprintf("GraphProto, %d bytes", f.end-f.valAt)
		case 8:
			domain, version, err := parseOpset(m.sub(f))
			if err != nil {
				return err
			}
			if domain == "" {
				domain = "ai.onnx"
			}
			hf.Value = domain + " " + strconv.FormatInt(version, 10)
			opsets.Add(formats.Leaf(domain, version))
		case 14:
			kv, err := parseKeyValue(m.sub(f), "ModelProto.metadata_props")
			if err != nil {
				return err
			}
			hf.Value = clip(kv.key+" = "+kv.value, 80)
			props.Add(formats.Leaf(kv.key, kv.value))
		case 25:
			fn, err := b.function(m.sub(f))
			if err != nil {
				return err
			}
			hf.Value = fn.Name
			functions.Add(fn)
		default:
			hf.Value = fmt.Sprintf("%d bytes", f.end-f.valAt)
		}
		b.doc.Header = append(b.doc.Header, hf)
		if f.num != 7 && f.end <= headerSpanMax {
			spanEnd = max(spanEnd, f.end)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if graph == nil {
		spanEnd = min(m.end, headerSpanMax)
	}
	b.doc.HeaderSpan = formats.Span{Offset: 0, Len: spanEnd}
	if irVersion >= 0 {
		b.doc.Version = "IR " + strconv.FormatInt(irVersion, 10)
	} else {
		b.warn(-1, "the model has no ir_version")
	}
	b.doc.Metadata = formats.NewObject("", model, opsets)
	if len(props.Children) > 0 {
		b.doc.Metadata.Add(props)
	}
	if len(functions.Children) > 0 {
		b.doc.Metadata.Add(functions)
	}
	if graph == nil {
		b.warn(-1, "the model has no graph")
		return nil
	}
	g, gp, err := b.parseGraph(m.sub(*graph), 0)
	if err != nil {
		return err
	}
	b.doc.Graph = g
	b.doc.Metadata.Add(graphSummary(gp, g, b.doc))
	return nil
}

func irMeaning(v int64) string {
	if v < 1 || v > 13 {
		return "an IR version this reader does not know"
	}
	return ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// parseOpset reads an OperatorSetIdProto: domain = 1, version = 2.
func parseOpset(m msg) (string, int64, error) {
	var domain string
	var version int64
	err := m.each("OperatorSetIdProto", func(f field) error {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			domain = m.str(f)
		case f.num == 2 && f.typ == protowire.VarintType:
			version = int64(f.varint)
		}
		return nil
	})
	return domain, version, err
}

// function summarises a FunctionProto (name = 1, input = 4, output = 5,
// node = 7, domain = 10) for the metadata pane.
func (b *builder) function(m msg) (*formats.Meta, error) {
	var name, domain string
	var inputs, outputs []string
	nodes := 0
	err := m.each("FunctionProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			name = m.str(f)
		case 4:
			inputs = append(inputs, m.str(f))
		case 5:
			outputs = append(outputs, m.str(f))
		case 7:
			nodes++
		case 10:
			domain = m.str(f)
		}
		return nil
	})
	fn := formats.NewObject(name,
		formats.Leaf("domain", domain),
		formats.Leaf("inputs", nonNil(inputs)),
		formats.Leaf("outputs", nonNil(outputs)),
		formats.Leaf("nodes", int64(nodes)))
	return fn, err
}

// graphSummary is the metadata entry of the main graph: name, counts and
// the declared types of its inputs and outputs.
func graphSummary(gp *graphProto, g *formats.Graph, doc *formats.Document) *formats.Meta {
	ops := 0
	for i := range g.Nodes {
		if g.Nodes[i].Kind != formats.KindInput {
			ops++
		}
	}
	inputs := formats.NewObject("inputs")
	for _, id := range g.Inputs {
		n := &g.Nodes[id]
		inputs.Add(formats.Leaf(n.Name, attrString(n.Attrs, "type")))
	}
	outputs := formats.NewObject("outputs")
	for _, vi := range gp.outputs {
		outputs.Add(formats.Leaf(vi.name, vi.typ.text))
	}
	return formats.NewObject("graph",
		formats.Leaf("name", gp.name),
		formats.Leaf("nodes", int64(ops)),
		formats.Leaf("tensors", int64(len(doc.Tensors))),
		inputs, outputs)
}

func attrString(attrs []formats.Attr, name string) string {
	for _, a := range attrs {
		if a.Name == name {
			s, _ := a.Value.(string)
			return s
		}
	}
	return ""
}
