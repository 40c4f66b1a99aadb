package tsm

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// place says where a decoded module lies: file offsets for display, and
// the storage (with the module's position in it) that tensors view.
type place struct {
	fileBase    int64           // file offset of the module's byte 0
	storage     *tensor.Storage // what tensor loaders view
	storageBase int64           // storage offset of the module's byte 0
	embedded    bool            // inside a .csta: header offsets are module-relative
}

// fillDocument turns a decoded module into the document's header, tensors,
// graph, operator table and warnings. end is where the module stopped.
func fillDocument(doc *formats.Document, m *Module, pl place) {
	b := docBuilder{doc: doc, m: m, pl: pl, ops: map[string]string{}}
	b.header()
	b.graph()
	b.opTable()
	if b.suppressed > 0 {
		doc.Warn(-1, "%d more warnings about the module are not listed", b.suppressed)
	}
}

// Limits that keep a hostile module (a million empty parameters, a
// constant packing a million fields) from costing far more memory than
// its size. Real modules are nowhere near them.
const (
	maxWarnings    = 200
	maxAttrFields  = 64   // fields of one parameter shown as attributes
	maxConstFields = 4096 // fields of one constant listed as tensors
)

type docBuilder struct {
	doc        *formats.Document
	m          *Module
	pl         place
	warnings   int
	suppressed int
	ops        map[string]string // interned op names: thousands of nodes share a few
}

// opOf returns node i's #op, one string per distinct op.
func (b *docBuilder) opOf(i int) string {
	p := b.m.Nodes[i].Param(ParamOp)
	if p == nil || len(p.Fields) != 1 || p.Fields[0].DType != CHAR8 {
		return ""
	}
	raw := p.Fields[0].Data
	if op, ok := b.ops[string(raw)]; ok {
		return op
	}
	op := string(raw)
	b.ops[op] = op
	return op
}

func (b *docBuilder) fileOff(moduleOff int64) int64 { return b.pl.fileBase + moduleOff }

func (b *docBuilder) warn(moduleOff int64, format string, args ...any) {
	b.warnings++
	if b.warnings > maxWarnings {
		b.suppressed++
		return
	}
	b.doc.Warn(b.fileOff(moduleOff), format, args...)
}

func (b *docBuilder) header() {
	m := b.m
	name, where := func(s string) string { return s }, func(off int64) string { return "" }
	if b.pl.embedded {
		name = func(s string) string { return "module " + s }
		where = func(off int64) string {
			return fmt.Sprintf("module byte %d (file byte %d, encrypted)", off, b.fileOff(off))
		}
	}
	with := func(meaning string, off int64) string {
		w := where(off)
		switch {
		case w == "":
			return meaning
		case meaning == "":
			return "at " + w
		}
		return meaning + "; at " + w
	}
	b.doc.Header = append(b.doc.Header,
		formats.HeaderField{Name: name("fake"), Offset: 0, Size: 4, Value: m.Fake,
			Meaning: with("reserved, no meaning", 0)},
		formats.HeaderField{Name: name("code"), Offset: 4, Size: 4, Value: m.Code,
			Meaning: with("0x19910929: TenniS module format V1", 4)},
		formats.HeaderField{Name: name("user data"), Offset: 8, Size: UserDataSize, Value: formats.Bytes(m.User[:]),
			Meaning: with(userDataMeaning(m.User[:]), 8)},
		formats.HeaderField{Name: name("input count"), Offset: m.InputsOffset, Size: 4, Value: uint32(len(m.Inputs)),
			Meaning: with(nodeList(m.Inputs), m.InputsOffset)},
		formats.HeaderField{Name: name("output count"), Offset: m.OutputsOffset, Size: 4, Value: uint32(len(m.Outputs)),
			Meaning: with(nodeList(m.Outputs), m.OutputsOffset)},
		formats.HeaderField{Name: name("node count"), Offset: m.NodesOffset, Size: 4, Value: uint32(len(m.Nodes)),
			Meaning: with("", m.NodesOffset)},
	)
	if !b.pl.embedded {
		b.doc.HeaderSpan = formats.Span{Offset: 0, Len: m.NodesOffset + 4}
	}
}

