package formats

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// MarshalJSON writes the document in the shape `tensorscope info --json`
// promises: {"path","size","format","version","header","metadata",
// "tensors","graph","warnings"} (plus "tables" and "plots" when present).
func (d *Document) MarshalJSON() ([]byte, error) {
	out := &jsonOut{}
	err := d.writeJSON(out)
	return out.b, err
}

// WriteJSON writes what MarshalJSON returns to w, in pieces: a
// vocabulary's megabytes of metadata and 30,000 tensors never sit in
// memory as one buffer.
func (d *Document) WriteJSON(w io.Writer) error {
	out := &jsonOut{w: w, b: make([]byte, 0, 2*jsonFlushAt)}
	if err := d.writeJSON(out); err != nil {
		return err
	}
	return out.flush()
}

func (d *Document) writeJSON(out *jsonOut) error {
	type headerJSON struct {
		Name    string `json:"name"`
		Offset  int64  `json:"offset"`
		Size    int    `json:"size"`
		Value   any    `json:"value"`
		Meaning string `json:"meaning"`
	}
	type otherJSON struct { // after the graph
		Warnings []string `json:"warnings"`
		Tables   []Table  `json:"tables,omitempty"`
		Plots    []Plot   `json:"plots,omitempty"`
	}
	head := struct {
		Path    string       `json:"path"`
		Size    int64        `json:"size"`
		Format  string       `json:"format"`
		Version string       `json:"version"`
		Header  []headerJSON `json:"header"`
	}{
		Path: d.Path, Size: d.Size, Format: d.Format, Version: d.Version,
		Header: []headerJSON{},
	}
	meta := d.Metadata
	if meta == nil {
		meta = NewObject("")
	}
	for _, h := range d.Header {
		head.Header = append(head.Header, headerJSON{h.Name, h.Offset, h.Size, jsonValue(h.Value), h.Meaning})
	}
	rest := otherJSON{Warnings: []string{}, Tables: d.Tables, Plots: d.Plots}
	for _, w := range d.Warnings {
		rest.Warnings = append(rest.Warnings, w.String())
	}
	// The object is written in parts, so that the metadata (a tokenizer's
	// megabytes of arrays) and the tensors (30,000 of them in a large
	// checkpoint) are appended as written, without reflection and without
	// encoding/json validating and copying them again: the bytes are those
	// json.Marshal of the whole struct would write.
	b, err := json.Marshal(head)
	if err != nil {
		return err
	}
	out.b = append(out.b, b[:len(b)-1]...)
	out.b = append(out.b, `,"metadata":`...)
	if err := meta.appendJSON(out); err != nil {
		return err
	}
	out.b = append(out.b, `,"tensors":[`...)
	var attrs []Attr // one tensor's, reused (see AttrSource)
	for i, t := range d.Tensors {
		if i > 0 {
			out.b = append(out.b, ',')
		}
		if out.b, attrs, err = appendTensorJSON(out.b, t, attrs[:0]); err != nil {
			return err
		}
		if err := out.mark(); err != nil {
			return err
		}
	}
	out.b = append(out.b, `],"graph":`...)
	if d.Graph == nil {
		out.b = append(out.b, "null"...)
	} else if out.b, err = d.Graph.appendJSON(out.b); err != nil {
		return err
	}
	if err := out.mark(); err != nil {
		return err
	}
	r, err := json.Marshal(rest)
	if err != nil {
		return err
	}
	out.b = append(out.b, ',')
	out.b = append(out.b, r[1:]...)
	return out.err
}

// jsonFlushAt is how much JSON a jsonOut gathers before it writes.
const jsonFlushAt = 64 << 10

// jsonOut gathers JSON in b; with a writer it hands b over whenever a
// piece ends past jsonFlushAt, so the output never has to fit in memory.
// Without one (MarshalJSON) b grows to hold everything.
type jsonOut struct {
	b   []byte
	w   io.Writer
	err error
}

// mark ends a piece: the buffer may be written now.
func (o *jsonOut) mark() error {
	if o.w != nil && len(o.b) >= jsonFlushAt {
		return o.flush()
	}
	return o.err
}

func (o *jsonOut) flush() error {
	if o.err == nil && len(o.b) > 0 {
		_, o.err = o.w.Write(o.b)
		o.b = o.b[:0]
	}
	return o.err
}

