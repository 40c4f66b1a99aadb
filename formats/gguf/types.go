package gguf

import (
	"fmt"

	"tensorscope/tensor"
)

// ggmlType is a ggml_type number's name and the tensor core's dtype.
type ggmlType struct {
	name  string
	dtype tensor.DType
}

// ggmlTypes maps ggml_type numbers (ggml.h; stable in GGUF files) to the
// tensor core's dtypes. Numbers ggml removed (4, 5, 31–33, 36–38) have no
// name. An array, so that no initialiser builds it at every start.
var ggmlTypes = [...]ggmlType{
	0: {"F32", tensor.Float32}, 1: {"F16", tensor.Float16},
	2: {"Q4_0", tensor.GGMLQ4_0}, 3: {"Q4_1", tensor.GGMLQ4_1},
	6: {"Q5_0", tensor.GGMLQ5_0}, 7: {"Q5_1", tensor.GGMLQ5_1},
	8: {"Q8_0", tensor.GGMLQ8_0}, 9: {"Q8_1", tensor.GGMLQ8_1},
	10: {"Q2_K", tensor.GGMLQ2_K}, 11: {"Q3_K", tensor.GGMLQ3_K},
	12: {"Q4_K", tensor.GGMLQ4_K}, 13: {"Q5_K", tensor.GGMLQ5_K},
	14: {"Q6_K", tensor.GGMLQ6_K}, 15: {"Q8_K", tensor.GGMLQ8_K},
	16: {"IQ2_XXS", tensor.GGMLIQ2_XXS}, 17: {"IQ2_XS", tensor.GGMLIQ2_XS},
	18: {"IQ3_XXS", tensor.GGMLIQ3_XXS}, 19: {"IQ1_S", tensor.GGMLIQ1_S},
	20: {"IQ4_NL", tensor.GGMLIQ4_NL}, 21: {"IQ3_S", tensor.GGMLIQ3_S},
	22: {"IQ2_S", tensor.GGMLIQ2_S}, 23: {"IQ4_XS", tensor.GGMLIQ4_XS},
	24: {"I8", tensor.Int8}, 25: {"I16", tensor.Int16},
	26: {"I32", tensor.Int32}, 27: {"I64", tensor.Int64},
	28: {"F64", tensor.Float64}, 29: {"IQ1_M", tensor.GGMLIQ1_M},
	30: {"BF16", tensor.BFloat16},
	34: {"TQ1_0", tensor.GGMLTQ1_0}, 35: {"TQ2_0", tensor.GGMLTQ2_0},
	39: {"MXFP4", tensor.GGMLMXFP4},
}

// removedTypes names the ggml_type numbers that ggml once wrote and dropped,
// so that the error about such a file says what it is.
var removedTypes = [...]string{
	4: "Q4_2", 5: "Q4_3", 31: "Q4_0_4_4", 32: "Q4_0_4_8", 33: "Q4_0_8_8",
	36: "IQ4_NL_4_4", 37: "IQ4_NL_4_8", 38: "IQ4_NL_8_8",
}

// lookupGGMLType returns type number t, ok false for numbers ggml does
// not define (now).
func lookupGGMLType(t uint32) (ggmlType, bool) {
	if t < uint32(len(ggmlTypes)) && ggmlTypes[t].name != "" {
		return ggmlTypes[t], true
	}
	return ggmlType{}, false
}

// GGMLTypeName returns ggml's name of type number t ("Q4_K").
func GGMLTypeName(t uint32) string {
	if g, ok := lookupGGMLType(t); ok {
		return g.name
	}
	if t < uint32(len(removedTypes)) && removedTypes[t] != "" {
		return removedTypes[t] + " (removed from ggml)"
	}
	return fmt.Sprintf("type %d", t)
}

// GGUF metadata value types (gguf_type).
const (
	typeUint8   = 0
	typeInt8    = 1
	typeUint16  = 2
	typeInt16   = 3
	typeUint32  = 4
	typeInt32   = 5
	typeFloat32 = 6
	typeBool    = 7
	typeString  = 8
	typeArray   = 9
	typeUint64  = 10
	typeInt64   = 11
	typeFloat64 = 12
)

var valueTypeNames = [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32",
	"float32", "bool", "string", "array", "uint64", "int64", "float64"}

// fixedSize is the size of a value of a fixed-size type, 0 for string and array.
func fixedSize(t uint32) int64 {
	switch t {
	case typeUint8, typeInt8, typeBool:
		return 1
	case typeUint16, typeInt16:
		return 2
	case typeUint32, typeInt32, typeFloat32:
		return 4
	case typeUint64, typeInt64, typeFloat64:
		return 8
	}
	return 0
}

// minSize is the fewest bytes a value of type t occupies.
func minSize(t uint32) int64 {
	switch t {
	case typeString:
		return 8
	case typeArray:
		return 12
	}
	return fixedSize(t)
}

func typeName(t uint32) string {
	if t < uint32(len(valueTypeNames)) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("type %d", t)
}
