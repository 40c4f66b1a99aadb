package tensor

import (
	"errors"
	"fmt"
	"math"
)

// Tensor is a strided view of elements in a Storage: element i0,i1,... lives
// at byte offset + (Σ ik·strides[k])·dtype.Size(). Strides are in elements.
// A Tensor is immutable; view operations return new Tensors sharing storage.
//
// Elements of packed dtypes (int4, q4_k, ...) are addressed by element
// number e = phase + Σ ik·strides[k], counted from the unit at byte offset:
// element e is position e mod UnitElems of unit e div UnitElems. A view may
// so start inside a unit (a slice of a q4_k row from column 100).
type Tensor struct {
	storage *Storage
	dtype   DType
	shape   []int
	strides []int    // of a composite axis, its innermost component's
	merged  [][]span // nil, or per axis its components when composite (see composite.go)
	offset  int      // bytes into storage: of element 0, or for packed dtypes of the unit holding it
	phase   int      // packed dtypes: element 0's position in its unit, in [0, UnitElems)

	bigEndian bool  // multi-byte elements are stored most significant byte first
	magnitude DType // Complex64 or Complex128 when the elements are |z| of complex numbers
}

// MaxElements bounds the element count of any tensor, so that a corrupt
// header claiming 2^60 elements is an error rather than an overflow.
const MaxElements = 1 << 48

// ErrShape reports a shape that is negative or too large.
var ErrShape = errors.New("invalid shape")

// NumElements is the product of shape; it fails on negative dims or on a
// product above MaxElements.
func NumElements(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("%w: negative dimension %d in %v", ErrShape, d, shape)
		}
		if d != 0 && n > MaxElements/d {
			return 0, fmt.Errorf("%w: %v has more than 2^48 elements", ErrShape, shape)
		}
		n *= d
	}
	return n, nil
}

// RowMajorStrides returns the contiguous row-major strides of shape.
func RowMajorStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= shape[i]
	}
	return st
}

// New returns a contiguous row-major tensor of dt and shape whose first
// element is at byteOffset in s. It fails when the data would not fit in s.
func New(s *Storage, byteOffset int64, dt DType, shape []int) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("tensor: invalid dtype %d", uint8(dt))
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	need, err := StorageBytes(dt, int64(n))
	if err != nil {
		return nil, fmt.Errorf("tensor: %s%v: %w", dt, shape, err)
	}
	if byteOffset < 0 || byteOffset > int64(s.Len()) || need > int64(s.Len())-byteOffset {
		return nil, fmt.Errorf("tensor: %s%v at byte %d needs %d bytes but storage has %d",
			dt, shape, byteOffset, need, s.Len())
	}
	if byteOffset > math.MaxInt {
		return nil, fmt.Errorf("tensor: offset %d out of range", byteOffset)
	}
	return &Tensor{
		storage: s,
		dtype:   dt,
		shape:   append([]int(nil), shape...),
		strides: RowMajorStrides(shape),
		offset:  int(byteOffset),
	}, nil
}

// NewStrided returns a view of dt elements with explicit strides (in
// elements, none negative) whose element 0 is at byteOffset in s — for
// column-major or padded layouts. It fails unless every element lies
// within s.
func NewStrided(s *Storage, byteOffset int64, dt DType, shape, strides []int) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("tensor: invalid dtype %d", uint8(dt))
	}
	if len(strides) != len(shape) {
		return nil, fmt.Errorf("tensor: %d strides for shape %v", len(strides), shape)
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	for _, st := range strides {
		if st < 0 {
			return nil, fmt.Errorf("tensor: negative stride %d in %v", st, strides)
		}
	}
	if byteOffset < 0 || byteOffset > int64(s.Len()) {
		return nil, fmt.Errorf("tensor: offset %d outside storage of %d bytes", byteOffset, s.Len())
	}
	room := elementsFitting(dt, int64(s.Len())-byteOffset)
	if n > 0 {
		last := int64(0) // index of the furthest element
		for i, st := range strides {
			if st > 0 && int64(shape[i]-1) > (room-last)/int64(st) {
				return nil, fmt.Errorf("tensor: %s%v with strides %v at byte %d exceeds storage of %d bytes",
					dt, shape, strides, byteOffset, s.Len())
			}
			last += int64(shape[i]-1) * int64(st)
		}
		if last >= room {
			return nil, fmt.Errorf("tensor: %s%v with strides %v at byte %d exceeds storage of %d bytes",
				dt, shape, strides, byteOffset, s.Len())
		}
	}
	return &Tensor{
		storage: s,
		dtype:   dt,
		shape:   append([]int(nil), shape...),
		strides: append([]int(nil), strides...),
		offset:  int(byteOffset),
	}, nil
}

// elementsFitting is how many elements of dt lie wholly within the first
// bytes bytes of a run: whole elements, whole bits of sub-byte elements
// (those are packed densely, so a run may end inside a unit), whole blocks.
func elementsFitting(dt DType, bytes int64) int64 {
	ue, ub := int64(dt.UnitElems()), int64(dt.UnitBytes())
	whole := bytes / ub * ue
	if dt.Packed() && !dt.BlockQuantized() {
		bits := 8 * ub / ue
		whole += bytes % ub * 8 / bits
	}
	return whole
}

// FromBytes is New over a fresh heap Storage holding b.
func FromBytes(b []byte, dt DType, shape []int) (*Tensor, error) {
	return New(NewStorage(b), 0, dt, shape)
}

// DType is the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Rank is the number of dimensions (0 for a scalar).
func (t *Tensor) Rank() int { return len(t.shape) }

// Shape returns a copy of the dimensions.
func (t *Tensor) Shape() []int { return append([]int(nil), t.shape...) }

// Strides returns a copy of the strides, in elements. A composite axis
// (see DimMerge) has no single stride: it reports its innermost one, and
// PhysicalLayout gives the whole addressing.
func (t *Tensor) Strides() []int { return append([]int(nil), t.strides...) }

// Offset is the byte offset of element 0 in the storage; for packed
// dtypes, of the unit that holds element 0 (see UnitPhase).
func (t *Tensor) Offset() int { return t.offset }

// UnitPhase is, for packed dtypes, the position of element 0 inside the
// unit at Offset (0 for a tensor that starts on a unit boundary, and
// always 0 for other dtypes).
func (t *Tensor) UnitPhase() int { return t.phase }

// addrSize is what one step of a stride moves in the addresses the kernels
// walk: the element size in bytes, the size of the complex number under a
// magnitude, and 1 for packed dtypes, whose addresses are element numbers.
func (t *Tensor) addrSize() int {
	switch {
	case t.magnitude != Invalid:
		return t.magnitude.Size()
	case t.dtype.Packed():
		return 1
	}
	return t.dtype.Size()
}

// base is the address of element 0 in the same terms: its byte offset, or
// for packed dtypes its element number from the unit at offset.
func (t *Tensor) base() int {
	if t.dtype.Packed() {
		return t.phase
	}
	return t.offset
}

// Storage is the storage the tensor views.
func (t *Tensor) Storage() *Storage { return t.storage }

// Len is the number of elements.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// String is a short description such as "float32[128,784]".
func (t *Tensor) String() string { return FormatShape(t.dtype, t.shape) }

// FormatShape spells dtype and shape as "float32[128,784]" ("int32[]" for a scalar).
func FormatShape(dt DType, shape []int) string {
	b := []byte(dt.String())
	b = append(b, '[')
	for i, d := range shape {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ']'))
}
