package tensor

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Element decoding. Storage is little-endian whatever the host; the hot
// loops read float32 and float64 runs in place when the host is
// little-endian and the run is contiguous (and aligned, where the CPU does
// not load misaligned words at full speed: see unalignedLoadsFast), and
// decode into a scratch buffer otherwise.

var hostLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// kernelKind says which typed loop a dtype's values go through. Every
// value of the dtypes in kind32 is exactly a float32, which halves the
// memory traffic of the loops; the rest go through float64 (exact for
// int32/uint32, rounded to nearest for 64-bit integers beyond 2^53).
type kernelKind uint8

const (
	kindNone kernelKind = iota
	kind32
	kind64
)

func kernelOf(dt DType) kernelKind {
	switch dt {
	case Bool, Int8, Uint8, Int16, Uint16, Float16, BFloat16, Float32,
		Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU:
		return kind32
	case Int32, Uint32, Int64, Uint64, Float64, Datetime64, Timedelta64:
		return kind64
	}
	if dt.Packed() && unitDecoders[dt] != nil {
		return kind32 // units decode to float32
	}
	return kindNone
}

// inPlaceF32 returns the n float32 values at byte offset off as a slice
// of the storage itself, or nil when that is not possible.
func inPlaceF32(data []byte, off, n int) []float32 {
	if !hostLittleEndian || n == 0 || !loadableAt(&data[off], 4) {
		return nil
	}
	_ = data[off+4*n-1]
	return unsafe.Slice((*float32)(unsafe.Pointer(&data[off])), n)
}

func inPlaceF64(data []byte, off, n int) []float64 {
	if !hostLittleEndian || n == 0 || !loadableAt(&data[off], 8) {
		return nil
	}
	_ = data[off+8*n-1]
	return unsafe.Slice((*float64)(unsafe.Pointer(&data[off])), n)
}

// loadableAt reports whether words of size bytes can be read in place
// from p: always where misaligned loads are fast, else when p is aligned.
func loadableAt(p *byte, size uintptr) bool {
	return unalignedLoadsFast || uintptr(unsafe.Pointer(p))%size == 0
}

// decode32 writes the values of len(dst) elements of a kind32 dtype,
// stride bytes apart from byte offset off, into dst.
func decode32(dt DType, data []byte, off, stride int, dst []float32) {
	switch dt {
	case Float32:
		if stride == 4 && hostLittleEndian && len(dst) > 0 {
			// A misaligned contiguous run: one memmove into aligned memory.
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*len(dst)), data[off:off+4*len(dst)])
			return
		}
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[off+i*stride:]))
		}
	case Float16:
		tab := float16Table()
		if u := contiguousU16(data, off, stride, len(dst)); u != nil {
			for i, h := range u {
				dst[i] = tab[h]
			}
			return
		}
		for i := range dst {
			dst[i] = tab[binary.LittleEndian.Uint16(data[off+i*stride:])]
		}
	case BFloat16:
		if u := contiguousU16(data, off, stride, len(dst)); u != nil {
			for i, h := range u {
				dst[i] = math.Float32frombits(uint32(h) << 16)
			}
			return
		}
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(data[off+i*stride:])) << 16)
		}
	case Int16:
		for i := range dst {
			dst[i] = float32(int16(binary.LittleEndian.Uint16(data[off+i*stride:])))
		}
	case Uint16:
		for i := range dst {
			dst[i] = float32(binary.LittleEndian.Uint16(data[off+i*stride:]))
		}
	case Int8:
		for i := range dst {
			dst[i] = float32(int8(data[off+i*stride]))
		}
	case Uint8:
		for i := range dst {
			dst[i] = float32(data[off+i*stride])
		}
	case Bool:
		for i := range dst {
			dst[i] = float32(b2u(data[off+i*stride] != 0))
		}
	case Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU:
		tab := float8Table(dt)
		for i := range dst {
			dst[i] = tab[data[off+i*stride]]
		}
	default:
		panic("tensor: decode32 of " + dt.String())
	}
}

// contiguousU16 returns the n 16-bit values at off as a slice of the
// storage when they are adjacent and the host is little-endian (x86 and
// arm64 read unaligned 16-bit words at full speed), so that the float16
// and bfloat16 loops run without per-element bounds checks; nil otherwise.
func contiguousU16(data []byte, off, stride, n int) []uint16 {
	if stride != 2 || !hostLittleEndian || n == 0 {
		return nil
	}
	_ = data[off+2*n-1]
	return unsafe.Slice((*uint16)(unsafe.Pointer(&data[off])), n)
}