// appendTensorJSON appends one tensor as json.Marshal writes tensorJSON:
// {"name","dtype","shape","offset","nbytes","role","has_data", then
// "quant", "attrs" and "note" when present}.
// attrs is a buffer for the tensor's attributes, returned for the next.
func appendTensorJSON(b []byte, t *TensorEntry, attrs []Attr) ([]byte, []Attr, error) {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, t.Name)
	b = append(b, `,"dtype":`...)
	b = appendJSONString(b, t.TypeString())
	b = append(b, `,"shape":[`...)
	for i, d := range t.Shape {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	b = append(b, `],"offset":`...)
	if t.Offset >= 0 {
		b = strconv.AppendInt(b, t.Offset, 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"nbytes":`...)
	b = strconv.AppendInt(b, t.NBytes, 10)
	b = append(b, `,"role":`...)
	b = appendJSONString(b, string(t.Role))
	b = append(b, `,"has_data":`...)
	b = strconv.AppendBool(b, t.HasData())
	if q := t.Quant; q != nil {
		type quantJSON struct {
			Scales     []any   `json:"scales"`
			ZeroPoints []int64 `json:"zero_points"`
			Axis       int     `json:"axis"`
			Target     string  `json:"quantised_to,omitempty"`
		}
		qj := &quantJSON{ZeroPoints: q.ZeroPoints, Axis: q.Axis}
		if q.Target.Valid() {
			qj.Target = q.Target.String()
		}
		for _, s := range q.Scales {
			qj.Scales = append(qj.Scales, jsonValue(s))
		}
		v, err := json.Marshal(qj)
		if err != nil {
			return nil, nil, err
		}
		b = append(append(b, `,"quant":`...), v...)
	}
	list := t.Attrs // as they are, unless a source adds to them
	if t.more != nil {
		attrs = t.AppendAttributes(attrs[:0])
		list = attrs
	}
	if len(list) > 0 {
		var err error
		if b, err = attrList(list).appendJSON(append(b, `,"attrs":`...)); err != nil {
			return nil, nil, err
		}
	}
	if t.Note != "" {
		b = appendJSONString(append(b, `,"note":`...), t.Note)
	}
	return append(b, '}'), attrs, nil
}

// MarshalJSON writes an object, a list, or a leaf value.
func (m *Meta) MarshalJSON() ([]byte, error) {
	out := &jsonOut{}
	err := m.appendJSON(out)
	return out.b, err
}

// appendJSON writes the node into out, marking the end of each child so
// that a writer can take the pieces as they come.
func (m *Meta) appendJSON(out *jsonOut) error {
	if m.Lazy != nil {
		return appendLazyList(out, m.Lazy)
	}
	if m.IsLeaf() {
		var err error
		out.b, err = appendJSONValue(out.b, m.Value)
		return err
	}
	open, close := byte('{'), byte('}')
	if m.List {
		open, close = '[', ']'
	}
	out.b = append(out.b, open)
	for i, c := range m.Children {
		if i > 0 {
			out.b = append(out.b, ',')
		}
		if !m.List {
			out.b = append(appendJSONString(out.b, c.Name), ':')
		}
		if err := c.appendJSON(out); err != nil {
			return err
		}
		if err := out.mark(); err != nil {
			return err
		}
	}
	out.b = append(out.b, close)
	return nil
}

// MarshalJSON writes {"nodes","values","inputs","outputs"}; node inputs and
// outputs are indices into values.
func (g *Graph) MarshalJSON() ([]byte, error) { return g.appendJSON(nil) }

// appendJSON appends the graph as json.Marshal would write it from
// {"nodes":[{"id","name","op","kind","inputs","outputs","attrs",
// "reserved" (when any),"scope"}],"values":[{"id","name","dtype" (when
// known),"shape","producer","tensor"}],"inputs","outputs"}, without
// reflection: a graph of 5,000 operators was a sixth of `info --json`.
func (g *Graph) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"nodes":[`...)
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(n.ID), 10)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, n.Name)
		b = append(b, `,"op":`...)
		b = appendJSONString(b, n.Op)
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, n.Kind.String())
		b = append(b, `,"inputs":`...)
		b = appendIntList(b, n.Inputs)
		b = append(b, `,"outputs":`...)
		b = appendIntList(b, n.Outputs)
		b = append(b, `,"attrs":`...)
		if b, err = attrList(n.Attrs).appendJSON(b); err != nil {
			return nil, err
		}
		if len(n.Reserved) > 0 {
			b = append(b, `,"reserved":`...)
			if b, err = attrList(n.Reserved).appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, `,"scope":[`...)
		for j, sc := range n.Meaning.Scope {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, sc)
		}
		b = append(b, "]}"...)
	}
	b = append(b, `],"values":[`...)
	for i := range g.Values {
		v := &g.Values[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, v.Name)
		if v.DType.Valid() {
			b = append(b, `,"dtype":`...)
			b = appendJSONString(b, v.DType.String())
		}
		b = append(b, `,"shape":`...)
		if v.Shape == nil {
			b = append(b, "null"...)
		} else {
			b = appendIntList(b, v.Shape)
		}
		b = append(b, `,"producer":`...)
		b = appendIndexOrNull(b, v.Producer)
		b = append(b, `,"tensor":`...)
		b = appendIndexOrNull(b, v.Tensor)
		b = append(b, '}')
	}
	b = append(b, `],"inputs":`...)
	b = appendIntList(b, g.Inputs)
	b = append(b, `,"outputs":`...)
	b = appendIntList(b, g.Outputs)
	return append(b, '}'), nil
}

