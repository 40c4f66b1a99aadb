package npy

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"tensorscope/tensor"
)

// elemType is a NumPy dtype as a descr spells it: a simple type ('<f4',
// '>M8[ns]', '<U5', '|O') or a record of fields.
type elemType struct {
	kind  byte // NumPy kind: b i u f c M m U S V O, or 'r' for a record
	order byte // '<' little-endian, '>' big-endian, '|' not applicable
	size  int  // bytes per element (the record's itemsize for a record)
	unit  string
	descr string       // as written, for simple types
	dtype tensor.DType // the core's type, Invalid when it has none
	// fields of a record, in the order the descr lists them.
	fields []field
}

// field is one member of a record.
type field struct {
	name     string
	offset   int // bytes into the record
	elem     *elemType
	subshape []int // a sub-array field ('<f4', (2, 3)); nil for a scalar
}

// maxItemSize bounds one element, so that sizes multiply without overflow.
const maxItemSize = 1 << 40

// bigEndian reports whether elements are stored most significant byte first.
func (t *elemType) bigEndian() bool { return t.order == '>' && t.size > 1 }

// numeric reports whether the tensor core holds this type's elements as
// numbers (datetime counts included).
func (t *elemType) numeric() bool { return t.dtype != tensor.Invalid }

// name is the type as listed: NumPy's dtype name ("float32",
// "datetime64[ns]", "<U5", "void64" for records).
func (t *elemType) name() string {
	switch {
	case t.kind == 'r':
		return fmt.Sprintf("void%d", 8*t.size)
	case t.kind == 'M' || t.kind == 'm':
		if t.unit == "" {
			return t.dtype.String()
		}
		return fmt.Sprintf("%s[%s]", t.dtype, t.unit)
	case t.dtype != tensor.Invalid:
		return t.dtype.String()
	case t.kind == 'O':
		return "object"
	}
	return t.descr
}

// parseDescr reads the 'descr' value of a header: a type string or a list of
// fields.
func parseDescr(v pyValue, depth int) (*elemType, error) {
	if depth > maxLiteralDepth {
		return nil, fmt.Errorf("descr nested more than %d deep", maxLiteralDepth)
	}
	switch v := v.(type) {
	case string:
		return parseTypeString(v)
	case pyList:
		return parseRecord(v, depth)
	}
	return nil, fmt.Errorf("descr: expected a type string or a list of fields, found %s", describe(v))
}

var kindDTypes = map[string]tensor.DType{
	"b1": tensor.Bool,
	"i1": tensor.Int8, "i2": tensor.Int16, "i4": tensor.Int32, "i8": tensor.Int64,
	"u1": tensor.Uint8, "u2": tensor.Uint16, "u4": tensor.Uint32, "u8": tensor.Uint64,
	"f2": tensor.Float16, "f4": tensor.Float32, "f8": tensor.Float64,
	"c8": tensor.Complex64, "c16": tensor.Complex128,
	"M8": tensor.Datetime64, "m8": tensor.Timedelta64,
}

var datetimeUnits = map[string]bool{
	"Y": true, "M": true, "W": true, "D": true, "h": true, "m": true, "s": true,
	"ms": true, "us": true, "ns": true, "ps": true, "fs": true, "as": true, "generic": true,
}

// parseTypeString reads a simple type: byte order, kind, size and for
// datetimes a unit ("<M8[ns]").
func parseTypeString(s string) (*elemType, error) {
	t := &elemType{descr: s, order: '|'}
	rest := s
	if rest != "" && strings.ContainsRune("<>|=", rune(rest[0])) {
		t.order = rest[0]
		if t.order == '=' {
			t.order = '<' // NumPy writes native order as '<' or '>' itself; '=' is read as the writer's, little-endian in practice
		}
		rest = rest[1:]
	}
	if rest == "" {
		return nil, fmt.Errorf("descr %q: expected a type after the byte order", s)
	}
	if rest == "?" {
		rest = "b1"
	}
	if i := strings.IndexByte(rest, '['); i >= 0 {
		if !strings.HasSuffix(rest, "]") {
			return nil, fmt.Errorf("descr %q: unit not closed with ']'", s)
		}
		t.unit = rest[i+1 : len(rest)-1]
		rest = rest[:i]
		// A multiple of a unit is written "10s"; keep it as spelled.
		base := strings.TrimLeft(t.unit, "0123456789")
		if !datetimeUnits[base] {
			return nil, fmt.Errorf("descr %q: unknown datetime unit %q", s, t.unit)
		}
		if rest == "" {
			return nil, fmt.Errorf("descr %q: expected a type before the unit", s)
		}
	}
	t.kind = rest[0]
	digits := rest[1:]
	size := 0
	if digits != "" {
		n, err := strconv.Atoi(digits)
		if err != nil || n < 0 || n > maxItemSize {
			return nil, fmt.Errorf("descr %q: bad size %q", s, digits)
		}
		size = n
	}
	switch t.kind {
	case 'b', 'i', 'u', 'f', 'c', 'M', 'm':
		dt, ok := kindDTypes[rest]
		if !ok {
			return nil, fmt.Errorf("descr %q: unsupported type %q (expected b1, i1–i8, u1–u8, f2, f4, f8, c8, c16, M8, m8, U, S, V or O)", s, rest)
		}
		if (t.kind == 'M' || t.kind == 'm') && t.unit == "" {
			t.unit = "generic"
		}
		if t.unit != "" && t.kind != 'M' && t.kind != 'm' {
			return nil, fmt.Errorf("descr %q: only datetime64 and timedelta64 take a unit", s)
		}
		t.dtype, t.size = dt, size
	case 'U':
		if size > maxItemSize/4 {
			return nil, fmt.Errorf("descr %q: bad size", s)
		}
		t.size = 4 * size
	case 'S', 'a':
		t.kind, t.size = 'S', size
	case 'V':
		t.size = size
	case 'O':
		if size != 0 && size != 8 && size != 4 {
			return nil, fmt.Errorf("descr %q: object pointers are 4 or 8 bytes", s)
		}
		t.size = 8
	default:
		return nil, fmt.Errorf("descr %q: unknown kind %q", s, t.kind)
	}
	if t.unit != "" && t.kind != 'M' && t.kind != 'm' {
		return nil, fmt.Errorf("descr %q: only datetime64 and timedelta64 take a unit", s)
	}
	return t, nil
}

