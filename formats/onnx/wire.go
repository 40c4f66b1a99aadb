package onnx

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
)

// msg is an encoded protobuf message lying at file offsets [start, end) of
// data (the whole mapped file). Messages are read in place: a field's bytes
// are sub-slices of data, so nothing of a 2 GB model is copied.
type msg struct {
	data       []byte
	start, end int64
	mem        *decodeMemory // where names and dims read from it are kept; nil: plain allocations
}

// field is one field of a message as it lies in the file.
type field struct {
	num    protowire.Number
	typ    protowire.Type
	at     int64  // file offset of the tag
	valAt  int64  // file offset of the value (after the tag, and after the length for bytes)
	end    int64  // file offset just past the field
	varint uint64 // VarintType, Fixed32Type, Fixed64Type values
}

// bytes returns a BytesType field's payload without copying.
func (m msg) bytesOf(f field) []byte { return m.data[f.valAt:f.end] }

// sub returns a BytesType field's payload as a nested message.
func (m msg) sub(f field) msg { return msg{data: m.data, start: f.valAt, end: f.end, mem: m.mem} }

// str returns a BytesType field as a string: a copy, since names outlive
// the mapping once the document is closed.
func (m msg) str(f field) string { return m.mem.str(m.data[f.valAt:f.end]) }

// each calls fn for every field of m in file order and stops at the first
// error, naming the offset and what was expected. Groups (unused by ONNX)
// and malformed tags or lengths are errors.
func (m msg) each(what string, fn func(f field) error) error {
	pos := m.start
	for pos < m.end {
		b := m.data[pos:m.end]
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wireError(pos, what, "a field tag", n)
		}
		f := field{num: num, typ: typ, at: pos}
		rest := b[n:]
		var m2 int
		switch typ {
		case protowire.VarintType:
			f.varint, m2 = protowire.ConsumeVarint(rest)
			f.valAt = pos + int64(n)
		case protowire.Fixed32Type:
			var v uint32
			v, m2 = protowire.ConsumeFixed32(rest)
			f.varint = uint64(v)
			f.valAt = pos + int64(n)
		case protowire.Fixed64Type:
			f.varint, m2 = protowire.ConsumeFixed64(rest)
			f.valAt = pos + int64(n)
		case protowire.BytesType:
			length, k := protowire.ConsumeVarint(rest)
			if k < 0 {
				return wireError(pos+int64(n), what, fmt.Sprintf("the length of field %d", num), k)
			}
			left := uint64(m.end - pos - int64(n) - int64(k))
			if length > left {
				return formats.Errorf(pos+int64(n), "%s: field %d says %d bytes, only %d left in the enclosing message (ends at byte %d)",
					what, num, length, left, m.end)
			}
			f.valAt = pos + int64(n) + int64(k)
			m2 = k + int(length)
		default:
			return formats.Errorf(pos, "%s: field %d has wire type %d; ONNX uses varint, fixed32, fixed64 and length-delimited fields only",
				what, num, typ)
		}
		if m2 < 0 {
			return wireError(pos+int64(n), what, fmt.Sprintf("the value of field %d", num), m2)
		}
		f.end = pos + int64(n) + int64(m2)
		if err := fn(f); err != nil {
			return err
		}
		pos = f.end
	}
	return nil
}

func wireError(at int64, what, expected string, code int) error {
	return formats.Errorf(at, "%s: expected %s, found %v", what, expected, protowire.ParseError(code))
}

// wantType checks a field's wire type against what onnx.proto declares.
func wantType(f field, what string, typ protowire.Type) error {
	if f.typ != typ {
		return formats.Errorf(f.at, "%s: field %d has wire type %s, expected %s", what, f.num, typeName(f.typ), typeName(typ))
	}
	return nil
}

func typeName(t protowire.Type) string {
	switch t {
	case protowire.VarintType:
		return "varint"
	case protowire.Fixed32Type:
		return "fixed32"
	case protowire.Fixed64Type:
		return "fixed64"
	case protowire.BytesType:
		return "length-delimited"
	}
	return fmt.Sprintf("%d", t)
}

// packedOrSingle handles a repeated scalar field, which writers may store
// packed (one length-delimited run) or one value per tag: it calls fn for
// each value. elem is the scalar's wire type.
func (m msg) packedOrSingle(f field, what string, elem protowire.Type, fn func(v uint64)) error {
	if f.typ == elem {
		fn(f.varint)
		return nil
	}
	if f.typ != protowire.BytesType {
		return formats.Errorf(f.at, "%s: field %d has wire type %s, expected %s or packed", what, f.num, typeName(f.typ), typeName(elem))
	}
	b := m.bytesOf(f)
	switch elem {
	case protowire.Fixed32Type:
		if len(b)%4 != 0 {
			return formats.Errorf(f.valAt, "%s: packed fixed32 run of %d bytes is not a multiple of 4", what, len(b))
		}
		for i := 0; i < len(b); i += 4 {
			fn(uint64(binary.LittleEndian.Uint32(b[i:])))
		}
	case protowire.Fixed64Type:
		if len(b)%8 != 0 {
			return formats.Errorf(f.valAt, "%s: packed fixed64 run of %d bytes is not a multiple of 8", what, len(b))
		}
		for i := 0; i < len(b); i += 8 {
			fn(binary.LittleEndian.Uint64(b[i:]))
		}
	default:
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return wireError(f.end-int64(len(b)), what, "a packed varint", n)
			}
			fn(v)
			b = b[n:]
		}
	}
	return nil
}

// countPacked returns how many values a repeated scalar field holds.
func (m msg) countPacked(f field, elem protowire.Type) int {
	if f.typ != protowire.BytesType {
		return 1
	}
	b := m.bytesOf(f)
	switch elem {
	case protowire.Fixed32Type:
		return len(b) / 4
	case protowire.Fixed64Type:
		return len(b) / 8
	}
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}

func f32(v uint64) float32 { return math.Float32frombits(uint32(v)) }
