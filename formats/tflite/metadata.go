package tflite

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/formats/tflite/internal/tfl"
)

// The metadata buffers that are flatbuffers of their own are read with
// their schemas, vendored beside schema.fbs: TFLite Support's
// metadata_schema.fbs (TFLITE_METADATA) and LiteRT's
// conversion_metadata.fbs (CONVERSION_METADATA).

//go:embed schema/metadata_schema.fbs
var metadataSchemaText string

//go:embed schema/conversion_metadata.fbs
var conversionSchemaText string

var (
	metadataSchema   = sync.OnceValues(func() (*fbSchema, error) { return parseSchema(metadataSchemaText) })
	conversionSchema = sync.OnceValues(func() (*fbSchema, error) { return parseSchema(conversionSchemaText) })
)

// maxTensorRows bounds the rows of a subgraph's tensor table.
const maxTensorRows = 5000

// metadata fills the metadata pane: the model's version and description,
// its metadata buffers, signature defs, subgraphs, operator codes, custom
// options and per-subgraph tensor tables.
func (d *decoder) metadata() {
	m := d.model
	model := formats.NewObject("model",
		formats.Leaf("schema version", int64(m.Version())),
		formats.Leaf("description", text(m.Description())),
		formats.Leaf("subgraphs", int64(d.nsub)),
		formats.Leaf("buffers", int64(d.nbuffers)),
		formats.Leaf("tensors with data", int64(len(d.doc.Tensors))))
	root := formats.NewObject("", model)
	if md := d.metadataBuffers(); len(md.Children) > 0 {
		root.Add(md)
	}
	if sigs := d.signatures(); len(sigs.Children) > 0 {
		root.Add(sigs)
	}
	root.Add(d.subgraphList())
	codes := formats.NewList("operator_codes")
	for j, c := range d.codes {
		if j >= 1000 {
			codes.Add(formats.Leaf("…", strconv.Itoa(len(d.codes)-j)+" more"))
			break
		}
		s := c.name
		if c.custom {
			s = "CUSTOM " + s
		}
		codes.Add(formats.Leaf(strconv.Itoa(j), s+" v"+strconv.Itoa(int(c.version))))
	}
	root.Add(codes)
	if len(d.custom.Children) > 0 {
		root.Add(d.custom)
	}
	d.doc.Metadata = root
	d.tensorTables()
}

func (d *decoder) metadataBuffers() *formats.Meta {
	m := d.model
	out := formats.NewObject("metadata")
	var md tfl.Metadata
	for j := 0; j < m.MetadataLength() && j < 1000; j++ {
		m.Metadata(&md, j)
		name := text(md.Name())
		off, size, _, err := d.bufferSpan(md.Buffer())
		if err != nil {
			d.warn(tableOf(md.Table()), "metadata %q: %v", name, err)
			continue
		}
		out.Add(d.metadataValue(name, d.buf[off:off+size], off))
	}
	for j := 0; j < m.MetadataBufferLength() && j < 1000; j++ {
		b := m.MetadataBuffer(j)
		if b < 0 {
			continue
		}
		if _, size, _, err := d.bufferSpan(uint32(b)); err == nil {
			out.Add(formats.Leaf("metadata_buffer "+strconv.Itoa(j), fmt.Sprintf("buffer %d, %d bytes", b, size)))
		}
	}
	return out
}

// metadataValue decodes one metadata buffer: the minimum runtime version
// as text, the two known flatbuffers as trees, other text as text, and
// anything else by its size.
func (d *decoder) metadataValue(name string, b []byte, off int64) *formats.Meta {
	var schema func() (*fbSchema, error)
	switch name {
	case "min_runtime_version":
		return formats.Leaf(name, strings.TrimRight(text(b), "\x00"))
	case "TFLITE_METADATA":
		schema = metadataSchema
	case "CONVERSION_METADATA":
		schema = conversionSchema
	}
	if schema != nil {
		s, err := schema()
		if err == nil {
			err = verifyModel(b, inMemory(b), s)
		}
		if err == nil {
			return tableAt(b, uint64(u32le(b)), s.root).tree(name, 0)
		}
		d.warn(off, "metadata %q does not parse as %s: %v", name, s.root.name, err)
	}
	if t := strings.TrimRight(string(b), "\x00"); len(t) <= 1024 && utf8.ValidString(t) && printable(t) {
		return formats.Leaf(name, t)
	}
	return formats.Leaf(name, fmt.Sprintf("%d bytes at byte %d", len(b), off))
}

