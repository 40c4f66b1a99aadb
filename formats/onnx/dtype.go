package onnx

import (
	"fmt"

	"tensorscope/tensor"
)

// TensorProto.DataType values, as onnx.proto numbers them.
const (
	dtUndefined = 0
	dtFloat     = 1
	dtUint8     = 2
	dtInt8      = 3
	dtUint16    = 4
	dtInt16     = 5
	dtInt32     = 6
	dtInt64     = 7
	dtString    = 8
	dtBool      = 9
	dtFloat16   = 10
	dtDouble    = 11
	dtUint32    = 12
	dtUint64    = 13
	dtComplex64 = 14
	dtComplex28 = 15
	dtBFloat16  = 16
	dtF8E4M3FN  = 17
	dtF8E4M3FNZ = 18
	dtF8E5M2    = 19
	dtF8E5M2FNZ = 20
	dtUint4     = 21
	dtInt4      = 22
	dtFloat4    = 23
	dtF8E8M0    = 24
	dtUint2     = 25
	dtInt2      = 26
)

// dataTypes maps an ONNX data type to its name in onnx.proto and the
// tensor core's element type (Invalid for STRING, which has none).
var dataTypes = map[int64]struct {
	name  string
	dtype tensor.DType
}{
	dtFloat:     {"FLOAT", tensor.Float32},
	dtUint8:     {"UINT8", tensor.Uint8},
	dtInt8:      {"INT8", tensor.Int8},
	dtUint16:    {"UINT16", tensor.Uint16},
	dtInt16:     {"INT16", tensor.Int16},
	dtInt32:     {"INT32", tensor.Int32},
	dtInt64:     {"INT64", tensor.Int64},
	dtString:    {"STRING", tensor.Invalid},
	dtBool:      {"BOOL", tensor.Bool},
	dtFloat16:   {"FLOAT16", tensor.Float16},
	dtDouble:    {"DOUBLE", tensor.Float64},
	dtUint32:    {"UINT32", tensor.Uint32},
	dtUint64:    {"UINT64", tensor.Uint64},
	dtComplex64: {"COMPLEX64", tensor.Complex64},
	dtComplex28: {"COMPLEX128", tensor.Complex128},
	dtBFloat16:  {"BFLOAT16", tensor.BFloat16},
	dtF8E4M3FN:  {"FLOAT8E4M3FN", tensor.Float8E4M3FN},
	dtF8E4M3FNZ: {"FLOAT8E4M3FNUZ", tensor.Float8E4M3FNUZ},
	dtF8E5M2:    {"FLOAT8E5M2", tensor.Float8E5M2},
	dtF8E5M2FNZ: {"FLOAT8E5M2FNUZ", tensor.Float8E5M2FNUZ},
	dtUint4:     {"UINT4", tensor.Uint4},
	dtInt4:      {"INT4", tensor.Int4},
	dtFloat4:    {"FLOAT4E2M1", tensor.Float4E2M1FN},
	dtF8E8M0:    {"FLOAT8E8M0", tensor.Float8E8M0FNU},
	dtUint2:     {"UINT2", tensor.Uint2},
	dtInt2:      {"INT2", tensor.Int2},
}

// dataTypeName spells an ONNX data type as onnx.proto does, or "type N".
func dataTypeName(t int64) string {
	if d, ok := dataTypes[t]; ok {
		return d.name
	}
	if t == dtUndefined {
		return "UNDEFINED"
	}
	return fmt.Sprintf("data type %d", t)
}

// dtypeOf is the tensor core's element type for an ONNX data type.
func dtypeOf(t int64) tensor.DType { return dataTypes[t].dtype }

// typedWidth is how many bytes one entry of a typed *_data field becomes
// when written as the element's little-endian storage: int32_data holds
// int8…int32, 16-bit floats and float8 bit patterns, and whole bytes of
// packed sub-byte types.
func typedWidth(dt tensor.DType) int {
	if dt.Packed() {
		return 1
	}
	return dt.Size()
}

// typedField is the TensorProto field that holds values of t when raw_data
// is not used, and how many field values one element takes (2 for complex).
func typedField(t int64) (num int, perElem int) {
	switch t {
	case dtFloat:
		return fieldFloatData, 1
	case dtComplex64:
		return fieldFloatData, 2
	case dtDouble:
		return fieldDoubleData, 1
	case dtComplex28:
		return fieldDoubleData, 2
	case dtInt64:
		return fieldInt64Data, 1
	case dtUint32, dtUint64:
		return fieldUint64Data, 1
	case dtString:
		return fieldStringData, 1
	}
	return fieldInt32Data, 1
}
