package tmfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"tensorscope/formats"
)

// Attrs decodes the operator's param struct into named attributes with the
// table generated from op-params.tsv. Only the fields that fit in the stored
// struct are decoded (older writers store shorter generations of a struct);
// bytes beyond the newest layout are kept as an "extra" attribute, and a
// param of an operator the table does not know is shown as raw bytes.
func (op *Operator) Attrs() []formats.Attr {
	info := lookupOp(op.Type)
	if info == nil || len(info.Fields) == 0 {
		if len(op.Param) == 0 {
			return nil
		}
		return []formats.Attr{{Name: "param", Value: formats.Bytes(op.Param)}}
	}
	attrs := make([]formats.Attr, 0, len(info.Fields)+1)
	for i := range info.Fields {
		f := &info.Fields[i]
		if f.At+f.Type.size() > len(op.Param) {
			break
		}
		attrs = append(attrs, formats.Attr{Name: f.Name, Value: op.fieldValue(f)})
	}
	if len(op.Param) > info.Size {
		attrs = append(attrs, formats.Attr{Name: "extra", Value: formats.Bytes(op.Param[info.Size:])})
	}
	return attrs
}

func (op *Operator) fieldValue(f *paramField) any {
	b := op.Param[f.At:]
	switch f.Type {
	case fieldU8:
		switch b[0] {
		case 0:
			return false
		case 1:
			return true
		}
		return int64(b[0])
	case fieldF32:
		return shortFloat(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case fieldOffset:
		ref := op.ref(f.At)
		if ref == nil {
			return nil
		}
		return ref.value()
	}
	var v int64
	if f.Type == fieldU32 {
		v = int64(binary.LittleEndian.Uint32(b))
	} else {
		v = int64(int32(binary.LittleEndian.Uint32(b)))
	}
	if f.enum != nil {
		return f.enum.enum(v)
	}
	return v
}

func (op *Operator) ref(at int) *ParamRef {
	for i := range op.Refs {
		if op.Refs[i].At == at {
			return &op.Refs[i]
		}
	}
	return nil
}

func (r *ParamRef) value() any {
	switch r.Kind {
	case RefDims:
		out := make([]int64, len(r.Ints))
		for i, v := range r.Ints {
			out[i] = int64(v)
		}
		return out
	case RefFloats, RefAnchors:
		out := make([]float64, len(r.Floats))
		for i, v := range r.Floats {
			out[i] = shortFloat(v)
		}
		return out
	case RefString:
		return r.Str
	}
	return nil
}

// shortFloat widens f to the float64 with the shortest decimal spelling
// that still rounds back to f, so a stored 7.96f shows as 7.96 rather than
// 7.960000038146973. Narrowing it back to float32 gives f exactly.
func shortFloat(f float32) float64 {
	d := float64(f)
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return d
	}
	s := strconv.FormatFloat(d, 'g', -1, 32)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return d
	}
	return v
}

// NewOperator builds the operator named name (as OpName spells it) with its
// newest param layout, setting the fields attrs name; fields not named are 0.
// Values may be Go integers, floats, bools, formats.Enum, strings, or
// slices of integers or floats for vector fields.
func NewOperator(name string, attrs ...formats.Attr) (Operator, error) {
	id, ok := OpID(name)
	if !ok {
		return Operator{}, fmt.Errorf("tmfile: no operator named %q", name)
	}
	info := &opTable[id]
	op := Operator{Version: 1, Type: id}
	if info.Struct == "" {
		if len(attrs) > 0 {
			return Operator{}, fmt.Errorf("tmfile: %s takes no params, got %q", name, attrs[0].Name)
		}
		return op, nil
	}
	op.Param = make([]byte, info.Size)
	for _, a := range attrs {
		f := info.field(a.Name)
		if f == nil {
			return Operator{}, fmt.Errorf("tmfile: %s has no param %q", name, a.Name)
		}
		if err := op.setField(f, a.Value); err != nil {
			return Operator{}, fmt.Errorf("tmfile: %s.%s: %w", name, a.Name, err)
		}
	}
	return op, nil
}

func (info *opInfo) field(name string) *paramField {
	for i := range info.Fields {
		if info.Fields[i].Name == name {
			return &info.Fields[i]
		}
	}
	return nil
}

func (op *Operator) setField(f *paramField, v any) error {
	b := op.Param[f.At:]
	switch f.Type {
	case fieldOffset:
		ref := ParamRef{At: f.At, Kind: f.Ref}
		var err error
		switch f.Ref {
		case RefString:
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("want a string, got %T", v)
			}
			ref.Str = s
		case RefDims:
			ref.Ints, err = toInt32s(v)
		default:
			ref.Floats, err = toFloat32s(v)
			if err == nil && f.Ref == RefAnchors && len(ref.Floats)%4 != 0 {
				err = fmt.Errorf("anchors need 4 floats each, got %d floats", len(ref.Floats))
			}
		}
		if err != nil {
			return err
		}
		if v == nil {
			return nil
		}
		op.Refs = append(op.Refs, ref)
		return nil
	case fieldF32:
		x, ok := toFloat(v)
		if !ok {
			return fmt.Errorf("want a number, got %T", v)
		}
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(x)))
		return nil
	}
	x, ok := toInt(v)
	if !ok {
		return fmt.Errorf("want an integer, got %T", v)
	}
	switch f.Type {
	case fieldU8:
		if x < 0 || x > math.MaxUint8 {
			return fmt.Errorf("%d does not fit in a byte", x)
		}
		b[0] = byte(x)
	case fieldU32:
		if x < 0 || x > math.MaxUint32 {
			return fmt.Errorf("%d does not fit in uint32", x)
		}
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		if x < math.MinInt32 || x > math.MaxInt32 {
			return fmt.Errorf("%d does not fit in int32", x)
		}
		binary.LittleEndian.PutUint32(b, uint32(int32(x)))
	}
	return nil
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case formats.Enum:
		return x.Value, true
	}
	return 0, false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	i, ok := toInt(v)
	return float64(i), ok
}

func toInt32s(v any) ([]int32, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []int32:
		return append([]int32{}, x...), nil
	case []int:
		out := make([]int32, len(x))
		for i, e := range x {
			if e < math.MinInt32 || e > math.MaxInt32 {
				return nil, fmt.Errorf("%d does not fit in int32", e)
			}
			out[i] = int32(e)
		}
		return out, nil
	case []int64:
		out := make([]int32, len(x))
		for i, e := range x {
			if e < math.MinInt32 || e > math.MaxInt32 {
				return nil, fmt.Errorf("%d does not fit in int32", e)
			}
			out[i] = int32(e)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a slice of integers, got %T", v)
}

func toFloat32s(v any) ([]float32, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []float32:
		return append([]float32{}, x...), nil
	case []float64:
		out := make([]float32, len(x))
		for i, e := range x {
			out[i] = float32(e)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a slice of floats, got %T", v)
}