func u32le(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

func (d *decoder) signatures() *formats.Meta {
	out := formats.NewList("signature_defs")
	var sd tfl.SignatureDef
	var tm tfl.TensorMap
	for j := 0; j < d.model.SignatureDefsLength() && j < 1000; j++ {
		d.model.SignatureDefs(&sd, j)
		sgi := int(sd.SubgraphIndex())
		obj := formats.NewObject(text(sd.SignatureKey()), formats.Leaf("subgraph_index", int64(sgi)))
		if sgi >= d.nsub {
			d.warn(tableOf(sd.Table()), "signature %q: subgraph %d, the model has %d", text(sd.SignatureKey()), sgi, d.nsub)
		}
		for _, io := range []struct {
			name string
			n    int
			get  func(*tfl.TensorMap, int) bool
		}{{"inputs", sd.InputsLength(), sd.Inputs}, {"outputs", sd.OutputsLength(), sd.Outputs}} {
			list := formats.NewObject(io.name)
			for k := 0; k < io.n && k < 1000; k++ {
				io.get(&tm, k)
				list.Add(formats.Leaf(text(tm.Name()), d.tensorLabel(sgi, int(tm.TensorIndex()))))
			}
			obj.Add(list)
		}
		out.Add(obj)
	}
	return out
}

// tensorLabel names tensor i of subgraph s with its index and shape.
func (d *decoder) tensorLabel(s, i int) string {
	if s < 0 || s >= d.nsub {
		return "tensor " + strconv.Itoa(i)
	}
	var sg tfl.SubGraph
	d.model.Subgraphs(&sg, s)
	if i < 0 || i >= sg.TensorsLength() {
		return fmt.Sprintf("tensor %d (outside the subgraph's %d)", i, sg.TensorsLength())
	}
	var t tfl.Tensor
	sg.Tensors(&t, i)
	shape, _ := shapeOf(&t)
	return fmt.Sprintf("%s: %s %v (tensor %d)", tensorName(&t, i), strings.ToLower(tfl.EnumNamesTensorType[t.Type()]), shape, i)
}

func (d *decoder) subgraphList() *formats.Meta {
	out := formats.NewList("subgraphs")
	var sg tfl.SubGraph
	for s := 0; s < d.nsub && s < 1000; s++ {
		d.model.Subgraphs(&sg, s)
		shown := "the main graph"
		switch {
		case s > 0 && d.reached[s]:
			shown = "nested in the graph (WHILE, IF, CALL_ONCE…)"
		case s > 0:
			shown = "not run by any operator of the main graph"
		}
		obj := formats.NewObject(strconv.Itoa(s),
			formats.Leaf("name", text(sg.Name())),
			formats.Leaf("operators", int64(sg.OperatorsLength())),
			formats.Leaf("tensors", int64(sg.TensorsLength())),
			formats.Leaf("shown", shown))
		for _, io := range []struct {
			name string
			n    int
			get  func(int) int32
		}{{"inputs", sg.InputsLength(), sg.Inputs}, {"outputs", sg.OutputsLength(), sg.Outputs}} {
			list := formats.NewList(io.name)
			for k := 0; k < io.n && k < 1000; k++ {
				list.Add(formats.Leaf(strconv.Itoa(k), d.tensorLabel(s, int(io.get(k)))))
			}
			obj.Add(list)
		}
		if s > 0 && !d.reached[s] && d.graphs[s] == nil {
			ops := map[string]int{}
			var op tfl.Operator
			for j := 0; j < sg.OperatorsLength(); j++ {
				sg.Operators(&op, j)
				if k := int(op.OpcodeIndex()); k < len(d.codes) {
					ops[d.codes[k].name]++
				}
			}
			obj.Add(formats.Leaf("operator kinds", fmt.Sprint(ops)))
		}
		out.Add(obj)
	}
	return out
}

// tensorTables lists every tensor of each subgraph, with or without data:
// activations show here with their shapes.
func (d *decoder) tensorTables() {
	var sg tfl.SubGraph
	var t tfl.Tensor
	for s := 0; s < d.nsub && s < 64; s++ {
		d.model.Subgraphs(&sg, s)
		n := sg.TensorsLength()
		title := fmt.Sprintf("Tensors of subgraph %d", s)
		if n > maxTensorRows {
			title += fmt.Sprintf(" (the first %d of %d)", maxTensorRows, n)
		}
		tab := formats.Table{Title: title, Columns: []string{"index", "type", "shape", "shape_signature", "buffer", "data", "quantisation", "name"}}
		for i := 0; i < n && i < maxTensorRows; i++ {
			sg.Tensors(&t, i)
			shape, _ := shapeOf(&t)
			sig := ""
			if t.ShapeSignatureLength() > 0 {
				sig = signatureText(&t)
			}
			data := "none (computed at run time)"
			if k := d.tensorOf[s][i]; k >= 0 {
				data = "yes"
				if n := d.doc.Tensors[k].Name; n != tensorName(&t, i) {
					data = "listed as " + n
				}
			} else if _, size, _, err := d.bufferSpan(t.Buffer()); err == nil && t.Buffer() != 0 && size == 0 {
				data = "empty buffer"
			}
			// The name last: converters join fused names with ";" into
			// hundreds of characters.
			tab.Rows = append(tab.Rows, []string{strconv.Itoa(i), strings.ToLower(tfl.EnumNamesTensorType[t.Type()]),
				fmt.Sprint(shape), sig, strconv.Itoa(int(t.Buffer())), data, quantText(&t), tensorName(&t, i)})
		}
		d.doc.Tables = append(d.doc.Tables, tab)
	}
}

func quantText(t *tfl.Tensor) string {
	var q tfl.QuantizationParameters
	if t.Quantization(&q) == nil || q.ScaleLength() == 0 {
		return ""
	}
	if q.ScaleLength() == 1 {
		zp := int64(0)
		if q.ZeroPointLength() > 0 {
			zp = q.ZeroPoint(0)
		}
		return fmt.Sprintf("scale %g, zero point %d", q.Scale(0), zp)
	}
	return fmt.Sprintf("%d scales along dim %d", q.ScaleLength(), q.QuantizedDimension())
}
