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

	// Narrow floats, one byte each, spelled as ml_dtypes spells them.
	Float8E4M3FN   // OCP E4M3: no infinities, S.1111.111 is NaN
	Float8E4M3FNUZ // E4M3 with bias 8: no infinities, no −0, 0x80 is NaN
	Float8E5M2     // IEEE-like E5M2 with infinities and NaNs
	Float8E5M2FNUZ // E5M2 with bias 16: no infinities, no −0, 0x80 is NaN
	Float8E8M0FNU  // exponent only (MX scales): 2^(e−127), 0xFF is NaN

	// NumPy's datetime64 and timedelta64: int64 counts of a unit the
	// format records (an Attr), with NaT (the minimum int64) counted as NaN.
	Datetime64
	Timedelta64

	// Packed types: several elements share a byte (sub-byte types) or a
	// block of bytes with its scales (ggml's block-quantised types). Their
	// unit is UnitElems elements stored in UnitBytes bytes; Size is 0.
	// Sub-byte elements fill each byte from the least significant bits up.
	Int4         // two's complement, two per byte
	Uint4        // two per byte
	Int2         // four per byte
	Uint2        // four per byte
	Float4E2M1FN // OCP FP4: two per byte, no infinities or NaN
	Float6E2M3FN // OCP FP6: four per three bytes, no infinities or NaN
	Float6E3M2FN // OCP FP6: four per three bytes, no infinities or NaN
	GGMLQ4_0     // ggml block types, in ggml_type order; names are ggml's, lowercase
	GGMLQ4_1     //
	GGMLQ5_0     //
	GGMLQ5_1     //
	GGMLQ8_0     //
	GGMLQ8_1     //
	GGMLQ2_K     //
	GGMLQ3_K     //
	GGMLQ4_K     //
	GGMLQ5_K     //
	GGMLQ6_K     //
	GGMLQ8_K     //
	GGMLIQ2_XXS  //
	GGMLIQ2_XS   //
	GGMLIQ3_XXS  //
	GGMLIQ1_S    //
	GGMLIQ4_NL   //
	GGMLIQ3_S    //
	GGMLIQ2_S    //
	GGMLIQ4_XS   //
	GGMLIQ1_M    //
	GGMLTQ1_0    //
	GGMLTQ2_0    //
	GGMLMXFP4    //
	numDTypes
)

// dtypeInfo describes each dtype. unitElems is 0 for byte-addressable types
// (one element of size bytes); packed types store unitElems elements in
// unitBytes bytes.
var dtypeInfo = [numDTypes]struct {
	name      string
	size      int
	unitElems int
	unitBytes int
}{
	Invalid:    {"invalid", 0, 0, 0},
	Bool:       {"bool", 1, 0, 0},
	Int8:       {"int8", 1, 0, 0},
	Uint8:      {"uint8", 1, 0, 0},
	Int16:      {"int16", 2, 0, 0},
	Uint16:     {"uint16", 2, 0, 0},
	Int32:      {"int32", 4, 0, 0},
	Uint32:     {"uint32", 4, 0, 0},
	Int64:      {"int64", 8, 0, 0},
	Uint64:     {"uint64", 8, 0, 0},
	Float16:    {"float16", 2, 0, 0},
	BFloat16:   {"bfloat16", 2, 0, 0},
	Float32:    {"float32", 4, 0, 0},
	Float64:    {"float64", 8, 0, 0},
	Complex64:  {"complex64", 8, 0, 0},
	Complex128: {"complex128", 16, 0, 0},
	Void8:      {"void8", 1, 0, 0},
	Void16:     {"void16", 2, 0, 0},
	Void32:     {"void32", 4, 0, 0},
	Void64:     {"void64", 8, 0, 0},
	Void128:    {"void128", 16, 0, 0},

	Float8E4M3FN:   {"float8_e4m3fn", 1, 0, 0},
	Float8E4M3FNUZ: {"float8_e4m3fnuz", 1, 0, 0},
	Float8E5M2:     {"float8_e5m2", 1, 0, 0},
	Float8E5M2FNUZ: {"float8_e5m2fnuz", 1, 0, 0},
	Float8E8M0FNU:  {"float8_e8m0fnu", 1, 0, 0},
	Datetime64:     {"datetime64", 8, 0, 0},
	Timedelta64:    {"timedelta64", 8, 0, 0},

	Int4:         {"int4", 0, 2, 1},
	Uint4:        {"uint4", 0, 2, 1},
	Int2:         {"int2", 0, 4, 1},
	Uint2:        {"uint2", 0, 4, 1},
	Float4E2M1FN: {"float4_e2m1fn", 0, 2, 1},
	Float6E2M3FN: {"float6_e2m3fn", 0, 4, 3},
	Float6E3M2FN: {"float6_e3m2fn", 0, 4, 3},
	// Block sizes from ggml-common.h: QK4_0 = QK8_0 = 32, QK_K = 256.
	GGMLQ4_0:    {"q4_0", 0, 32, 18},
	GGMLQ4_1:    {"q4_1", 0, 32, 20},
	GGMLQ5_0:    {"q5_0", 0, 32, 22},
	GGMLQ5_1:    {"q5_1", 0, 32, 24},
	GGMLQ8_0:    {"q8_0", 0, 32, 34},
	GGMLQ8_1:    {"q8_1", 0, 32, 36},
	GGMLQ2_K:    {"q2_k", 0, 256, 84},
	GGMLQ3_K:    {"q3_k", 0, 256, 110},
	GGMLQ4_K:    {"q4_k", 0, 256, 144},
	GGMLQ5_K:    {"q5_k", 0, 256, 176},
	GGMLQ6_K:    {"q6_k", 0, 256, 210},
	GGMLQ8_K:    {"q8_k", 0, 256, 292},
	GGMLIQ2_XXS: {"iq2_xxs", 0, 256, 66},
	GGMLIQ2_XS:  {"iq2_xs", 0, 256, 74},
	GGMLIQ3_XXS: {"iq3_xxs", 0, 256, 98},
	GGMLIQ1_S:   {"iq1_s", 0, 256, 50},
	GGMLIQ4_NL:  {"iq4_nl", 0, 32, 18},
	GGMLIQ3_S:   {"iq3_s", 0, 256, 110},
	GGMLIQ2_S:   {"iq2_s", 0, 256, 82},
	GGMLIQ4_XS:  {"iq4_xs", 0, 256, 136},
	GGMLIQ1_M:   {"iq1_m", 0, 256, 56},
	GGMLTQ1_0:   {"tq1_0", 0, 256, 54},
	GGMLTQ2_0:   {"tq2_0", 0, 256, 66},
	GGMLMXFP4:   {"mxfp4", 0, 32, 17},
}

