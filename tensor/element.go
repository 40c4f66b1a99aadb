package tensor

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrIndex reports an element index that does not fit the shape.
var ErrIndex = errors.New("index out of range")

// ErrNoBytes reports a request for the stored bytes of elements that have
// none of their own: packed elements share bytes with their neighbours
// (use ToFloat32 for their values), and the magnitude of a complex number
// is computed, not stored.
var ErrNoBytes = errors.New("elements have no bytes of their own")

// elementAddr returns the address of the element at index in the terms of
// addrSize: a byte offset, or for packed dtypes an element number from the
// unit at offset.
func (t *Tensor) elementAddr(index []int) (int, error) {
	if len(index) != len(t.shape) {
		return 0, fmt.Errorf("%w: %d indices for %s", ErrIndex, len(index), t)
	}
	off := 0
	for k, i := range index {
		if i < 0 || i >= t.shape[k] {
			return 0, fmt.Errorf("%w: index %v for %s (dim %d)", ErrIndex, index, t, k)
		}
		off += t.axisOffset(k, i)
	}
	if t.dtype.Packed() {
		return t.phase + off, nil
	}
	return t.offset + off*t.addrSize(), nil
}

// checkBytes fails for tensors whose elements have no bytes of their own.
func (t *Tensor) checkBytes(op string) error {
	switch {
	case t.dtype.Packed():
		return fmt.Errorf("%s of %s: %w (%d elements share %d bytes; read their values, or convert with ToFloat32)",
			op, t, ErrNoBytes, t.dtype.UnitElems(), t.dtype.UnitBytes())
	case t.magnitude != Invalid:
		return fmt.Errorf("%s of the magnitude of %s: %w (it is computed; convert with ToFloat32)", op, t, ErrNoBytes)
	}
	return nil
}

// ElementBytes returns the bytes of one element, little-endian. The slice
// aliases the storage and must not be modified, except for a big-endian
// tensor, whose element is returned swapped in a fresh slice. Packed
// elements and complex magnitudes have no bytes of their own: they fail
// with ErrNoBytes.
func (t *Tensor) ElementBytes(index []int) ([]byte, error) {
	if err := t.checkBytes("ElementBytes"); err != nil {
		return nil, err
	}
	off, err := t.elementAddr(index)
	if err != nil {
		return nil, err
	}
	size := t.dtype.Size()
	b := t.storage.data[off : off+size : off+size]
	if t.bigEndian {
		b = append([]byte(nil), b...)
		swapElements(b, t.dtype)
	}
	return b, nil
}

// Float64At returns the element at index as a float64: bool as 0 or 1,
// integers exactly when |v| ≤ 2^53 (rounded to nearest beyond), floats
// exactly, packed elements as their dequantised value, NaT as NaN.
// Complex and opaque dtypes have no single real value and fail with
// ErrNotNumeric.
func (t *Tensor) Float64At(index []int) (float64, error) {
	if err := checkNumeric(t, "Float64At"); err != nil {
		return 0, err
	}
	addr, err := t.elementAddr(index)
	if err != nil {
		return 0, err
	}
	return newValueDecoderCaching(t, 0).one(addr), nil
}

// ElementString returns the element at index exactly as stored, as text:
//   - floats: the shortest decimal that reads back to the same value in the
//     element's own type (float32 as strconv 'g' -1 32; float16, bfloat16
//     and the float8, float6 and float4 types likewise, shortest for their
//     precision); NaN, +Inf, -Inf;
//   - integers (int4 and int2 too): exact decimal; bool: true or false (any
//     nonzero byte is true); datetime64 and timedelta64: the integer count,
//     or NaT;
//   - block-quantised elements: their dequantised float32 value; the
//     magnitude of a complex number: its value in the part's float type;
//   - complex: (re+imj) with each part formatted as its float type;
//   - opaque types: 0x followed by the bytes in storage order, in hex.
func (t *Tensor) ElementString(index []int) (string, error) {
	if t.dtype.Packed() || t.magnitude != Invalid {
		return t.computedElementString(index)
	}
	b, err := t.ElementBytes(index)
	if err != nil {
		return "", err
	}
	return formatElement(t.dtype, b), nil
}

