package tflite

import (
	"encoding/binary"
	"math"
	"strconv"

	"tensorscope/formats"
)

// A table the verifier has accepted, read field by field through the
// schema: builtin options become typed node attributes, and the
// TFLITE_METADATA and CONVERSION_METADATA buffers become metadata trees.

// maxTreeVector bounds the entries a metadata tree lists of one vector.
const maxTreeVector = 256

// maxTreeBytes bounds the bytes and numbers a tree shows of one vector;
// longer byte vectors (an embedded label file) are shown by size.
const maxTreeBytes = 4096

type fbTableAt struct {
	buf  []byte
	pos  uint64
	vt   uint64
	vlen uint64
	t    *fbTable
}

func tableAt(buf []byte, pos uint64, t *fbTable) fbTableAt {
	vt := uint64(int64(pos) - int64(int32(binary.LittleEndian.Uint32(buf[pos:]))))
	return fbTableAt{buf: buf, pos: pos, vt: vt, vlen: uint64(binary.LittleEndian.Uint16(buf[vt:])), t: t}
}

// at is where field f lies, or 0 when the table omits it.
func (ta fbTableAt) at(f *fbField) uint64 {
	return ta.slotAt(f.slot)
}

func (ta fbTableAt) slotAt(slot int) uint64 {
	if uint64(slot)+2 > ta.vlen {
		return 0
	}
	off := uint64(binary.LittleEndian.Uint16(ta.buf[ta.vt+uint64(slot):]))
	if off == 0 {
		return 0
	}
	return ta.pos + off
}

func (ta fbTableAt) deref(at uint64) uint64 {
	return at + uint64(binary.LittleEndian.Uint32(ta.buf[at:]))
}

// scalar reads a scalar of typ at at, as an attribute value.
func scalarAt(buf []byte, at uint64, typ *fbType) any {
	var u uint64
	switch typ.size {
	case 1:
		u = uint64(buf[at])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(buf[at:]))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(buf[at:]))
	case 8:
		u = binary.LittleEndian.Uint64(buf[at:])
	}
	return scalarValue(u, typ)
}

func scalarValue(u uint64, typ *fbType) any {
	var v any
	switch typ.scalar {
	case "bool":
		return u != 0
	case "float", "float32":
		return float64(math.Float32frombits(uint32(u)))
	case "double", "float64":
		return math.Float64frombits(u)
	case "byte", "int8", "short", "int16", "int", "int32", "long", "int64":
		shift := uint(64 - 8*typ.size)
		v = int64(u<<shift) >> shift
	default:
		v = int64(u)
	}
	if typ.enum != nil {
		n := v.(int64)
		return formats.Enum{Value: n, Name: typ.enum.names[n]}
	}
	return v
}

// defaultValue is the value of an omitted scalar field.
func defaultValue(f *fbField) any {
	typ := f.typ
	if f.def == "" {
		return scalarValue(0, typ)
	}
	if typ.enum != nil {
		for v, n := range typ.enum.names {
			if n == f.def {
				return formats.Enum{Value: v, Name: n}
			}
		}
	}
	switch typ.scalar {
	case "bool":
		return f.def == "true"
	case "float", "float32", "double", "float64":
		x, _ := strconv.ParseFloat(f.def, 64)
		return x
	}
	x, _ := strconv.ParseInt(f.def, 0, 64)
	return scalarValue(uint64(x), typ)
}

// attrs lists the table's scalar fields (defaults included), strings and
// vectors of scalars or strings as typed attributes, in schema order.
// Nested tables are left out.
func (ta fbTableAt) attrs() []formats.Attr {
	var out []formats.Attr
	for k := range ta.t.fields {
		f := &ta.t.fields[k]
		if f.deprecated {
			continue
		}
		at := ta.at(f)
		switch f.typ.kind {
		case kScalar:
			if at == 0 {
				out = append(out, formats.Attr{Name: f.name, Value: defaultValue(f)})
			} else {
				out = append(out, formats.Attr{Name: f.name, Value: scalarAt(ta.buf, at, f.typ)})
			}
		case kString:
			if at != 0 {
				out = append(out, formats.Attr{Name: f.name, Value: ta.str(ta.deref(at))})
			}
		case kVector:
			if at != 0 {
				if v := ta.vectorValue(ta.deref(at), f.typ.elem, 1<<16); v != nil {
					out = append(out, formats.Attr{Name: f.name, Value: v})
				}
			}
		}
	}
	return out
}

