package tsm

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func encodeUnchecked(t testing.TB, m *Module) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeModule(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeDoc(t testing.TB, data []byte) *formats.Document {
	t.Helper()
	doc, err := formats.DecodeAs("tsm", "test.tsm", data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(attrs []formats.Attr, name string) (any, bool) {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return nil, false
}

// stripOffsets zeroes the positions Decode records, so decoded modules
// compare equal to built ones.
func stripOffsets(m *Module) *Module {
	c := *m
	c.InputsOffset, c.OutputsOffset, c.NodesOffset = 0, 0, 0
	c.Nodes = make([]Node, len(m.Nodes))
	for i, n := range m.Nodes {
		n.Offset, n.InputsOffset = 0, 0
		ps := make([]Param, len(n.Params))
		for j, p := range n.Params {
			p.Offset = 0
			fs := make([]Tensor, len(p.Fields))
			for k, f := range p.Fields {
				f.Offset = 0
				if len(f.Shape) == 0 {
					f.Shape = []int{}
				}
				if len(f.Data) == 0 {
					f.Data = []byte{}
				}
				fs[k] = f
			}
			if len(fs) == 0 {
				fs = []Tensor{}
			}
			p.Fields = fs
			ps[j] = p
		}
		n.Params = ps
		if len(n.Inputs) == 0 {
			n.Inputs = []int{}
		}
		c.Nodes[i] = n
	}
	if len(c.Inputs) == 0 {
		c.Inputs = []int{}
	}
	if len(c.Outputs) == 0 {
		c.Outputs = []int{}
	}
	return &c
}

// TestRoundTrip: write → read gives back every node, parameter and byte,
// and writing again gives the same file.
func TestRoundTrip(t *testing.T) {
	for name, m := range map[string]*Module{
		"example": ExampleNet(), "packed": packedModule(), "all dtypes": allDTypesModule(),
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Encode(&buf, m); err != nil {
				t.Fatal(err)
			}
			got, end, err := Decode(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if end != int64(buf.Len()) {
				t.Errorf("decoded %d of %d bytes", end, buf.Len())
			}
			if !reflect.DeepEqual(stripOffsets(got), stripOffsets(m)) {
				t.Errorf("module changed in the round trip")
			}
			var again bytes.Buffer
			if err := Encode(&again, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), buf.Bytes()) {
				t.Errorf("second encoding differs")
			}
		})
	}
}

// TestExampleNetDocument checks the builder's example as the viewer sees it.
func TestExampleNetDocument(t *testing.T) {
	doc := decodeDoc(t, readFixture(t, "example_net.tsm"))
	g := doc.Graph
	var chain []string
	for _, n := range g.Nodes {
		chain = append(chain, n.Op)
	}
	want := []string{"<param>", "conv2d", "add_bias", "relu", "pooling2d", "inner_prod", "softmax", "<const>", "<const>", "<const>"}
	if !reflect.DeepEqual(chain, want) {
		t.Errorf("ops %v", chain)
	}
	if !reflect.DeepEqual(g.Nodes[1].Inputs, []int{0, 7}) || !reflect.DeepEqual(g.Nodes[5].Inputs, []int{4, 9}) {
		t.Errorf("conv inputs %v, fc inputs %v", g.Nodes[1].Inputs, g.Nodes[5].Inputs)
	}
	if !reflect.DeepEqual(g.Inputs, []int{0}) || !reflect.DeepEqual(g.Outputs, []int{6}) {
		t.Errorf("inputs %v outputs %v", g.Inputs, g.Outputs)
	}
	if v, _ := attr(g.Nodes[4].Attrs, "type"); v != (formats.Enum{Value: 0, Name: "MAX"}) {
		t.Errorf("pooling type %v", v)
	}
	if v, _ := attr(g.Nodes[5].Attrs, "transpose"); v != true {
		t.Errorf("inner_prod transpose %v", v)
	}
	if v, _ := attr(g.Nodes[0].Reserved, ParamDType); v != (formats.Enum{Value: 10, Name: "FLOAT32"}) {
		t.Errorf("input #dtype %v", v)
	}
	if len(doc.Tensors) != 3 {
		t.Fatalf("%d tensors", len(doc.Tensors))
	}
	w := doc.Tensor("conv1_weights")
	x, err := w.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if x.DType() != tensor.Float32 || !reflect.DeepEqual(x.Shape(), []int{4, 3, 3, 3}) || w.Role != formats.RoleWeight {
		t.Errorf("weights %s role %s", x, w.Role)
	}
	if got, want := loadBytes(t, w), ExampleNet().Nodes[7].Params[2].Fields[0].Data; !bytes.Equal(got, want) {
		t.Errorf("weights read back differ from those written")
	}
	if got := binary.LittleEndian.Uint32(loadBytes(t, w)); got != math.Float32bits(0.5*float32(11-48)/48) {
		t.Errorf("weight 0 = %08x", got)
	}
	if h := doc.Header[2]; h.Meaning != `first 23 bytes used, the rest zero: "tensorscope example net"` {
		t.Errorf("user data meaning %q", h.Meaning)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings %v", doc.Warnings)
	}
}

// TestEveryDType reads a parameter and a constant of every TenniS dtype.
func TestEveryDType(t *testing.T) {
	doc := decodeDoc(t, readFixture(t, "all_dtypes.tsm"))
	n := doc.Graph.Nodes[len(doc.Graph.Nodes)-1]
	get := func(name string) any {
		t.Helper()
		v, ok := attr(n.Attrs, name)
		if !ok {
			t.Fatalf("no attribute %q", name)
		}
		return v
	}
	cases := map[string]any{
		"scalar_INT8":       int64(1),
		"vector_UINT16":     []int64{0x0201, 0x0403, 0x0605},
		"vector_INT32":      []int64{0x04030201, 0x08070605, 0x0c0b0a09},
		"scalar_UINT64":     int64(0x0807060504030201),
		"vector_FLOAT16":    []float64{1, 1.0009765625, 1.001953125},
		"scalar_FLOAT32":    0.5,
		"vector_FLOAT64":    []float64{0.25, 1.25, 2.25},
		"scalar_BOOLEAN":    false,
		"vector_BOOLEAN":    []bool{false, true, false},
		"vector_CHAR8":      "abc",
		"vector_CHAR16":     "αβγ",
		"vector_CHAR32":     "😀😁😂",
		"matrix_INT8":       []int64{1, 2, 3, 4, 5, 6},
		"matrix_INT8.shape": []int64{2, 3},
		"scalar_VOID":       "VOID[] (VOID: no data)",
		"vector_UNKNOWN8":   "UNKNOWN8[3], 3 bytes: 010203",
		"scalar_COMPLEX64":  "COMPLEX64[], 8 bytes: 0102030405060708",
		"vector_SINK8Q3":    "SINK8Q3[3], 3 bytes: 010203",
		"scalar_PTR":        "PTR[], 8 bytes: 0102030405060708",
		"text":              "hello",
		"one":               int64(0x0807060504030201),
		"packed[0]":         int64(7),
		"packed[1]":         "x",
		"packed[2]":         false,
		"empty_packed":      nil,
		"empty_vector":      []int64{},
		"negative[0]":       int64(-1),
		"negative[1]":       int64(-2),
		"negative[2]":       int64(-5),
		"negative[3]":       int64(-7),
		"negative[4]":       "18446744073709551615",
		"large_FLOAT32":     `FLOAT32[5,4], tensor "all.large_FLOAT32"`,
	}
	for name, want := range cases {
		if got := get(name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", name, got, want)
		}
	}
	if _, ok := attr(n.Attrs, "vector_CHAR8.shape"); ok {
		t.Errorf("text has a .shape attribute")
	}
	// Large parameters of a known dtype become tensors; VOID never has data.
	large := doc.Tensor("all.large_FLOAT32")
	if large == nil || large.Role != formats.RoleConstant || large.DType != tensor.Float32 || !reflect.DeepEqual(large.Shape, []int{5, 4}) {
		t.Fatalf("large parameter tensor %+v", large)
	}
	if v := get("large_VOID"); v != "VOID[5,4] (VOID: no data)" {
		t.Errorf("large VOID %v", v)
	}
	wantConst := map[string]tensor.DType{
		"const_VOID": tensor.Invalid, "const_INT8": tensor.Int8, "const_UINT64": tensor.Uint64,
		"const_FLOAT16": tensor.Float16, "const_FLOAT64": tensor.Float64, "const_PTR": tensor.Void64,
		"const_CHAR8": tensor.Uint8, "const_CHAR16": tensor.Uint16, "const_CHAR32": tensor.Uint32,
		"const_UNKNOWN128": tensor.Void128, "const_BOOLEAN": tensor.Bool, "const_COMPLEX32": tensor.Void32,
		"const_COMPLEX64": tensor.Complex64, "const_COMPLEX128": tensor.Complex128, "const_SINK8Q0": tensor.Void8,
		"const_SINK8Q7": tensor.Void8,
	}
	for name, dt := range wantConst {
		e := doc.Tensor(name)
		if e == nil || e.DType != dt {
			t.Errorf("%s: %+v, want dtype %s", name, e, dt)
			continue
		}
		if dt == tensor.Invalid {
			if e.HasData() || e.Offset != -1 {
				t.Errorf("VOID constant has data")
			}
			continue
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if x.Len()*x.DType().Size() != int(e.NBytes) {
			t.Errorf("%s: %d elements for %d bytes", name, x.Len(), e.NBytes)
		}
	}
	if e := doc.Tensor("const_FLOAT16"); e.Role != formats.RoleWeight {
		t.Errorf("float16 constant role %s", e.Role)
	}
	if e := doc.Tensor("const_INT32"); e.Role != formats.RoleConstant {
		t.Errorf("int32 constant role %s", e.Role)
	}
	if v := doc.Graph.Values[doc.Graph.Inputs[0]]; v.DType != tensor.Float16 || !reflect.DeepEqual(v.Shape, []int{2, 3}) {
		t.Errorf("input value %+v", v)
	}
	if len(doc.Warnings) == 0 || !strings.Contains(doc.Warnings[0].Message, "PTR") {
		t.Errorf("no PTR warning: %v", doc.Warnings)
	}
	if h := doc.Header[2]; !strings.HasPrefix(h.Meaning, "all 120 bytes used") {
		t.Errorf("user data meaning %q", h.Meaning)
	}
}

// corrupt builds a small module, lets edit break it, and encodes it
// without the encoder's checks.
func corrupt(t *testing.T, edit func(m *Module)) []byte {
	m := ExampleNet()
	edit(m)
	return encodeUnchecked(t, m)
}

func TestDecodeErrors(t *testing.T) {
	example := readFixture(t, "example_net.tsm")
	good, _, err := Decode(example)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		data   []byte
		offset int64
		want   string
	}{
		{"cycle", corrupt(t, func(m *Module) { m.Nodes[1].Inputs = []int{3, 7} }),
			good.Nodes[2].InputsOffset + 4, "node 2 input 0 names node 1, which depends on node 2: the nodes form a cycle (1 → 3 → 2 → 1"},
		{"self loop", corrupt(t, func(m *Module) { m.Nodes[3].Inputs = []int{3} }),
			good.Nodes[3].InputsOffset + 4, "node 3 input 0 names the node itself: a cycle"},
		{"node input out of range", corrupt(t, func(m *Module) { m.Nodes[6].Inputs = []int{10} }),
			good.Nodes[6].InputsOffset + 4, "node 6 input 0 names node 10, but there are 10 nodes"},
		{"module output out of range", corrupt(t, func(m *Module) { m.Outputs = []int{6, 99} }),
			good.OutputsOffset + 8, "module output 1 names node 99"},
		{"module input out of range", corrupt(t, func(m *Module) { m.Inputs = []int{-1} }),
			good.InputsOffset + 4, "module input 0 names node 4294967295"},
		{"no #op", corrupt(t, func(m *Module) { m.Nodes[5].Params = m.Nodes[5].Params[1:] }),
			good.Nodes[5].Offset, "node 5: no #op parameter"},
		{"#op not text", corrupt(t, func(m *Module) { m.Nodes[5].Params[0] = P(ParamOp, Int32(3)) }),
			good.Nodes[5].Params[0].Offset, "node 5: #op must be one CHAR8 text field, found INT32[]"},
		{"bad code", corrupt(t, func(m *Module) { m.Code = 0x19910930 }), 4, "expected 0x19910929"},
		{"unknown dtype", corrupt(t, func(m *Module) { m.Nodes[2].Params[2].Fields[0].DType = 33 }),
			good.Nodes[2].Params[2].Offset + 4 + 3 + 4, `node 2, parameter "dim": unknown tensor dtype code 33`},
		{"negative dimension", corrupt(t, func(m *Module) { m.Nodes[7].Params[2].Fields[0].Shape[1] = -3 }),
			good.Nodes[7].Params[2].Offset + 4 + 5 + 4 + 1 + 4 + 4, "dimension 1 is negative (-3)"},
		{"huge shape", corrupt(t, func(m *Module) { m.Nodes[7].Params[2].Fields[0].Shape = []int{1 << 30, 1 << 30} }),
			good.Nodes[7].Params[2].Offset + 4 + 5 + 4 + 1 + 4, "more than 2^48 elements"},
		{"data past the end", corrupt(t, func(m *Module) { m.Nodes[9].Params[2].Fields[0].Shape = []int{10, 65} }),
			good.Nodes[9].Params[2].Fields[0].Offset, "FLOAT32[10,65]: tensor data: need 2600 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := formats.DecodeAs("tsm", "bad.tsm", c.data)
			var fe *formats.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *formats.Error", err)
			}
			if fe.Offset != c.offset || !strings.Contains(fe.Msg, c.want) {
				t.Errorf("got %v (offset %d)\nwant offset %d and %q", err, fe.Offset, c.offset, c.want)
			}
		})
	}
}