// UnitElems is how many elements one storage unit holds: 1 for
// byte-addressable types, 2 for int4, 256 for q4_k.
func (d DType) UnitElems() int {
	if d >= numDTypes {
		return 0
	}
	if dtypeInfo[d].unitElems == 0 {
		return 1
	}
	return dtypeInfo[d].unitElems
}

// UnitBytes is the size in bytes of one storage unit (Size for
// byte-addressable types).
func (d DType) UnitBytes() int {
	if d >= numDTypes {
		return 0
	}
	if dtypeInfo[d].unitElems == 0 {
		return dtypeInfo[d].size
	}
	return dtypeInfo[d].unitBytes
}

// Packed reports whether elements of d are not individually byte-addressable
// (sub-byte and block-quantised types).
func (d DType) Packed() bool { return d < numDTypes && dtypeInfo[d].unitElems > 0 }

// BlockQuantized reports whether d is one of ggml's block types, whose units
// carry their own scales.
func (d DType) BlockQuantized() bool { return d >= GGMLQ4_0 && d <= GGMLMXFP4 }

// StorageBytes is the number of bytes n elements of d occupy: sub-byte
// elements are packed densely and the count rounded up to whole bytes (5
// int4 take 3 bytes, 5 float6 take 4), other packed types take whole units.
// It fails for a block type when n is not a whole number of blocks, and on
// overflow.
func StorageBytes(d DType, n int64) (int64, error) {
	ue, ub := int64(d.UnitElems()), int64(d.UnitBytes())
	if ue == 0 || ub == 0 {
		return 0, fmt.Errorf("dtype %s has no storage size", d)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative element count %d", n)
	}
	if d.BlockQuantized() && n%ue != 0 {
		return 0, fmt.Errorf("%d elements of %s are not a whole number of %d-element blocks", n, d, ue)
	}
	units := n / ue
	if units > (1<<62)/ub {
		return 0, fmt.Errorf("%d elements of %s overflow", n, d)
	}
	// The rest of a partial unit: its bits, rounded up to bytes.
	rest := (n%ue*8*ub/ue + 7) / 8
	return units*ub + rest, nil
}

// ElementBits is the number of bits one element of d takes in storage: 8·Size
// for byte-addressable types, 4 for int4, 6 for float6, and the average
// (4.5 for q4_0, rounded down) for block types.
func (d DType) ElementBits() int {
	if d.UnitElems() == 0 {
		return 0
	}
	return 8 * d.UnitBytes() / d.UnitElems()
}

// Size is the element size in bytes; 0 for Invalid and for packed types
// (see UnitElems and UnitBytes).
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

// IsFloat reports whether d is a real floating-point type, narrow ones
// (float8, float6, float4) included.
func (d DType) IsFloat() bool {
	switch d {
	case Float16, BFloat16, Float32, Float64,
		Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU,
		Float4E2M1FN, Float6E2M3FN, Float6E3M2FN:
		return true
	}
	return false
}

// IsInteger reports whether d is a signed or unsigned integer type (not
// bool), the packed int4/uint4/int2/uint2 included.
func (d DType) IsInteger() bool {
	return (d >= Int8 && d <= Uint64) || (d >= Int4 && d <= Uint2)
}

// IsTime reports whether d is datetime64 or timedelta64: int64 counts whose
// minimum value is NaT.
func (d DType) IsTime() bool { return d == Datetime64 || d == Timedelta64 }

// IsComplex reports whether d is complex64 or complex128.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// IsVoid reports whether d is an opaque fixed-size type.
func (d DType) IsVoid() bool { return d >= Void8 && d <= Void128 }

// Numeric reports whether elements of d have one real value each, so that
// statistics, histograms and heatmaps apply (bool counts as 0/1, NaT as
// NaN). A packed type is numeric once a decoder for its units is
// registered (ggml's block types register theirs in ggml*.go).
func (d DType) Numeric() bool {
	switch {
	case d >= Bool && d <= Float64, d >= Float8E4M3FN && d <= Timedelta64:
		return true
	case d.Packed():
		return unitDecoders[d] != nil
	}
	return false
}

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