// parseRecord reads a structured dtype: a list of (name, descr) or
// (name, descr, shape) tuples, packed in order. A name may be a
// (title, name) pair.
func parseRecord(items pyList, depth int) (*elemType, error) {
	t := &elemType{kind: 'r', order: '|'}
	seen := map[string]bool{}
	for i, it := range items {
		tup, ok := it.(pyTuple)
		if !ok || len(tup) < 2 || len(tup) > 3 {
			return nil, fmt.Errorf("descr field %d: expected (name, type) or (name, type, shape), found %s", i, describe(it))
		}
		name, err := fieldName(tup[0])
		if err != nil {
			return nil, fmt.Errorf("descr field %d: %v", i, err)
		}
		if name != "" && seen[name] {
			return nil, fmt.Errorf("descr field %d: name %q appears twice", i, name)
		}
		seen[name] = true
		elem, err := parseDescr(tup[1], depth+1)
		if err != nil {
			return nil, fmt.Errorf("descr field %q: %v", name, err)
		}
		f := field{name: name, offset: t.size, elem: elem}
		count := int64(1)
		if len(tup) == 3 {
			f.subshape, count, err = subShape(tup[2])
			if err != nil {
				return nil, fmt.Errorf("descr field %q: %v", name, err)
			}
		}
		if int64(elem.size) > 0 && count > (maxItemSize-int64(t.size))/int64(elem.size) {
			return nil, fmt.Errorf("descr field %q: record larger than %d bytes", name, int64(maxItemSize))
		}
		t.size += int(count) * elem.size
		t.fields = append(t.fields, f)
	}
	return t, nil
}

func fieldName(v pyValue) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case pyTuple:
		// (title, name): NumPy's titled field.
		if len(v) == 2 {
			if n, ok := v[1].(string); ok {
				return n, nil
			}
		}
	}
	return "", fmt.Errorf("expected a field name, found %s", describe(v))
}

// subShape reads the shape of a sub-array field: an int or a tuple of ints.
func subShape(v pyValue) ([]int, int64, error) {
	var dims pyTuple
	switch v := v.(type) {
	case int64:
		dims = pyTuple{v}
	case pyTuple:
		dims = v
	default:
		return nil, 0, fmt.Errorf("shape: expected an int or a tuple of ints, found %s", describe(v))
	}
	shape, err := intsOf(dims, "shape")
	if err != nil {
		return nil, 0, err
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		return nil, 0, err
	}
	return shape, int64(n), nil
}

// intsOf reads a tuple of non-negative ints (a shape).
func intsOf(items pyTuple, what string) ([]int, error) {
	out := make([]int, len(items))
	for i, it := range items {
		switch n := it.(type) {
		case int64:
			if n < 0 || n > tensor.MaxElements {
				return nil, fmt.Errorf("%s[%d]: expected a size from 0 to 2^48, found %d", what, i, n)
			}
			out[i] = int(n)
		case *big.Int:
			return nil, fmt.Errorf("%s[%d]: %v is too large", what, i, n)
		default:
			return nil, fmt.Errorf("%s[%d]: expected an int, found %s", what, i, describe(it))
		}
	}
	return out, nil
}

// fieldsText lists a record's fields for the tensor list: "x float32,
// y int32[2]".
func (t *elemType) fieldsText() []string {
	out := make([]string, len(t.fields))
	for i, f := range t.fields {
		s := f.name + " " + f.elem.name()
		if f.subshape != nil {
			s += fmt.Sprint(f.subshape)
		}
		out[i] = s
	}
	return out
}