// decode64 is decode32 for the kind64 dtypes.
func decode64(dt DType, data []byte, off, stride int, dst []float64) {
	switch dt {
	case Float64:
		if stride == 8 && hostLittleEndian && len(dst) > 0 {
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 8*len(dst)), data[off:off+8*len(dst)])
			return
		}
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[off+i*stride:]))
		}
	case Int32:
		for i := range dst {
			dst[i] = float64(int32(binary.LittleEndian.Uint32(data[off+i*stride:])))
		}
	case Uint32:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint32(data[off+i*stride:]))
		}
	case Int64:
		for i := range dst {
			dst[i] = float64(int64(binary.LittleEndian.Uint64(data[off+i*stride:])))
		}
	case Uint64:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint64(data[off+i*stride:]))
		}
	case Datetime64, Timedelta64:
		for i := range dst {
			dst[i] = timeValue(int64(binary.LittleEndian.Uint64(data[off+i*stride:])))
		}
	default:
		panic("tensor: decode64 of " + dt.String())
	}
}

// NaT is NumPy's "not a time", the minimum int64 count of datetime64 and
// timedelta64; the kernels count it as NaN.
const NaT = math.MinInt64

func timeValue(v int64) float64 {
	if v == NaT {
		return math.NaN()
	}
	return float64(v)
}

func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// blockReader hands the elements of a layout to a typed loop in blocks of
// at most block values, in iteration order: runs that can be read in place
// are passed through, everything else is decoded into a buffer, which
// collects short runs until it is full.
type blockReader struct {
	l     *layout
	kind  kernelKind
	buf32 []float32
	buf64 []float64
	f32   func([]float32)
	f64   func([]float64)
	in32  func(off, n int) []float32
	in64  func(off, n int) []float64
	dec32 func(off int, dst []float32)
	dec64 func(off int, dst []float64)
	runFn func(off, n int)
}

// newBlockReader reads l's elements through dec, which must decode the
// tensor l was made from.
func newBlockReader(l *layout, dec *valueDecoder, block int, f32 func([]float32), f64 func([]float64)) *blockReader {
	r := &blockReader{l: l, kind: dec.kind, f32: f32, f64: f64}
	if r.kind == kind32 {
		r.buf32 = make([]float32, 0, block)
		r.dec32 = func(off int, dst []float32) { dec.dec32(off, l.istride, dst) }
		if dec.inPlace32 != nil && l.istride == 4 {
			r.in32 = dec.inPlace32
		}
		r.runFn = func(off, n int) { feedRun(&r.buf32, r.in32, r.dec32, r.f32, off, n, l.istride) }
	} else {
		r.buf64 = make([]float64, 0, block)
		r.dec64 = func(off int, dst []float64) { dec.dec64(off, l.istride, dst) }
		if dec.inPlace64 != nil && l.istride == 8 {
			r.in64 = dec.inPlace64
		}
		r.runFn = func(off, n int) { feedRun(&r.buf64, r.in64, r.dec64, r.f64, off, n, l.istride) }
	}
	return r
}

// read delivers the elements with iteration index in [lo, hi) and flushes.
func (r *blockReader) read(lo, hi int64) {
	r.l.runs(lo, hi, r.runFn)
	r.flush()
}

// feedRun passes n elements from byte offset off to sink in blocks of at
// most cap(*buf): in place while the buffer is empty and at least a quarter
// block remains, through the buffer otherwise.
func feedRun[T float32 | float64](buf *[]T, inPlace func(off, n int) []T, decode func(off int, dst []T),
	sink func([]T), off, n, stride int) {
	block := cap(*buf)
	for n > 0 {
		if len(*buf) == 0 && inPlace != nil && n >= block/4 {
			k := min(n, block)
			if x := inPlace(off, k); x != nil {
				sink(x)
				off += k * stride
				n -= k
				continue
			}
			inPlace = nil // misaligned: every later offset is too
		}
		m := len(*buf)
		k := min(n, block-m)
		*buf = (*buf)[:m+k]
		decode(off, (*buf)[m:])
		off += k * stride
		n -= k
		if len(*buf) == block {
			sink(*buf)
			*buf = (*buf)[:0]
		}
	}
}

func (r *blockReader) flush() {
	if len(r.buf32) > 0 {
		r.f32(r.buf32)
		r.buf32 = r.buf32[:0]
	}
	if len(r.buf64) > 0 {
		r.f64(r.buf64)
		r.buf64 = r.buf64[:0]
	}
}