// userDataMeaning summarises the 120 user bytes, which real files do use.
func userDataMeaning(u []byte) string {
	end := len(u)
	for end > 0 && u[end-1] == 0 {
		end--
	}
	if end == 0 {
		return "all zero"
	}
	used := u[:end]
	more := ""
	if len(used) > 32 {
		used, more = used[:32], "…"
	}
	if end == len(u) {
		return fmt.Sprintf("all %d bytes used: %s%s", len(u), strconv.Quote(string(used)), more)
	}
	return fmt.Sprintf("first %d bytes used, the rest zero: %s%s", end, strconv.Quote(string(used)), more)
}

func nodeList(idx []int) string {
	if len(idx) == 0 {
		return "no nodes"
	}
	const show = 8
	parts := make([]string, 0, show+1)
	for i, v := range idx {
		if i == show {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(idx)))
			break
		}
		parts = append(parts, strconv.Itoa(v))
	}
	word := "node "
	if len(idx) > 1 {
		word = "nodes "
	}
	return word + strings.Join(parts, ", ")
}

func (b *docBuilder) graph() {
	m := b.m
	g := &formats.Graph{
		Nodes:   make([]formats.Node, len(m.Nodes)),
		Values:  make([]formats.Value, len(m.Nodes)),
		Inputs:  append([]int{}, m.Inputs...),
		Outputs: append([]int{}, m.Outputs...),
	}
	// One backing array for every node's single output.
	outputs := make([]int, len(m.Nodes))
	for i := range outputs {
		outputs[i] = i
	}
	isInput := make([]bool, len(m.Nodes))
	for _, i := range m.Inputs {
		isInput[i] = true
	}
	for i := range m.Nodes {
		g.Nodes[i].Outputs = outputs[i : i+1 : i+1]
		b.node(g, i)
		if g.Nodes[i].Kind == formats.KindInput && !isInput[i] {
			b.warn(m.Nodes[i].Offset, "node %d is a %s node but not one of the module's inputs", i, OpParam)
		}
	}
	for k, i := range m.Inputs {
		if g.Nodes[i].Kind != formats.KindInput {
			b.warn(m.InputsOffset+4+4*int64(k), "module input %d is node %d, a %q node rather than %s", k, i, g.Nodes[i].Op, OpParam)
		}
	}
	b.weightChannels(g)
	b.doc.Graph = g
}

func (b *docBuilder) node(g *formats.Graph, i int) {
	src := &b.m.Nodes[i]
	n := &g.Nodes[i]
	v := &g.Values[i]
	n.ID = i
	n.Inputs = src.Inputs
	*v = formats.Value{Producer: i, Tensor: -1}

	// Decode guarantees #op is text; #name should be.
	opParam, nameParam := src.Param(ParamOp), src.Param(ParamName)
	n.Op, n.Name = b.opOf(i), src.Name()
	if nameParam == nil {
		b.warn(src.Offset, "node %d has no %s parameter", i, ParamName)
	} else if len(nameParam.Fields) != 1 || nameParam.Fields[0].DType != CHAR8 {
		b.warn(nameParam.Offset, "node %d: %s is not one text field", i, ParamName)
		nameParam = nil // show it with the reserved parameters
	}
	v.Name = n.Name
	switch n.Op {
	case OpParam:
		n.Kind = formats.KindInput
	case OpConst, OpVar:
		n.Kind = formats.KindConst
	}

	var seen map[string]bool // only for nodes with many parameters
	if len(src.Params) > 16 {
		seen = make(map[string]bool, len(src.Params))
	}
	for j := range src.Params {
		p := &src.Params[j]
		dup := repeated(src.Params, j, seen)
		if dup {
			b.warn(p.Offset, "node %d repeats parameter %q; the first is used", i, p.Name)
		}
		if len(p.Name) >= 32 {
			b.warn(p.Offset, "node %d parameter name is %d bytes long; the format allows fewer than 32", i, len(p.Name))
		}
		for k := range p.Fields {
			if p.Fields[k].DType == PTR {
				b.warn(p.Fields[k].Offset, "node %d parameter %q holds PTR data, read as %d-byte elements", i, p.Name, ptrSize)
			}
		}
		switch {
		case n.Kind == formats.KindConst && p.Name == "value" && !dup:
			b.constValue(g, i, p)
		case strings.HasPrefix(p.Name, "#"):
			if p == opParam || p == nameParam {
				continue
			}
			n.Reserved = append(n.Reserved, b.attrs(i, n.Name, p)...)
			if !dup {
				b.reserved(v, i, p)
			}
		default:
			n.Attrs = append(n.Attrs, b.attrs(i, n.Name, p)...)
		}
	}
	if n.Kind == formats.KindConst && src.Param("value") == nil {
		b.warn(src.Offset, "node %d is %s but has no \"value\" parameter", i, n.Op)
	}
	n.Meaning = meaningOf(n.Op, n.Attrs)
	n.Meaning.Scope = scopeOf(n.Name)
}