// computedElementString formats an element that has no bytes of its own
// from its decoded value.
func (t *Tensor) computedElementString(index []int) (string, error) {
	if !t.dtype.Numeric() {
		return "", fmt.Errorf("ElementString of %s: %w (no decoder for its units)", t, ErrNotNumeric)
	}
	v, err := t.Float64At(index)
	if err != nil {
		return "", err
	}
	switch {
	case t.dtype.IsInteger():
		return strconv.FormatInt(int64(v), 10), nil
	case t.dtype == Float4E2M1FN || t.dtype == Float6E2M3FN || t.dtype == Float6E3M2FN:
		return formatNarrow(t.dtype, Float32ToNarrow(t.dtype, float32(v), true)), nil
	case t.dtype == Float64:
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
	return formatFloat32(float32(v)), nil
}

func formatElement(dt DType, b []byte) string {
	le := binary.LittleEndian
	switch dt {
	case Bool:
		return strconv.FormatBool(b[0] != 0)
	case Int8:
		return strconv.FormatInt(int64(int8(b[0])), 10)
	case Uint8:
		return strconv.FormatUint(uint64(b[0]), 10)
	case Int16:
		return strconv.FormatInt(int64(int16(le.Uint16(b))), 10)
	case Uint16:
		return strconv.FormatUint(uint64(le.Uint16(b)), 10)
	case Int32:
		return strconv.FormatInt(int64(int32(le.Uint32(b))), 10)
	case Uint32:
		return strconv.FormatUint(uint64(le.Uint32(b)), 10)
	case Int64:
		return strconv.FormatInt(int64(le.Uint64(b)), 10)
	case Uint64:
		return strconv.FormatUint(le.Uint64(b), 10)
	case Float16:
		return FormatFloat16(le.Uint16(b))
	case BFloat16:
		return FormatBFloat16(le.Uint16(b))
	case Float32:
		return formatFloat32(math.Float32frombits(le.Uint32(b)))
	case Float64:
		return strconv.FormatFloat(math.Float64frombits(le.Uint64(b)), 'g', -1, 64)
	case Complex64:
		return formatComplex(formatFloat32(math.Float32frombits(le.Uint32(b))),
			formatFloat32(math.Float32frombits(le.Uint32(b[4:]))))
	case Complex128:
		return formatComplex(strconv.FormatFloat(math.Float64frombits(le.Uint64(b)), 'g', -1, 64),
			strconv.FormatFloat(math.Float64frombits(le.Uint64(b[8:])), 'g', -1, 64))
	case Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU:
		return formatNarrow(dt, b[0])
	case Datetime64, Timedelta64:
		if v := int64(le.Uint64(b)); v != NaT {
			return strconv.FormatInt(v, 10)
		}
		return "NaT"
	}
	return "0x" + hex.EncodeToString(b)
}

func formatFloat32(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

func formatComplex(re, im string) string {
	if im[0] != '-' && im[0] != '+' {
		im = "+" + im
	}
	return "(" + re + im + "j)"
}

// FormatFloat16 formats a float16 (given by its bits) as the shortest
// decimal that rounds back to the same float16, in strconv's 'g' style.
func FormatFloat16(h uint16) string {
	return formatShortest(float64(Float16ToFloat32(h)), func(x float64) bool {
		return float64ToFloat16(x) == h
	})
}

// FormatBFloat16 is FormatFloat16 for bfloat16.
func FormatBFloat16(b uint16) string {
	return formatShortest(float64(BFloat16ToFloat32(b)), func(x float64) bool {
		return float64ToBFloat16(x) == b
	})
}

// formatShortest finds the fewest significant digits whose decimal rounds
// back (directly from float64, without a double rounding) to the same
// narrow value, then prints that decimal the way strconv's shortest 'g'
// does. Besides the p-digit decimal nearest to v it tries its two
// neighbours: at a power of two the rounding interval is lopsided, and the
// nearest p-digit decimal can fall outside it while a neighbour does not.
func formatShortest(v float64, same func(float64) bool) string {
	if v != v || math.IsInf(v, 0) || v == 0 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for digits := 1; digits < 17; digits++ {
		e := strconv.FormatFloat(v, 'e', digits-1, 64)
		k := strings.IndexByte(e, 'e')
		mant, err1 := strconv.ParseInt(strings.Replace(e[:k], ".", "", 1), 10, 64)
		exp, err2 := strconv.Atoi(e[k+1:])
		if err1 != nil || err2 != nil {
			break
		}
		best, found := 0.0, false
		for _, m := range []int64{mant, mant - 1, mant + 1} {
			d, err := strconv.ParseFloat(strconv.FormatInt(m, 10)+"e"+strconv.Itoa(exp-(digits-1)), 64)
			if err == nil && same(d) && (!found || math.Abs(d-v) < math.Abs(best-v)) {
				best, found = d, true
			}
		}
		if found {
			return strconv.FormatFloat(best, 'g', -1, 64)
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ReadFloat64s fills dst with the values of the len(dst) elements starting
// at row-major index start, converted as by Float64At — for table views and
// text export. Runs adjacent in storage are decoded in one loop.
func (t *Tensor) ReadFloat64s(start int64, dst []float64) error {
	if err := checkNumeric(t, "ReadFloat64s"); err != nil {
		return err
	}
	n := int64(t.Len())
	if start < 0 || start > n || int64(len(dst)) > n-start {
		return fmt.Errorf("%w: elements [%d,%d) of %s", ErrIndex, start, start+int64(len(dst)), t)
	}
	l := newLayout(t, false)
	r := newBlockReader(&l, newValueDecoder(t), max(1, min(len(dst), statsBlock)),
		func(x []float32) {
			for i, v := range x {
				dst[i] = float64(v)
			}
			dst = dst[len(x):]
		},
		func(x []float64) { dst = dst[copy(dst, x):] })
	r.read(start, start+int64(len(dst)))
	return nil
}
