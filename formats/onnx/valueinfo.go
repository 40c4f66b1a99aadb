package onnx

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// valueType is what a ValueInfoProto or TypeProto says of a value: for
// tensors the element type and the shape, whose unknown dims carry a
// symbolic name ("batch") or none; for other types only a description.
type valueType struct {
	dataType int64
	shape    []int    // nil when the rank is unknown; -1 for unknown dims
	dimNames []string // per dim: the symbolic name, "" for known or anonymous dims; nil when none is named
	text     string   // "float32[batch × 3 × 224 × 224]", "seq(float32[?])", "map(string, int64)"
}

type valueInfo struct {
	name string
	typ  valueType
	at   int64
}

// maxTypeDepth bounds nested TypeProtos (sequences of optionals of maps…).
const maxTypeDepth = 16

func parseValueInfo(m msg) (valueInfo, error) {
	vi := valueInfo{at: m.start}
	err := m.each("ValueInfoProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			vi.name = m.str(f)
		case 2:
			t, err := parseType(m.sub(f), 0)
			if err != nil {
				return err
			}
			vi.typ = t
		}
		return nil
	})
	return vi, err
}

// parseType reads a TypeProto: tensor_type = 1, sequence_type = 4,
// map_type = 5, opaque_type = 7, sparse_tensor_type = 8, optional_type = 9.
func parseType(m msg, depth int) (valueType, error) {
	var t valueType
	if depth >= maxTypeDepth {
		t.text = "…"
		return t, nil
	}
	err := m.each("TypeProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		var err error
		switch f.num {
		case 1, 8:
			t, err = parseTensorType(m.sub(f))
			if f.num == 8 {
				t.text = "sparse " + t.text
			}
		case 4, 9:
			var inner valueType
			inner, err = elemType(m.sub(f), depth)
			t.text = map[protowire.Number]string{4: "seq", 9: "optional"}[f.num] + "(" + inner.text + ")"
		case 5:
			t.text, err = mapType(m.sub(f), depth)
		case 7:
			t.text = "opaque"
		}
		return err
	})
	return t, err
}

// elemType reads Sequence or Optional: elem_type = 1.
func elemType(m msg, depth int) (valueType, error) {
	t := valueType{text: "?"}
	err := m.each("TypeProto element", func(f field) error {
		if f.num == 1 && f.typ == protowire.BytesType {
			var err error
			t, err = parseType(m.sub(f), depth+1)
			return err
		}
		return nil
	})
	return t, err
}

// mapType reads Map: key_type = 1 (a data type), value_type = 2.
func mapType(m msg, depth int) (string, error) {
	key, value := "?", "?"
	err := m.each("TypeProto.Map", func(f field) error {
		switch {
		case f.num == 1 && f.typ == protowire.VarintType:
			key = elemName(int64(f.varint))
		case f.num == 2 && f.typ == protowire.BytesType:
			t, err := parseType(m.sub(f), depth+1)
			value = t.text
			return err
		}
		return nil
	})
	return "map(" + key + ", " + value + ")", err
}

// parseTensorType reads Tensor: elem_type = 1, shape = 2.
func parseTensorType(m msg) (valueType, error) {
	var t valueType
	hasShape := false
	err := m.each("TypeProto.Tensor", func(f field) error {
		switch {
		case f.num == 1 && f.typ == protowire.VarintType:
			t.dataType = int64(int32(f.varint))
		case f.num == 2 && f.typ == protowire.BytesType:
			hasShape = true
			t.shape = []int{}
			return parseShape(m.sub(f), &t)
		}
		return nil
	})
	if !hasShape {
		t.shape = nil
	}
	t.text = elemName(t.dataType) + shapeText(t, hasShape)
	return t, err
}

// parseShape reads TensorShapeProto: dim = 1, each Dimension dim_value = 1
// or dim_param = 2.
func parseShape(m msg, t *valueType) error {
	return m.each("TensorShapeProto", func(f field) error {
		if f.num != 1 || f.typ != protowire.BytesType {
			return nil
		}
		d, name := -1, ""
		dm := m.sub(f)
		err := dm.each("TensorShapeProto.Dimension", func(g field) error {
			switch {
			case g.num == 1 && g.typ == protowire.VarintType:
				if v := int64(g.varint); v >= 0 && v <= tensor.MaxElements {
					d = int(v)
				}
			case g.num == 2 && g.typ == protowire.BytesType:
				name = dm.str(g)
			}
			return nil
		})
		t.shape = append(t.shape, d)
		if name != "" && t.dimNames == nil {
			t.dimNames = make([]string, len(t.shape)-1, len(t.shape))
		}
		if t.dimNames != nil {
			t.dimNames = append(t.dimNames, name)
		}
		return err
	})
}

// elemName is the NumPy name of an ONNX element type, or its ONNX name
// when the tensor core has none (STRING).
func elemName(t int64) string {
	if dt := dtypeOf(t); dt.Valid() {
		return dt.String()
	}
	if t == dtString {
		return "string"
	}
	return strings.ToLower(dataTypeName(t))
}

func shapeText(t valueType, hasShape bool) string {
	if !hasShape {
		return ""
	}
	parts := make([]string, len(t.shape))
	for i, d := range t.shape {
		switch {
		case t.dimNames != nil && t.dimNames[i] != "":
			parts[i] = t.dimNames[i]
		case d < 0:
			parts[i] = "?"
		default:
			parts[i] = strconv.Itoa(d)
		}
	}
	return "[" + strings.Join(parts, " × ") + "]"
}

// apply sets a graph value's dtype and shape from a declared type, keeping
// what is already known when the declaration says less.
func (t valueType) apply(v *formats.Value) {
	if dt := dtypeOf(t.dataType); dt.Valid() {
		v.DType = dt
	}
	if t.shape != nil {
		v.Shape = t.shape
		v.DimNames = t.dimNames
	}
}
