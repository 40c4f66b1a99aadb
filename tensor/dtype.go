package tensor

import "fmt"

// DType is an element type. Names follow NumPy's spelling so that what the
// viewer prints matches what users type in Python.
type DType uint8

const (
	Invalid DType = iota
	Bool
	Int8
	Uint8
	Int16
	Uint16
	Int32
	Uint32
	Int64
	Uint64
	Float16
	BFloat16
	Float32
	Float64
	Complex64
	Complex128
	// Void8 … Void128 are opaque fixed-size elements (NumPy's "V1" … "V16",
	// named by bit width as NumPy names them). They are listed, never plotted.
	Void8
	Void16
	Void32
	Void64
	Void128
	numDTypes
)

var dtypeInfo = [numDTypes]struct {
	name string
	size int
}{
	Invalid:    {"invalid", 0},
	Bool:       {"bool", 1},
	Int8:       {"int8", 1},
	Uint8:      {"uint8", 1},
	Int16:      {"int16", 2},
	Uint16:     {"uint16", 2},
	Int32:      {"int32", 4},
	Uint32:     {"uint32", 4},
	Int64:      {"int64", 8},
	Uint64:     {"uint64", 8},
	Float16:    {"float16", 2},
	BFloat16:   {"bfloat16", 2},
	Float32:    {"float32", 4},
	Float64:    {"float64", 8},
	Complex64:  {"complex64", 8},
	Complex128: {"complex128", 16},
	Void8:      {"void8", 1},
	Void16:     {"void16", 2},
	Void32:     {"void32", 4},
	Void64:     {"void64", 8},
	Void128:    {"void128", 16},
}

// Size is the element size in bytes; 0 for Invalid.
func (d DType) Size() int {
	if d >= numDTypes {
		return 0
	}
	return dtypeInfo[d].size
}

// String returns the NumPy spelling ("float32", "bfloat16", "void64", ...).
func (d DType) String() string {
	if d >= numDTypes {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// Valid reports whether d is a known element type other than Invalid.
func (d DType) Valid() bool { return d > Invalid && d < numDTypes }

// IsFloat reports whether d is a real floating-point type.
func (d DType) IsFloat() bool {
	return d == Float16 || d == BFloat16 || d == Float32 || d == Float64
}

// IsInteger reports whether d is a signed or unsigned integer type (not bool).
func (d DType) IsInteger() bool { return d >= Int8 && d <= Uint64 }

// IsComplex reports whether d is complex64 or complex128.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// IsVoid reports whether d is an opaque fixed-size type.
func (d DType) IsVoid() bool { return d >= Void8 && d <= Void128 }

// Numeric reports whether elements of d have one real value each, so that
// statistics, histograms and heatmaps apply (bool counts as 0/1).
func (d DType) Numeric() bool { return d >= Bool && d <= Float64 }

// ParseDType looks a dtype up by its NumPy name.
func ParseDType(name string) (DType, error) {
	for d := Bool; d < numDTypes; d++ {
		if dtypeInfo[d].name == name {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("unknown dtype %q", name)
}

// VoidOfSize returns the opaque type of n bytes (1, 2, 4, 8 or 16).
func VoidOfSize(n int) (DType, error) {
	switch n {
	case 1:
		return Void8, nil
	case 2:
		return Void16, nil
	case 4:
		return Void32, nil
	case 8:
		return Void64, nil
	case 16:
		return Void128, nil
	}
	return Invalid, fmt.Errorf("no opaque dtype of %d bytes", n)
}
