package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// ComplexPart selects a real-valued view of a complex tensor.
type ComplexPart uint8

const (
	RealPart  ComplexPart = iota // Re z, a float view of the stored parts
	ImagPart                     // Im z, likewise
	Magnitude                    // |z|, computed by the kernels as they read
)

func (p ComplexPart) String() string {
	switch p {
	case RealPart:
		return "real"
	case ImagPart:
		return "imag"
	case Magnitude:
		return "magnitude"
	}
	return fmt.Sprintf("ComplexPart(%d)", uint8(p))
}

// ComplexParts are the real views of a complex tensor a viewer offers, in
// menu order: magnitude first, as the statistics default to it.
var ComplexParts = []ComplexPart{Magnitude, RealPart, ImagPart}

// ComplexPartNames are the names ParseComplexPart accepts, in menu order.
var ComplexPartNames = func() []string {
	names := make([]string, len(ComplexParts))
	for i, p := range ComplexParts {
		names[i] = p.String()
	}
	return names
}()

// ParseComplexPart reads a part's name: magnitude, real or imag, as the
// command line's --part gives it.
func ParseComplexPart(name string) (ComplexPart, error) {
	for _, p := range ComplexParts {
		if p.String() == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown complex part %q: want %s", name, strings.Join(ComplexPartNames, ", "))
}

// ComplexPart returns a real view of complex64 or complex128 t with the
// same shape: float32 or float64 respectively. The real and imaginary parts
// are zero-copy strided views of the stored numbers (strides doubled, the
// imaginary part one float further on), so every view, element accessor
// and kernel applies to them as to any float tensor. The magnitude is a
// view whose values the kernels compute from each number as they read it
// (|z| rounded once to the part's type, +Inf when either part is infinite);
// it has no bytes of its own, so ElementBytes and ContiguousBytes refuse it
// and ToFloat32 materialises it.
func (t *Tensor) ComplexPart(p ComplexPart) (*Tensor, error) {
	if !t.dtype.IsComplex() || t.magnitude != Invalid {
		return nil, fmt.Errorf("tensor: %s part of %s: not a complex tensor", p, t)
	}
	part := Float32
	if t.dtype == Complex128 {
		part = Float64
	}
	v := *t
	v.dtype = part
	switch p {
	case RealPart, ImagPart:
		v.strides = make([]int, len(t.strides))
		for i, s := range t.strides {
			v.strides[i] = 2 * s
		}
		v.merged = doubledStrides(t.merged)
		if p == ImagPart {
			v.offset += part.Size()
		}
	case Magnitude:
		v.magnitude = t.dtype
		v.strides = t.Strides()
	default:
		return nil, fmt.Errorf("tensor: unknown %v of %s", p, t)
	}
	v.shape = t.Shape()
	return &v, nil
}

// IsMagnitude reports whether t is the magnitude view of a complex tensor
// (see ComplexPart).
func (t *Tensor) IsMagnitude() bool { return t.magnitude != Invalid }

// magnitude64 writes |z| of complex64 numbers at off, stride bytes apart.
// The float64 sum of squares of two float32s neither overflows nor
// underflows, so no scaling is needed.
func magnitude64(data []byte, off, stride int, bigEndian bool, dst []float32) {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	for i := range dst {
		e := data[off+i*stride:]
		re := float64(math.Float32frombits(order.Uint32(e)))
		im := float64(math.Float32frombits(order.Uint32(e[4:])))
		if math.IsInf(re, 0) || math.IsInf(im, 0) {
			dst[i] = float32(math.Inf(1))
			continue
		}
		dst[i] = float32(math.Sqrt(re*re + im*im))
	}
}

// magnitude128 writes |z| of complex128 numbers (math.Hypot, which avoids
// overflow and keeps +Inf for an infinite part).
func magnitude128(data []byte, off, stride int, bigEndian bool, dst []float64) {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	for i := range dst {
		e := data[off+i*stride:]
		dst[i] = math.Hypot(math.Float64frombits(order.Uint64(e)), math.Float64frombits(order.Uint64(e[8:])))
	}
}