// repeated reports whether params[j]'s name appeared before it; seen
// (when not nil) holds the names so far and makes this constant-time.
func repeated(params []Param, j int, seen map[string]bool) bool {
	name := params[j].Name
	if seen != nil {
		r := seen[name]
		seen[name] = true
		return r
	}
	for k := 0; k < j; k++ {
		if params[k].Name == name {
			return true
		}
	}
	return false
}

// reserved applies #shape, #dtype and #output_count to the node's value.
func (b *docBuilder) reserved(v *formats.Value, i int, p *Param) {
	if len(p.Fields) != 1 {
		b.warn(p.Offset, "node %d parameter %s has %d fields, expected 1", i, p.Name, len(p.Fields))
		return
	}
	f := &p.Fields[0]
	switch p.Name {
	case ParamShape:
		if s, ok := intList(f); ok {
			v.Shape = s
		} else {
			b.warn(p.Offset, "node %d: %s is %s, not a list of int32 dimensions", i, p.Name, describe(f.DType, f.Shape))
		}
	case ParamDType:
		if c, ok := scalarInt(f); ok && c >= 0 && c <= int64(SINK8Q7) {
			if dt, _ := DType(c).TensorDType(); dt.Valid() {
				v.DType = dt
			}
		}
	case ParamOutputCount:
		if c, ok := scalarInt(f); !ok || c != 1 {
			b.warn(p.Offset, "node %d: %s is %v; TenniS nodes have exactly one output", i, p.Name, fieldText(f))
		}
	}
}

func fieldText(f *Tensor) any {
	v, ok := inlineValue(f)
	if !ok {
		return describe(f.DType, f.Shape)
	}
	return v
}

// attrs converts a parameter into one attribute per field ("name[k]" when
// packed), typed by op where the meaning of an integer is known.
func (b *docBuilder) attrs(i int, nodeName string, p *Param) []formats.Attr {
	if len(p.Fields) == 0 {
		return []formats.Attr{{Name: p.Name, Value: nil}}
	}
	fields := p.Fields
	if len(fields) > maxAttrFields {
		b.warn(p.Offset, "node %d parameter %q packs %d fields; the first %d are shown", i, p.Name, len(fields), maxAttrFields)
		fields = fields[:maxAttrFields]
	}
	out := make([]formats.Attr, 0, len(fields))
	for k := range fields {
		f := &fields[k]
		name := p.Name
		if len(p.Fields) > 1 {
			name = fmt.Sprintf("%s[%d]", p.Name, k)
		}
		v, ok := inlineValue(f)
		if !ok {
			tname := nodeName + "." + name
			b.addTensor(tname, i, f, formats.RoleConstant)
			v = fmt.Sprintf("%s, tensor %q", describe(f.DType, f.Shape), tname)
		} else {
			v = b.enum(i, p.Name, f, v)
		}
		out = append(out, formats.Attr{Name: name, Value: v})
		if ok && len(f.Shape) > 1 && f.Elements() > 1 && isNumber(f.DType) {
			shape := make([]int64, len(f.Shape))
			for d, s := range f.Shape {
				shape[d] = int64(s)
			}
			out = append(out, formats.Attr{Name: name + ".shape", Value: shape})
		}
	}
	return out
}

// Parameters whose integers name something.
var poolingTypes = map[int64]string{0: "MAX", 1: "AVG"}