// TestLongChainIsIterative: a 100 000-node chain whose every input is a
// forward reference decodes (no recursion), and closing it into a ring is
// reported as a cycle.
func TestLongChainIsIterative(t *testing.T) {
	const n = 100000
	m := &Module{Code: Magic, Nodes: make([]Node, n), Inputs: []int{n - 1}, Outputs: []int{0}}
	for i := range m.Nodes {
		m.Nodes[i].Params = []Param{P(ParamOp, String("relu"))}
		if i < n-1 {
			m.Nodes[i].Inputs = []int{i + 1}
		}
	}
	data := encodeUnchecked(t, m)
	if _, _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
	m.Nodes[n-1].Inputs = []int{0}
	_, _, err := Decode(encodeUnchecked(t, m))
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("ring: %v", err)
	}
}

func TestWarnings(t *testing.T) {
	data := corrupt(t, func(m *Module) {
		m.Nodes[3].Params = append(m.Nodes[3].Params, P(ParamOutputCount, Int32(2)))
		m.Nodes[2].Params = append(m.Nodes[2].Params, P("dim", Int32(2)))
		m.Nodes[6].Params = append(m.Nodes[6].Params, P(strings.Repeat("p", 40), Int32(1)))
		m.Nodes[5].Params = append(m.Nodes[5].Params[:1], m.Nodes[5].Params[2:]...) // no #name
		m.Nodes[4].Params = append(m.Nodes[4].Params, P("#private", String("kept")))
		m.Nodes[4].Params = append(m.Nodes[4].Params, P("type_code", Int32(1)))
		m.Nodes[0].Params[3] = P(ParamDType, Int32(77))
		m.Nodes[8].Params = m.Nodes[8].Params[:2] // const without value
		m.Nodes[9].Params = append(m.Nodes[9].Params, P("value", Int32(5)), P(ParamName, String("other")))
	})
	data = append(data, 1, 2, 3)
	doc := decodeDoc(t, data)
	want := []string{
		"node 0: #dtype value 77 is not a TenniS dtype",
		`node 2 repeats parameter "dim"`,
		"node 3: #output_count is 2",
		"node 5 has no #name parameter",
		"node 6 parameter name is 40 bytes long",
		`node 8 is <const> but has no "value" parameter`,
		"3 bytes after the last node",
	}
	var got []string
	for _, w := range doc.Warnings {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("missing warning %q in\n%s", w, all)
		}
	}
	if last := doc.Warnings[len(doc.Warnings)-1]; last.Offset != int64(len(data)-3) {
		t.Errorf("trailing-bytes warning at %d", last.Offset)
	}
	if v, ok := attr(doc.Graph.Nodes[4].Reserved, "#private"); !ok || v != "kept" {
		t.Errorf("unknown reserved parameter: %v", doc.Graph.Nodes[4].Reserved)
	}
	if e := doc.Tensors[doc.Graph.Values[9].Tensor]; e.Name != "fc_weights" || e.DType != tensor.Float32 {
		t.Errorf("a repeated value replaced the first: %+v", e)
	}
	if n := doc.Graph.Nodes[9]; n.Name != "fc_weights" {
		t.Errorf("a repeated #name replaced the first: %q", n.Name)
	}
	if v, _ := attr(doc.Graph.Nodes[3].Reserved, ParamOutputCount); v != int64(2) {
		t.Errorf("#output_count shown as %v", v)
	}
}

