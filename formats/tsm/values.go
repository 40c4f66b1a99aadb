package tsm

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"tensorscope/tensor"
)

// Limits of what is shown inline as an attribute value; larger parameters
// become document tensors so that the viewer can plot them.
const (
	maxInlineElements = 16
	maxInlineText     = 4096 // characters
	maxInlineHex      = 64   // bytes of opaque data shown as hex
)

// inlineValue converts a field into an attribute value (one of the kinds
// formats.Attr allows). ok is false when the field is too large to show
// inline and should become a document tensor instead.
func inlineValue(t *Tensor) (v any, ok bool) {
	n := t.Elements()
	if t.DType.IsText() {
		if n > maxInlineText {
			return nil, false
		}
		return text(t), true
	}
	if t.DType == VOID {
		return describe(t.DType, t.Shape) + " (VOID: no data)", true
	}
	if n > maxInlineElements {
		return nil, false
	}
	scalar := len(t.Shape) == 0 || (len(t.Shape) == 1 && t.Shape[0] == 1)
	switch t.DType {
	case BOOLEAN:
		out := make([]bool, n)
		for i := range out {
			out[i] = t.Data[i] != 0
		}
		if scalar {
			return out[0], true
		}
		return out, true
	case INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64:
		out := make([]int64, n)
		for i := range out {
			x, exact := intAt(t, i)
			if !exact {
				return uint64Strings(t, scalar), true
			}
			out[i] = x
		}
		if scalar {
			return out[0], true
		}
		return out, true
	case FLOAT16, FLOAT32, FLOAT64:
		out := make([]float64, n)
		for i := range out {
			out[i] = floatAt(t, i)
		}
		if scalar {
			return out[0], true
		}
		return out, true
	}
	return opaque(t), true
}

// intAt reads integer element i; exact is false for a UINT64 above MaxInt64.
func intAt(t *Tensor, i int) (v int64, exact bool) {
	b := t.Data
	switch t.DType {
	case INT8:
		return int64(int8(b[i])), true
	case UINT8:
		return int64(b[i]), true
	case INT16:
		return int64(int16(binary.LittleEndian.Uint16(b[2*i:]))), true
	case UINT16:
		return int64(binary.LittleEndian.Uint16(b[2*i:])), true
	case INT32:
		return int64(int32(binary.LittleEndian.Uint32(b[4*i:]))), true
	case UINT32:
		return int64(binary.LittleEndian.Uint32(b[4*i:])), true
	case INT64:
		return int64(binary.LittleEndian.Uint64(b[8*i:])), true
	case UINT64:
		u := binary.LittleEndian.Uint64(b[8*i:])
		return int64(u), u <= math.MaxInt64
	}
	return 0, false
}

func uint64Strings(t *Tensor, scalar bool) any {
	out := make([]string, t.Elements())
	for i := range out {
		out[i] = strconv.FormatUint(binary.LittleEndian.Uint64(t.Data[8*i:]), 10)
	}
	if scalar {
		return out[0]
	}
	return out
}

func floatAt(t *Tensor, i int) float64 {
	b := t.Data
	switch t.DType {
	case FLOAT16:
		return float64(tensor.Float16ToFloat32(binary.LittleEndian.Uint16(b[2*i:])))
	case FLOAT32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	case FLOAT64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return math.NaN()
}

// text decodes CHAR8 (bytes as stored), CHAR16 (UTF-16) and CHAR32 (code
// points) data; invalid code units become U+FFFD.
func text(t *Tensor) string {
	switch t.DType {
	case CHAR16:
		u := make([]uint16, len(t.Data)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(t.Data[2*i:])
		}
		return string(utf16.Decode(u))
	case CHAR32:
		b := make([]byte, 0, len(t.Data))
		for i := 0; i+4 <= len(t.Data); i += 4 {
			r := rune(binary.LittleEndian.Uint32(t.Data[i:]))
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		}
		return string(b)
	}
	return string(t.Data)
}

// opaque describes data the viewer cannot interpret: what, how big, and
// the bytes themselves when few.
func opaque(t *Tensor) string {
	s := fmt.Sprintf("%s, %d bytes", describe(t.DType, t.Shape), len(t.Data))
	if len(t.Data) <= maxInlineHex {
		s += ": " + hex.EncodeToString(t.Data)
	}
	return s
}

// scalarInt reads a one-element integer field (0-dim or [1]).
func scalarInt(t *Tensor) (int64, bool) {
	if t.Elements() != 1 {
		return 0, false
	}
	switch t.DType {
	case INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64:
		return intAt(t, 0)
	}
	return 0, false
}

// intList reads an integer field of any shape (for #shape).
func intList(t *Tensor) ([]int, bool) {
	if t.DType < INT8 || t.DType > UINT64 {
		return nil, false
	}
	out := make([]int, t.Elements())
	for i := range out {
		v, ok := intAt(t, i)
		if !ok || v < math.MinInt32 || v > math.MaxInt32 {
			return nil, false
		}
		out[i] = int(v)
	}
	return out, true
}
