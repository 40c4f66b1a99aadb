package formats

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
)

// MarshalJSON writes the document in the shape `tensorscope info --json`
// promises: {"path","size","format","version","header","metadata",
// "tensors","graph","warnings"} (plus "tables" and "plots" when present).
func (d *Document) MarshalJSON() ([]byte, error) {
	type headerJSON struct {
		Name    string `json:"name"`
		Offset  int64  `json:"offset"`
		Size    int    `json:"size"`
		Value   any    `json:"value"`
		Meaning string `json:"meaning"`
	}
	type quantJSON struct {
		Scales     []any   `json:"scales"`
		ZeroPoints []int64 `json:"zero_points"`
		Axis       int     `json:"axis"`
	}
	type tensorJSON struct {
		Name    string     `json:"name"`
		DType   string     `json:"dtype"`
		Shape   []int      `json:"shape"`
		Offset  *int64     `json:"offset"`
		NBytes  int64      `json:"nbytes"`
		Role    Role       `json:"role"`
		HasData bool       `json:"has_data"`
		Quant   *quantJSON `json:"quant,omitempty"`
		Attrs   attrList   `json:"attrs,omitempty"`
		Note    string     `json:"note,omitempty"`
	}
	out := struct {
		Path     string       `json:"path"`
		Size     int64        `json:"size"`
		Format   string       `json:"format"`
		Version  string       `json:"version"`
		Header   []headerJSON `json:"header"`
		Metadata *Meta        `json:"metadata"`
		Tensors  []tensorJSON `json:"tensors"`
		Graph    *Graph       `json:"graph"`
		Warnings []string     `json:"warnings"`
		Tables   []Table      `json:"tables,omitempty"`
		Plots    []Plot       `json:"plots,omitempty"`
	}{
		Path: d.Path, Size: d.Size, Format: d.Format, Version: d.Version,
		Header: []headerJSON{}, Metadata: d.Metadata, Tensors: []tensorJSON{},
		Graph: d.Graph, Warnings: []string{}, Tables: d.Tables, Plots: d.Plots,
	}
	if out.Metadata == nil {
		out.Metadata = NewObject("")
	}
	for _, h := range d.Header {
		out.Header = append(out.Header, headerJSON{h.Name, h.Offset, h.Size, jsonValue(h.Value), h.Meaning})
	}
	for _, t := range d.Tensors {
		tj := tensorJSON{Name: t.Name, DType: t.TypeString(), Shape: nonNilInts(t.Shape),
			NBytes: t.NBytes, Role: t.Role, HasData: t.HasData(), Attrs: t.Attrs, Note: t.Note}
		if t.Offset >= 0 {
			off := t.Offset
			tj.Offset = &off
		}
		if q := t.Quant; q != nil {
			qj := &quantJSON{ZeroPoints: q.ZeroPoints, Axis: q.Axis}
			for _, s := range q.Scales {
				qj.Scales = append(qj.Scales, jsonValue(s))
			}
			tj.Quant = qj
		}
		out.Tensors = append(out.Tensors, tj)
	}
	for _, w := range d.Warnings {
		out.Warnings = append(out.Warnings, w.String())
	}
	return json.Marshal(out)
}

// MarshalJSON writes an object, a list, or a leaf value.
func (m *Meta) MarshalJSON() ([]byte, error) {
	if m.IsLeaf() {
		return json.Marshal(jsonValue(m.Value))
	}
	var b bytes.Buffer
	if m.List {
		b.WriteByte('[')
		for i, c := range m.Children {
			if i > 0 {
				b.WriteByte(',')
			}
			cj, err := c.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(cj)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	}
	b.WriteByte('{')
	for i, c := range m.Children {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonKey(c.Name))
		b.WriteByte(':')
		cj, err := c.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(cj)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON writes {"nodes","values","inputs","outputs"}; node inputs and
// outputs are indices into "values".
func (g *Graph) MarshalJSON() ([]byte, error) {
	type nodeJSON struct {
		ID       int      `json:"id"`
		Name     string   `json:"name"`
		Op       string   `json:"op"`
		Kind     string   `json:"kind"`
		Inputs   []int    `json:"inputs"`
		Outputs  []int    `json:"outputs"`
		Attrs    attrList `json:"attrs"`
		Reserved attrList `json:"reserved,omitempty"`
	}
	type valueJSON struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		DType    string `json:"dtype,omitempty"`
		Shape    []int  `json:"shape"`
		Producer *int   `json:"producer"`
		Tensor   *int   `json:"tensor"`
	}
	out := struct {
		Nodes   []nodeJSON  `json:"nodes"`
		Values  []valueJSON `json:"values"`
		Inputs  []int       `json:"inputs"`
		Outputs []int       `json:"outputs"`
	}{Nodes: []nodeJSON{}, Values: []valueJSON{}, Inputs: nonNilInts(g.Inputs), Outputs: nonNilInts(g.Outputs)}
	for _, n := range g.Nodes {
		out.Nodes = append(out.Nodes, nodeJSON{n.ID, n.Name, n.Op, n.Kind.String(),
			nonNilInts(n.Inputs), nonNilInts(n.Outputs), attrList(n.Attrs), attrList(n.Reserved)})
	}
	for i, v := range g.Values {
		vj := valueJSON{ID: i, Name: v.Name, Shape: v.Shape}
		if v.DType.Valid() {
			vj.DType = v.DType.String()
		}
		if v.Producer >= 0 {
			p := v.Producer
			vj.Producer = &p
		}
		if v.Tensor >= 0 {
			t := v.Tensor
			vj.Tensor = &t
		}
		out.Values = append(out.Values, vj)
	}
	return json.Marshal(out)
}

func (k NodeKind) String() string {
	switch k {
	case KindConst:
		return "const"
	case KindInput:
		return "input"
	}
	return "op"
}

// attrList marshals as an object keeping attribute order.
type attrList []Attr

func (l attrList) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, a := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonKey(a.Name))
		b.WriteByte(':')
		v, err := json.Marshal(jsonValue(a.Value))
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonValue maps attribute values onto what JSON can carry: enums by name,
// bytes as hex, non-finite floats as the strings "NaN", "+Inf", "-Inf".
func jsonValue(v any) any {
	switch x := v.(type) {
	case Enum:
		return x.String()
	case Bytes:
		return hex.EncodeToString(x)
	case []byte:
		return hex.EncodeToString(x)
	case float32:
		return jsonFloat(float64(x))
	case float64:
		return jsonFloat(x)
	case []float64:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = jsonFloat(f)
		}
		return out
	case []float32:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = jsonFloat(float64(f))
		}
		return out
	}
	return v
}

func jsonFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return f
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// jsonKey quotes an object key as JSON. strconv.Quote is not JSON: it
// writes \x.. for invalid UTF-8 and \a, \v, \U........ escapes, which
// real files' parameter names can trigger. json.Marshal of a string cannot fail.
func jsonKey(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
