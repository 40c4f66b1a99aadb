package onnx

import (
	"encoding/binary"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// TensorProto field numbers.
const (
	fieldDims         = 1
	fieldDataType     = 2
	fieldSegment      = 3
	fieldFloatData    = 4
	fieldInt32Data    = 5
	fieldStringData   = 6
	fieldInt64Data    = 7
	fieldTensorName   = 8
	fieldRawData      = 9
	fieldDoubleData   = 10
	fieldUint64Data   = 11
	fieldTensorDoc    = 12
	fieldExternalData = 13
	fieldDataLocation = 14
)

// maxRank bounds the dims a tensor may have before it is listed without
// data: real models stay under 10, and the core's views walk every axis.
const maxRank = 64

// tensorProto is what the codec keeps of a TensorProto: its place, name,
// type and shape, and where its values are. The values themselves are
// read by the entry's loader.
type tensorProto struct {
	m        msg // the whole TensorProto message
	name     string
	dataType int64
	dims     []int
	rawAt    int64 // file offset of raw_data's bytes; -1 when absent
	rawLen   int64
	typed    int // values found in the typed *_data fields
	typedNum int // which typed field holds them (0 when none)
	external []keyValue
	location int64 // data_location: 0 DEFAULT, 1 EXTERNAL
	segment  bool
	docAt    int64
}

type keyValue struct {
	key, value string
	at         int64
}

func parseTensorProto(m msg) (*tensorProto, error) {
	tp := &tensorProto{m: m, rawAt: -1}
	err := m.each("TensorProto", func(f field) error {
		switch f.num {
		case fieldDims:
			if tp.dims == nil && f.typ == protowire.BytesType {
				tp.dims = m.mem.takeDims(m.countPacked(f, protowire.VarintType))
			}
			return m.packedOrSingle(f, "TensorProto.dims", protowire.VarintType, func(v uint64) {
				tp.dims = append(tp.dims, dimInt(v))
			})
		case fieldDataType:
			if err := wantType(f, "TensorProto.data_type", protowire.VarintType); err != nil {
				return err
			}
			tp.dataType = int64(int32(f.varint))
		case fieldSegment:
			tp.segment = true
		case fieldTensorName:
			if err := wantType(f, "TensorProto.name", protowire.BytesType); err != nil {
				return err
			}
			tp.name = m.str(f)
		case fieldRawData:
			if err := wantType(f, "TensorProto.raw_data", protowire.BytesType); err != nil {
				return err
			}
			tp.rawAt, tp.rawLen = f.valAt, f.end-f.valAt
		case fieldFloatData:
			return tp.countTyped(m, f, protowire.Fixed32Type)
		case fieldDoubleData:
			return tp.countTyped(m, f, protowire.Fixed64Type)
		case fieldInt32Data, fieldInt64Data, fieldUint64Data:
			return tp.countTyped(m, f, protowire.VarintType)
		case fieldStringData:
			if err := wantType(f, "TensorProto.string_data", protowire.BytesType); err != nil {
				return err
			}
			tp.typedNum = fieldStringData
			tp.typed++
		case fieldExternalData:
			if err := wantType(f, "TensorProto.external_data", protowire.BytesType); err != nil {
				return err
			}
			kv, err := parseKeyValue(m.sub(f), "TensorProto.external_data")
			if err != nil {
				return err
			}
			tp.external = append(tp.external, kv)
		case fieldDataLocation:
			tp.location = int64(int32(f.varint))
		case fieldTensorDoc:
			tp.docAt = f.at
		}
		return nil
	})
	return tp, err
}

// dimInt turns a stored int64 dim into an int; negative dims (invalid in a
// TensorProto) stay negative so that the shape check reports them.
func dimInt(v uint64) int {
	d := int64(v)
	if d > tensor.MaxElements {
		return tensor.MaxElements + 1
	}
	if d < -1 {
		return -1
	}
	return int(d)
}

func (tp *tensorProto) countTyped(m msg, f field, elem protowire.Type) error {
	if tp.typedNum != 0 && tp.typedNum != int(f.num) {
		return formats.Errorf(f.at, "TensorProto %q stores values in both field %d and field %d", tp.name, tp.typedNum, f.num)
	}
	if f.typ != elem && f.typ != protowire.BytesType {
		return formats.Errorf(f.at, "TensorProto.%s: wire type %s, expected %s or packed", typedFieldName(int(f.num)), typeName(f.typ), typeName(elem))
	}
	tp.typedNum = int(f.num)
	tp.typed += m.countPacked(f, elem)
	return nil
}

func typedFieldName(num int) string {
	switch num {
	case fieldFloatData:
		return "float_data"
	case fieldInt32Data:
		return "int32_data"
	case fieldStringData:
		return "string_data"
	case fieldInt64Data:
		return "int64_data"
	case fieldDoubleData:
		return "double_data"
	case fieldUint64Data:
		return "uint64_data"
	}
	return fmt.Sprintf("field %d", num)
}

// parseKeyValue reads a StringStringEntryProto (key = 1, value = 2).
func parseKeyValue(m msg, what string) (keyValue, error) {
	kv := keyValue{at: m.start}
	err := m.each(what, func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			kv.key = m.str(f)
		case 2:
			kv.value = m.str(f)
		}
		return nil
	})
	return kv, err
}

// elements is the element count the dims imply.
func (tp *tensorProto) elements() (int, error) { return tensor.NumElements(tp.dims) }

// storedValues checks the typed fields against the dims and returns the
// bytes they decode to, in the element's little-endian storage layout.
// It runs in the loader, never at open.
func (tp *tensorProto) typedBytes(dt tensor.DType, n int) ([]byte, error) {
	num, per := typedField(tp.dataType)
	want := int64(n) * int64(per)
	if dt.Packed() {
		units, err := tensor.StorageBytes(dt, int64(n))
		if err != nil {
			return nil, err
		}
		want = units
	}
	if tp.typedNum != num {
		return nil, fmt.Errorf("%s values belong in %s, but the tensor stores them in %s",
			dataTypeName(tp.dataType), typedFieldName(num), typedFieldName(tp.typedNum))
	}
	if int64(tp.typed) != want {
		return nil, fmt.Errorf("%s holds %d values, the dims %v imply %d", typedFieldName(num), tp.typed, tp.dims, want)
	}
	width := typedWidth(dt)
	if per == 2 {
		width /= 2
	}
	out := make([]byte, 0, want*int64(width))
	m := tp.m
	var elem protowire.Type
	switch num {
	case fieldFloatData:
		elem = protowire.Fixed32Type
	case fieldDoubleData:
		elem = protowire.Fixed64Type
	default:
		elem = protowire.VarintType
	}
	err := m.each("TensorProto", func(f field) error {
		if int(f.num) != num {
			return nil
		}
		return m.packedOrSingle(f, "TensorProto."+typedFieldName(num), elem, func(v uint64) {
			out = appendLE(out, v, width)
		})
	})
	return out, err
}

func appendLE(b []byte, v uint64, width int) []byte {
	switch width {
	case 1:
		return append(b, byte(v))
	case 2:
		return binary.LittleEndian.AppendUint16(b, uint16(v))
	case 4:
		return binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(b, v)
}