func (ta fbTableAt) str(at uint64) string {
	n := uint64(binary.LittleEndian.Uint32(ta.buf[at:]))
	return text(ta.buf[at+4 : at+4+n])
}

// vectorValue reads a vector of scalars or strings (at most limit
// entries) as an attribute value; nil for vectors of tables.
func (ta fbTableAt) vectorValue(at uint64, elem *fbType, limit int) any {
	n := int(binary.LittleEndian.Uint32(ta.buf[at:]))
	n = min(n, limit)
	switch {
	case elem.kind == kString:
		out := make([]string, n)
		for j := range out {
			e := at + 4 + 4*uint64(j)
			out[j] = ta.str(ta.deref(e))
		}
		return out
	case elem.kind != kScalar:
		return nil
	case (elem.scalar == "ubyte" || elem.scalar == "uint8") && elem.enum == nil:
		return formats.Bytes(ta.buf[at+4 : at+4+uint64(n)])
	case elem.scalar == "bool":
		out := make([]bool, n)
		for j := range out {
			out[j] = ta.buf[at+4+uint64(j)] != 0
		}
		return out
	case elem.scalar == "float" || elem.scalar == "float32" || elem.scalar == "double" || elem.scalar == "float64":
		out := make([]float64, n)
		for j := range out {
			out[j] = scalarAt(ta.buf, at+4+uint64(j*elem.size), elem).(float64)
		}
		return out
	case elem.enum != nil:
		out := make([]string, n)
		for j := range out {
			out[j] = scalarAt(ta.buf, at+4+uint64(j*elem.size), elem).(formats.Enum).String()
		}
		return out
	}
	out := make([]int64, n)
	for j := range out {
		out[j] = scalarAt(ta.buf, at+4+uint64(j*elem.size), elem).(int64)
	}
	return out
}

// tree decodes the table into a metadata object: every field present, nested
// tables and unions as objects, long vectors cut at maxTreeVector entries.
func (ta fbTableAt) tree(name string, depth int) *formats.Meta {
	obj := formats.NewObject(name)
	if depth > maxDepth {
		return obj
	}
	for k := range ta.t.fields {
		f := &ta.t.fields[k]
		at := ta.at(f)
		if f.deprecated || at == 0 {
			continue
		}
		switch f.typ.kind {
		case kScalar:
			obj.Add(formats.Leaf(f.name, scalarAt(ta.buf, at, f.typ)))
		case kString:
			obj.Add(formats.Leaf(f.name, ta.str(ta.deref(at))))
		case kTable:
			obj.Add(tableAt(ta.buf, ta.deref(at), f.typ.table).tree(f.name, depth+1))
		case kUnion:
			code := 0
			if tat := ta.slotAt(f.slot - 2); tat != 0 {
				code = int(ta.buf[tat])
			}
			if code > 0 && code <= len(f.typ.union.members) {
				sub := tableAt(ta.buf, ta.deref(at), f.typ.union.members[code-1]).tree(f.name, depth+1)
				sub.Children = append([]*formats.Meta{formats.Leaf("type", f.typ.union.names[code-1])}, sub.Children...)
				obj.Add(sub)
			}
		case kVector:
			vec := ta.deref(at)
			n := int(binary.LittleEndian.Uint32(ta.buf[vec:]))
			if f.typ.elem.kind == kTable {
				list := formats.NewList(f.name)
				for j := 0; j < min(n, maxTreeVector); j++ {
					e := vec + 4 + 4*uint64(j)
					list.Add(tableAt(ta.buf, ta.deref(e), f.typ.elem.table).tree(strconv.Itoa(j), depth+1))
				}
				if n > maxTreeVector {
					list.Add(formats.Leaf("…", strconv.Itoa(n-maxTreeVector)+" more"))
				}
				obj.Add(list)
				continue
			}
			var v any
			if _, isBytes := ta.vectorValue(vec, f.typ.elem, 0).(formats.Bytes); isBytes && n > maxTreeBytes {
				v = strconv.Itoa(n) + " bytes at byte " + strconv.FormatUint(vec+4, 10)
			} else {
				v = ta.vectorValue(vec, f.typ.elem, maxTreeBytes)
			}
			obj.Add(formats.Leaf(f.name, v))
		}
	}
	return obj
}
