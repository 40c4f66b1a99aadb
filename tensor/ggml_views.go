package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Views that only a block-quantised tensor has: its per-block scales (and
// minimums) as a tensor of one value per block, the K-quants' sub-block
// scales, and the integer codes before scaling. They answer "where are the
// scales large?" and "which codes does the quantiser use?" with the same
// heatmaps and histograms as any tensor.

// wholeBlocks checks that t is a whole stored block tensor (as a loader
// returns it): row-major, starting at a block, rows of whole blocks.
func wholeBlocks(t *Tensor, op string) (rows int, blocksPerRow int, err error) {
	dt := t.dtype
	if !dt.BlockQuantized() {
		return 0, 0, fmt.Errorf("%s: %s is not a block-quantised type", op, dt)
	}
	if len(t.shape) == 0 || !t.IsContiguous() || t.phase != 0 {
		return 0, 0, fmt.Errorf("%s: needs the whole stored %s tensor, not a view of it", op, dt)
	}
	cols := t.shape[len(t.shape)-1]
	if cols%dt.UnitElems() != 0 {
		return 0, 0, fmt.Errorf("%s: rows of %d elements are not whole %s blocks", op, cols, dt)
	}
	return t.Len() / max(cols, 1), cols / dt.UnitElems(), nil
}

// blockShape is t's shape with the last dimension counted in per-block units.
func blockShape(t *Tensor, perBlock int) []int {
	s := append([]int(nil), t.shape...)
	s[len(s)-1] = s[len(s)-1] / t.dtype.UnitElems() * perBlock
	return s
}

// BlockScales returns the scale of every block of t: shape [..., cols/B].
// Where the block stores its scale as a field (all types but IQ1_M) the
// result is a zero-copy strided view of those fields (float16; float32 for
// Q8_K; the E8M0 exponent for MXFP4, whose value 2^(e−127) is the block's
// scale of E2M1 values); IQ1_M's scale, spread over four nibbles, is
// gathered into float16s.
func BlockScales(t *Tensor) (*Tensor, error) {
	if _, _, err := wholeBlocks(t, "block scales"); err != nil {
		return nil, err
	}
	f := ggmlScaleFields[t.dtype]
	if t.dtype == GGMLIQ1_M {
		return gatherIQ1MScales(t)
	}
	fieldType := Float16
	switch t.dtype {
	case GGMLQ8_K:
		fieldType = Float32
	case GGMLMXFP4:
		fieldType = Float8E8M0FNU
	}
	return fieldView(t, f.scale, fieldType)
}

// BlockMins returns the per-block minimum of the types that store one
// (Q4_1, Q5_1, Q2_K, Q4_K, Q5_K), as a zero-copy float16 view.
func BlockMins(t *Tensor) (*Tensor, error) {
	if _, _, err := wholeBlocks(t, "block minimums"); err != nil {
		return nil, err
	}
	f := ggmlScaleFields[t.dtype]
	if f.min < 0 {
		return nil, fmt.Errorf("block minimums: %s blocks have no minimum", t.dtype)
	}
	return fieldView(t, f.min, Float16)
}

// HasBlockMins reports whether dt's blocks store a minimum.
func HasBlockMins(dt DType) bool {
	f, ok := ggmlScaleFields[dt]
	return ok && f.min >= 0
}

// fieldView is the strided view of the field at byte off of every block.
func fieldView(t *Tensor, off int, dt DType) (*Tensor, error) {
	ub, size := t.dtype.UnitBytes(), dt.Size()
	if ub%size != 0 {
		return nil, fmt.Errorf("tensor: %s blocks of %d bytes do not hold %s fields at a fixed stride", t.dtype, ub, dt)
	}
	shape := blockShape(t, 1)
	strides := make([]int, len(shape))
	acc := ub / size
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= shape[i]
	}
	v, err := NewStrided(t.storage, int64(t.offset+off), dt, shape, strides)
	if err != nil || !t.bigEndian {
		return v, err
	}
	return v.BigEndian()
}

func gatherIQ1MScales(t *Tensor) (*Tensor, error) {
	ub := t.dtype.UnitBytes()
	blocks := t.Len() / t.dtype.UnitElems()
	src := t.storage.Bytes()[t.offset : t.offset+blocks*ub]
	out := make([]byte, 2*blocks)
	for i := 0; i < blocks; i++ {
		binary.LittleEndian.PutUint16(out[2*i:], iq1mScaleBits(src[i*ub:]))
	}
	return FromBytes(out, Float16, blockShape(t, 1))
}

// SubBlockScales returns the K-quants' effective sub-block scales, the
// factor each 16 (Q2_K, Q3_K, Q6_K) or 32 (Q4_K, Q5_K) elements are
// multiplied by: d·scale, as float32, shape [..., cols/16 or cols/32].
// With mins=true it returns the sub-block minimums dmin·m (Q2_K, Q4_K, Q5_K).
func SubBlockScales(t *Tensor, mins bool) (*Tensor, error) {
	if _, _, err := wholeBlocks(t, "sub-block scales"); err != nil {
		return nil, err
	}
	per, ok := map[DType]int{GGMLQ2_K: 16, GGMLQ3_K: 16, GGMLQ4_K: 8, GGMLQ5_K: 8, GGMLQ6_K: 16}[t.dtype]
	if !ok {
		return nil, fmt.Errorf("sub-block scales: %s is not a K-quant with sub-block scales", t.dtype)
	}
	if mins && !HasBlockMins(t.dtype) {
		return nil, fmt.Errorf("sub-block minimums: %s has none", t.dtype)
	}
	if t.bigEndian {
		return nil, fmt.Errorf("sub-block scales: big-endian %s is not supported", t.dtype)
	}
	ub := t.dtype.UnitBytes()
	blocks := t.Len() / t.dtype.UnitElems()
	src := t.storage.Bytes()[t.offset : t.offset+blocks*ub]
	out := make([]float32, blocks*per)
	for i := 0; i < blocks; i++ {
		subBlockScales(t.dtype, src[i*ub:(i+1)*ub], out[i*per:(i+1)*per], mins)
	}
	return FromFloat32s(out, blockShape(t, per))
}

func subBlockScales(dt DType, b []byte, out []float32, mins bool) {
	switch dt {
	case GGMLQ2_K:
		d, dmin := half(b[80:]), half(b[82:])
		for j := range out {
			if mins {
				out[j] = dmin * float32(b[j]>>4)
			} else {
				out[j] = d * float32(b[j]&0x0F)
			}
		}
	case GGMLQ3_K:
		s := q3KScales(b[96:108])
		d := half(b[108:])
		for j := range out {
			out[j] = d * float32(int(s[j])-32)
		}
	case GGMLQ4_K, GGMLQ5_K:
		d, dmin := half(b), half(b[2:])
		for j := range out {
			sc, m := kScaleMin(j, b[4:16])
			if mins {
				out[j] = dmin * float32(m)
			} else {
				out[j] = d * float32(sc)
			}
		}
	case GGMLQ6_K:
		d := half(b[208:])
		for j := range out {
			out[j] = d * float32(int8(b[192+j]))
		}
	}
}

// FromFloat32s is a fresh float32 tensor holding values in row-major order.
func FromFloat32s(values []float32, shape []int) (*Tensor, error) {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return FromBytes(b, Float32, shape)
}

// HasSubBlockScales reports whether dt is a K-quant with sub-block scales.
func HasSubBlockScales(dt DType) bool {
	switch dt {
	case GGMLQ2_K, GGMLQ3_K, GGMLQ4_K, GGMLQ5_K, GGMLQ6_K:
		return true
	}
	return false
}