// appendIntList appends a list of ints ("[]" for nil).
func appendIntList(b []byte, s []int) []byte {
	b = append(b, '[')
	for i, n := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// appendIndexOrNull appends i, or null when it is negative (none).
func appendIndexOrNull(b []byte, i int) []byte {
	if i < 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(i), 10)
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

// attrList is written as an object keeping attribute order.
type attrList []Attr

func (l attrList) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, a := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, a.Name)
		b = append(b, ':')
		switch v := a.Value.(type) {
		case string: // the common cases, without reflection
			b = appendJSONString(b, v)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		default:
			j, err := json.Marshal(jsonValue(a.Value))
			if err != nil {
				return nil, err
			}
			b = append(b, j...)
		}
	}
	return append(b, '}'), nil
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

// appendLazyList writes every entry of a lazy list as a JSON array. It
// appends the entries itself: a vocabulary of 150,000 tokens goes through
// here, and encoding/json's reflection per entry costs more than the rest
// of `info --json` together. Lists of strings are read as the file's bytes
// (Raw), without a string per entry.
func appendLazyList(out *jsonOut, l *LazyList) error {
	out.b = append(out.b, '[')
	for i := 0; i < l.Len; i++ {
		if i > 0 {
			out.b = append(out.b, ',')
		}
		if l.Raw != nil {
			out.b = appendJSONBytes(out.b, l.Raw(i))
		} else {
			var err error
			if out.b, err = appendJSONValue(out.b, l.At(i)); err != nil {
				return err
			}
		}
		if i%1024 == 1023 {
			if err := out.mark(); err != nil {
				return err
			}
		}
	}
	out.b = append(out.b, ']')
	return nil
}

// appendJSONBytes appends b as a JSON string, as appendJSONString does,
// without converting it to a string first: the string view lives only
// while it is read here.
func appendJSONBytes(dst, b []byte) []byte {
	if len(b) == 0 {
		return append(dst, `""`...)
	}
	return appendJSONString(dst, unsafe.String(&b[0], len(b)))
}

// appendJSONValue appends v as JSON: the scalar kinds of metadata values
// directly, nested arrays ([]any) recursively, anything else through
// jsonValue and encoding/json.
func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return appendJSONString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int8:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint64:
		return strconv.AppendUint(b, x, 10), nil
	case float32:
		return appendJSONFloat(b, float64(x)), nil
	case float64:
		return appendJSONFloat(b, x), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	j, err := json.Marshal(jsonValue(v))
	return append(b, j...), err
}

// appendJSONFloat writes f as encoding/json does (non-finite values as the
// strings jsonFloat gives them).
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendJSONString(b, jsonFloat(f).(string))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSONString appends s quoted exactly as json.Marshal quotes it:
// control characters, quotes and backslashes escaped, and, as json.Marshal
// does by default, the HTML characters <, > and & and the line separators
// U+2028 and U+2029; invalid UTF-8 becomes U+FFFD. Plain runs are copied
// whole, so a 150,000-token vocabulary is written without a call per byte.
// jsonPlain marks the bytes appendJSONString copies as they are: ASCII
// but for control characters, the quote, the backslash and <, >, &
// (escaped as encoding/json escapes them).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
