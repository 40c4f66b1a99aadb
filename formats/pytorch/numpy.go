package pytorch

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// NumPy values in a checkpoint (a scalar loss, a step count, an array of
// class names) are data: numpy.dtype, numpy.core.multiarray.scalar and
// _reconstruct are read as their arguments describe, nothing is imported.

// maxNPValues bounds how many elements of an array the metadata shows.
const maxNPValues = 64

func npBuildDType(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) == 0 {
		return nil, u.errf(at, "numpy.dtype without arguments")
	}
	code, ok := args[0].(string)
	if !ok {
		return nil, u.errf(at, "numpy.dtype of a %s, expected a str", typeName(args[0]))
	}
	return &npDType{code: code, order: '|'}, nil
}

// setState reads (version, byteorder, subarray, names, fields, elsize,
// alignment, flags).
func (d *npDType) setState(state any) error {
	its, ok := items(state)
	if ok && len(its) > 1 {
		if s, ok := its[1].(string); ok && len(s) == 1 {
			d.order = s[0]
		}
	}
	return nil
}

// kind and size of the dtype: "f", 8 for "f8"; numpy's type names
// ("float64") are read too.
func (d *npDType) kindSize() (byte, int) {
	c := strings.TrimLeft(d.code, "<>|=")
	switch c {
	case "float64", "double":
		return 'f', 8
	case "float32":
		return 'f', 4
	case "float16":
		return 'f', 2
	case "int64":
		return 'i', 8
	case "int32":
		return 'i', 4
	case "int16":
		return 'i', 2
	case "int8":
		return 'i', 1
	case "uint8":
		return 'u', 1
	case "uint16":
		return 'u', 2
	case "uint32":
		return 'u', 4
	case "uint64":
		return 'u', 8
	case "bool", "?":
		return 'b', 1
	}
	if len(c) < 2 {
		return 0, 0
	}
	n, err := strconv.Atoi(c[1:])
	if err != nil {
		return c[0], 0
	}
	return c[0], n
}

func (d *npDType) String() string {
	k, n := d.kindSize()
	switch k {
	case 'f':
		return "float" + strconv.Itoa(8*n)
	case 'i':
		return "int" + strconv.Itoa(8*n)
	case 'u':
		return "uint" + strconv.Itoa(8*n)
	case 'b':
		return "bool"
	case 'c':
		return "complex" + strconv.Itoa(8*n)
	}
	return d.code
}

func (d *npDType) bigEndian() bool { return d.order == '>' }

// decode reads one element from b (len ≥ size); nil when the kind is
// not a number.
func (d *npDType) decode(b []byte) any {
	k, n := d.kindSize()
	var bo binary.ByteOrder = binary.LittleEndian
	if d.bigEndian() {
		bo = binary.BigEndian
	}
	if len(b) < n {
		return nil
	}
	switch {
	case k == 'f' && n == 8:
		return math.Float64frombits(bo.Uint64(b))
	case k == 'f' && n == 4:
		return float64(math.Float32frombits(bo.Uint32(b)))
	case k == 'f' && n == 2:
		return halfToFloat(bo.Uint16(b))
	case k == 'i' || k == 'u':
		var v uint64
		switch n {
		case 1:
			v = uint64(b[0])
		case 2:
			v = uint64(bo.Uint16(b))
		case 4:
			v = uint64(bo.Uint32(b))
		case 8:
			v = bo.Uint64(b)
		default:
			return nil
		}
		if k == 'i' {
			shift := uint(64 - 8*n)
			return int64(v<<shift) >> shift
		}
		if v > math.MaxInt64 {
			return strconv.FormatUint(v, 10)
		}
		return int64(v)
	case k == 'b':
		return b[0] != 0
	case k == 'c' && (n == 8 || n == 16):
		h := n / 2
		re, _ := (&npDType{code: "f" + strconv.Itoa(h), order: d.order}).decode(b[:h]).(float64)
		im, _ := (&npDType{code: "f" + strconv.Itoa(h), order: d.order}).decode(b[h:]).(float64)
		return &pyComplex{re: re, im: im}
	}
	return nil
}

func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * m * math.Pow(2, -24)
	case 31:
		if m == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

func npBuildScalar(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 2 {
		return nil, u.errf(at, "numpy scalar of %d arguments, expected a dtype and its bytes", len(args))
	}
	d, ok := args[0].(*npDType)
	if !ok {
		return nil, u.errf(at, "numpy scalar of a %s, expected a numpy.dtype", typeName(args[0]))
	}
	var raw []byte
	switch b := args[1].(type) {
	case pyBytes:
		raw = b
	case string:
		raw = []byte(b) // a Python 2 str read as text
	default:
		// An object scalar holds the object itself.
		return args[1], nil
	}
	return &npScalar{dtype: d, raw: raw}, nil
}

// value is the scalar as a Go value (float64, int64, bool, ...), or its
// bytes when the dtype is not a number.
func (s *npScalar) value() any {
	if v := s.dtype.decode(s.raw); v != nil {
		return v
	}
	return pyBytes(s.raw)
}

// npReconstruct is _reconstruct(ndarray, (0,), b'b'): an empty array that
// BUILD then fills.
func npReconstruct(u *unpickler, args []any, _ any, at int) (any, error) {
	return &npArray{}, nil
}

// setState reads (version, shape, dtype, is_fortran, data).
func (a *npArray) setState(state any, u *unpickler, at int) error {
	its, ok := items(state)
	if !ok || len(its) < 5 {
		return u.errf(at, "numpy array state is a %s, expected a 5-tuple", typeName(state))
	}
	shape, ok := intList(its[1])
	if !ok {
		return u.errf(at, "numpy array shape is a %s", typeName(its[1]))
	}
	d, ok := its[2].(*npDType)
	if !ok {
		return u.errf(at, "numpy array dtype is a %s", typeName(its[2]))
	}
	a.shape, a.dtype, a.built = shape, d, true
	a.fortran, _ = its[3].(bool)
	switch b := its[4].(type) {
	case pyBytes:
		a.raw = b
	case string:
		a.raw = []byte(b)
	case *pyList:
		a.objects = b
	}
	return nil
}

// npFromBuffer is numpy's protocol-5 path: (buffer, dtype, shape, order).
func npFromBuffer(u *unpickler, args []any, _ any, at int) (any, error) {
	if len(args) < 3 {
		return nil, u.errf(at, "numpy _frombuffer of %d arguments", len(args))
	}
	raw, ok1 := args[0].(pyBytes)
	d, ok2 := args[1].(*npDType)
	shape, ok3 := intList(args[2])
	if !ok1 || !ok2 || !ok3 {
		return nil, u.errf(at, "numpy _frombuffer of a %s, a %s and a %s", typeName(args[0]), typeName(args[1]), typeName(args[2]))
	}
	a := &npArray{dtype: d, shape: shape, raw: raw, built: true}
	if len(args) > 3 {
		a.fortran = args[3] == "F"
	}
	return a, nil
}

// elements returns the array's first n values in storage order.
func (a *npArray) elements(n int) []any {
	if a.objects != nil {
		return a.objects.items[:min(n, len(a.objects.items))]
	}
	_, size := a.dtype.kindSize()
	if size <= 0 {
		return nil
	}
	var out []any
	for i := 0; i+size <= len(a.raw) && len(out) < n; i += size {
		out = append(out, a.dtype.decode(a.raw[i:i+size]))
	}
	return out
}