// TestEncodeRefuses: the writer never writes what the reader refuses.
func TestEncodeRefuses(t *testing.T) {
	for name, edit := range map[string]func(m *Module){
		"cycle":        func(m *Module) { m.Nodes[1].Inputs = []int{3} },
		"out of range": func(m *Module) { m.Outputs = []int{10} },
		"short data":   func(m *Module) { m.Nodes[7].Params[2].Fields[0].Data = make([]byte, 3) },
		"dtype":        func(m *Module) { m.Nodes[7].Params[2].Fields[0].DType = 40 },
		"negative dim": func(m *Module) { m.Nodes[7].Params[2].Fields[0].Shape = []int{-1} },
		"no #op":       func(m *Module) { m.Nodes[2].Params = m.Nodes[2].Params[1:] },
	} {
		m := ExampleNet()
		edit(m)
		if err := Encode(&bytes.Buffer{}, m); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
}

// truncations decodes every proper prefix of data (up to limit bytes) and
// requires an error that names an offset, never a panic. Prefixes of at
// least tolerated bytes may decode, but only with a warning.
func truncations(t *testing.T, id string, data []byte, limit, tolerated int) {
	t.Helper()
	if limit > len(data) {
		limit = len(data)
	}
	for n := 0; n < limit; n++ {
		doc, err := formats.DecodeAs(id, "cut", data[:n])
		if err == nil {
			if n < tolerated || len(doc.Warnings) == 0 {
				t.Fatalf("%s: prefix of %d of %d bytes decoded (%d nodes, warnings %v)", id, n, len(data), len(doc.Graph.Nodes), doc.Warnings)
			}
			continue
		}
		if !strings.Contains(err.Error(), "byte") {
			t.Fatalf("prefix %d: error without an offset: %v", n, err)
		}
	}
}

func TestTruncationGenerated(t *testing.T) {
	for _, name := range []string{"example_net.tsm", "packed.tsm", "all_dtypes.tsm"} {
		data := readFixture(t, name)
		truncations(t, "tsm", data, len(data), len(data))
	}
	// Cutting a .csta inside its padding loses no data: it still opens,
	// with a warning about the padding.
	data := readFixture(t, "example_net.csta")
	pad := int(data[len(data)-1] ^ byte(cstaKey>>(8*((len(data)-cstaHdrSize-1)%8))))
	truncations(t, "csta", data, len(data), len(data)-pad)
}

// TestLimits: hostile shapes of module are shown in part, with warnings,
// rather than costing memory far beyond the file's size.
func TestLimits(t *testing.T) {
	b := NewBuilder()
	many := make([]Tensor, 100)
	for i := range many {
		many[i] = Int32(int32(i))
	}
	b.Node("op", "wide", nil, P("many", many...))
	consts := make([]Tensor, maxConstFields+5)
	for i := range consts {
		consts[i] = Bool(true)
	}
	b.Const("packed", consts...)
	var dup []Param
	for i := 0; i < maxWarnings+50; i++ {
		dup = append(dup, P("same", Int32(1)))
	}
	b.Node("op", "dups", nil, dup...)
	var buf bytes.Buffer
	if err := Encode(&buf, b.Module()); err != nil {
		t.Fatal(err)
	}
	doc := decodeDoc(t, buf.Bytes())
	if n := len(doc.Graph.Nodes[0].Attrs); n != maxAttrFields {
		t.Errorf("%d attributes shown", n)
	}
	if v, _ := attr(doc.Graph.Nodes[0].Attrs, "many[63]"); v != int64(63) {
		t.Errorf("many[63] = %v", v)
	}
	if len(doc.Tensors) != maxConstFields || doc.Tensors[maxConstFields-1].Name != "packed[4095]" {
		t.Errorf("%d tensors", len(doc.Tensors))
	}
	if len(doc.Warnings) != maxWarnings+1 {
		t.Fatalf("%d warnings", len(doc.Warnings))
	}
	checkWarnings(t, doc, `node 0 parameter "many" packs 100 fields; the first 64 are shown`,
		"node 1 value packs 4101 fields; the first 4096 are listed as tensors",
		`node 2 repeats parameter "same"`)
	if last := doc.Warnings[maxWarnings]; last.Offset != -1 || last.Message != "51 more warnings about the module are not listed" {
		t.Errorf("last warning %v", last)
	}
}

// TestPackedFixture reads the generated packed constant the same way as
// the frontend's sample.
func TestPackedFixture(t *testing.T) {
	checkPacked(t, decodeDoc(t, readFixture(t, "packed.tsm")))
}
