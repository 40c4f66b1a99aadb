package tsm

import (
	"fmt"

	"tensorscope/tensor"
)

// DType is a TenniS element type code as stored in a tensor prototype.
type DType uint8

const (
	VOID       DType = 0
	INT8       DType = 1
	UINT8      DType = 2
	INT16      DType = 3
	UINT16     DType = 4
	INT32      DType = 5
	UINT32     DType = 6
	INT64      DType = 7
	UINT64     DType = 8
	FLOAT16    DType = 9
	FLOAT32    DType = 10
	FLOAT64    DType = 11
	PTR        DType = 12
	CHAR8      DType = 13
	CHAR16     DType = 14
	CHAR32     DType = 15
	UNKNOWN8   DType = 16
	UNKNOWN16  DType = 17
	UNKNOWN32  DType = 18
	UNKNOWN64  DType = 19
	UNKNOWN128 DType = 20
	BOOLEAN    DType = 21
	COMPLEX32  DType = 22
	COMPLEX64  DType = 23
	COMPLEX128 DType = 24
	SINK8Q0    DType = 25
	SINK8Q7    DType = 32
)

// ptrSize is the width PTR tensors are read with. PTR never appears in
// files (it is sizeof(void*) on the writing machine); the public writers
// ran on 64-bit machines.
const ptrSize = 8

var dtypeNames = [...]string{
	"VOID", "INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "UINT64",
	"FLOAT16", "FLOAT32", "FLOAT64", "PTR", "CHAR8", "CHAR16", "CHAR32",
	"UNKNOWN8", "UNKNOWN16", "UNKNOWN32", "UNKNOWN64", "UNKNOWN128",
	"BOOLEAN", "COMPLEX32", "COMPLEX64", "COMPLEX128",
}

// Sizes per NOTES §3: FLOAT64 is 8 bytes (the spec's 6 is a typo).
var dtypeSizes = [...]int{
	0, 1, 1, 2, 2, 4, 4, 8, 8,
	2, 4, 8, ptrSize, 1, 2, 4,
	1, 2, 4, 8, 16,
	1, 4, 8, 16,
}

// Size is the element size in bytes; ok is false for codes TenniS does not
// define, whose data cannot be skipped.
func (d DType) Size() (size int, ok bool) {
	switch {
	case int(d) < len(dtypeSizes):
		return dtypeSizes[d], true
	case d <= SINK8Q7:
		return 1, true
	}
	return 0, false
}

func (d DType) String() string {
	switch {
	case int(d) < len(dtypeNames):
		return dtypeNames[d]
	case d <= SINK8Q7:
		return fmt.Sprintf("SINK8Q%d", d-SINK8Q0)
	}
	return fmt.Sprintf("DTYPE(%d)", uint8(d))
}

// IsText reports whether tensors of d hold characters.
func (d DType) IsText() bool { return d == CHAR8 || d == CHAR16 || d == CHAR32 }

// TensorDType maps d onto the tensor core's element types. exact is false
// when the mapping keeps only the width: characters become unsigned
// integers, and COMPLEX32, PTR and the SINK8 fixed-point types become
// opaque elements. VOID has no elements and maps to tensor.Invalid.
func (d DType) TensorDType() (dt tensor.DType, exact bool) {
	switch d {
	case INT8:
		return tensor.Int8, true
	case UINT8:
		return tensor.Uint8, true
	case INT16:
		return tensor.Int16, true
	case UINT16:
		return tensor.Uint16, true
	case INT32:
		return tensor.Int32, true
	case UINT32:
		return tensor.Uint32, true
	case INT64:
		return tensor.Int64, true
	case UINT64:
		return tensor.Uint64, true
	case FLOAT16:
		return tensor.Float16, true
	case FLOAT32:
		return tensor.Float32, true
	case FLOAT64:
		return tensor.Float64, true
	case BOOLEAN:
		return tensor.Bool, true
	case COMPLEX64:
		return tensor.Complex64, true
	case COMPLEX128:
		return tensor.Complex128, true
	case CHAR8:
		return tensor.Uint8, false
	case CHAR16:
		return tensor.Uint16, false
	case CHAR32:
		return tensor.Uint32, false
	case UNKNOWN8:
		return tensor.Void8, true
	case UNKNOWN16:
		return tensor.Void16, true
	case UNKNOWN32:
		return tensor.Void32, true
	case UNKNOWN64:
		return tensor.Void64, true
	case UNKNOWN128:
		return tensor.Void128, true
	}
	if size, ok := d.Size(); ok && size > 0 {
		v, err := tensor.VoidOfSize(size)
		if err == nil {
			return v, false
		}
	}
	return tensor.Invalid, false
}