func (b *docBuilder) enum(i int, param string, f *Tensor, v any) any {
	op := b.opOf(i)
	code, ok := scalarInt(f)
	if !ok {
		return v
	}
	switch {
	case param == ParamDType || (op == "_cast" && param == "dtype"):
		if code < 0 || code > int64(SINK8Q7) {
			b.warn(f.Offset, "node %d: %s value %d is not a TenniS dtype", i, param, code)
			return v
		}
		return formats.Enum{Value: code, Name: DType(code).String()}
	case (op == "pooling2d" || op == "pooling2d_v2") && param == "type":
		if name, known := poolingTypes[code]; known {
			return formats.Enum{Value: code, Name: name}
		}
	}
	return v
}

// constValue makes each field of a <const>/<var> value a document tensor.
func (b *docBuilder) constValue(g *formats.Graph, i int, p *Param) {
	n := &g.Nodes[i]
	if len(p.Fields) == 0 {
		b.warn(p.Offset, "node %d: %s value has no fields", i, n.Op)
		return
	}
	role := formats.RoleConstant
	if n.Op == OpVar {
		role = formats.RoleVariable
	}
	v := &g.Values[i]
	fields := p.Fields
	if len(fields) > maxConstFields {
		b.warn(p.Offset, "node %d value packs %d fields; the first %d are listed as tensors", i, len(fields), maxConstFields)
		fields = fields[:maxConstFields]
	}
	for k := range fields {
		f := &fields[k]
		name := n.Name
		if len(p.Fields) > 1 {
			name = fmt.Sprintf("%s[%d]", n.Name, k)
		}
		r := role
		if dt, _ := f.DType.TensorDType(); dt.IsFloat() && role == formats.RoleConstant {
			r = formats.RoleWeight
		}
		idx := b.addTensor(name, i, f, r)
		if k == 0 {
			v.Tensor = idx
			if dt, _ := f.DType.TensorDType(); dt.Valid() {
				v.DType = dt
			}
			v.Shape = append([]int{}, f.Shape...)
		}
	}
	if len(p.Fields) > 1 {
		n.Attrs = append(n.Attrs, formats.Attr{Name: "value fields", Value: int64(len(p.Fields))})
	}
}

func isNumber(d DType) bool { return (d >= INT8 && d <= FLOAT64) || d == BOOLEAN }

// addTensor adds a document tensor viewing f's bytes and returns its index.
// VOID data is listed without a loader: it has a shape but no elements.
func (b *docBuilder) addTensor(name string, node int, f *Tensor, role formats.Role) int {
	dt, exact := f.DType.TensorDType()
	e := &formats.TensorEntry{
		Name:   name,
		DType:  dt,
		Shape:  append([]int{}, f.Shape...),
		Offset: b.fileOff(f.Offset),
		NBytes: int64(len(f.Data)),
		Role:   role,
		Attrs: []formats.Attr{
			{Name: "node", Value: int64(node)},
			{Name: "tsm dtype", Value: f.DType.String()},
		},
	}
	if b.pl.embedded {
		// Offset points into the .csta, where these bytes are XORed.
		// The viewer reads the decrypted copy.
		e.Attrs = append(e.Attrs, formats.Attr{Name: "obfuscated", Value: true})
	}
	if f.DType.IsText() && f.Elements() <= maxInlineText {
		e.Attrs = append(e.Attrs, formats.Attr{Name: "text", Value: text(f)})
	}
	if !exact && dt.Valid() {
		e.Note = fmt.Sprintf("stored as TenniS %s; shown as %s elements of the same width", f.DType, dt)
	}
	if !dt.Valid() {
		e.Offset = -1
		e.Note = "TenniS VOID tensor: it has a shape but no data"
		b.doc.Tensors = append(b.doc.Tensors, e)
		return len(b.doc.Tensors) - 1
	}
	st, off, shape := b.pl.storage, b.pl.storageBase+f.Offset, e.Shape
	e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return tensor.New(st, off, dt, shape)
	})
	b.doc.Tensors = append(b.doc.Tensors, e)
	return len(b.doc.Tensors) - 1
}

// opTable counts nodes per operator, most frequent first.
func (b *docBuilder) opTable() {
	t := formats.Table{Title: "Operators", Columns: []string{"op", "nodes"}}
	for _, c := range b.doc.Graph.OpCounts() {
		t.Rows = append(t.Rows, []string{c.Op, strconv.Itoa(c.Nodes)})
	}
	b.doc.Tables = append(b.doc.Tables, t)
}
