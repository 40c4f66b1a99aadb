package tsr

import (
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Mode is how TSR3 and TSR4 files store tensor data.
type Mode uint32

const (
	RAW  Mode = modeRAW  // uncompressed, 256-byte aligned, mappable
	ZLIB Mode = modeZLIB // zlib streams
)

func (m Mode) String() string {
	if s := modeName(uint32(m)); s != "" {
		return s
	}
	return fmt.Sprintf("Mode(%d)", uint32(m))
}

// EncodeV1 writes t as a TSR v1 ('TSR!') file: a 64-byte header and the
// data in row-major order. t may be any view (non-contiguous views are
// written element by element); its dtype must be float32, int8 or int32 and
// its rank at most 4.
func EncodeV1(w io.Writer, t *tensor.Tensor) error {
	dc, ok := v1DTypes.byDType(t.DType())
	if !ok {
		return fmt.Errorf("TSR v1 stores %s, not %s", v1DTypes.dtypes(), t.DType())
	}
	dims, err := rightAligned(t.Shape(), 1, "TSR v1")
	if err != nil {
		return err
	}
	h := make([]byte, headerSizeV1)
	le := binary.LittleEndian
	copy(h, magicV1)
	le.PutUint32(h[4:], 1)
	le.PutUint32(h[8:], headerSizeV1)
	le.PutUint32(h[16:], uint32(dc.code))
	le.PutUint32(h[20:], uint32(t.Rank()))
	for i, d := range dims {
		le.PutUint32(h[24+4*i:], uint32(d))
	}
	le.PutUint64(h[40:], uint64(t.Len()))
	if _, err := w.Write(h); err != nil {
		return err
	}
	return writeData(w, t)
}

// EncodeV3 writes t as a TSR3 file in RAW or ZLIB mode, with the CRC-32 of
// its data, as the reference writer does. t must hold at least one element:
// TSR3's element count ignores zero dims, so an empty tensor could not be
// read back.
func EncodeV3(w io.Writer, t *tensor.Tensor, mode Mode) error {
	dc, ok := v3DTypes.byDType(t.DType())
	if !ok {
		return fmt.Errorf("TSR3 stores %s, not %s", v3DTypes.dtypes(), t.DType())
	}
	if mode != RAW && mode != ZLIB {
		return fmt.Errorf("TSR3: unknown mode %v", mode)
	}
	dims, err := rightAligned(t.Shape(), 0, "TSR3")
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return fmt.Errorf("TSR3 cannot store the empty tensor %s", t)
	}
	s, err := summarise(t, mode == ZLIB)
	if err != nil {
		return err
	}
	h := make([]byte, headerSizeV3)
	le := binary.LittleEndian
	copy(h, magicV3)
	le.PutUint32(h[4:], headerSizeV3)
	le.PutUint32(h[8:], 3)
	le.PutUint32(h[12:], uint32(mode))
	h[16] = byte(dc.code)
	h[17] = byte(t.Rank())
	for i, d := range dims {
		le.PutUint32(h[20+4*i:], uint32(d))
	}
	raw := uint64(t.Len()) * uint64(t.DType().Size())
	le.PutUint64(h[36:], uint64(t.Len()))
	offset := uint64(rawOffsetV3)
	if mode == ZLIB {
		offset = zlibOffsetV3
	}
	le.PutUint64(h[44:], offset)
	le.PutUint64(h[52:], uint64(s.payload))
	le.PutUint64(h[60:], raw)
	le.PutUint32(h[68:], s.crc)
	if mode == RAW {
		h = append(h, make([]byte, rawOffsetV3-headerSizeV3)...)
	}
	if _, err := w.Write(h); err != nil {
		return err
	}
	return writeBlock(w, t, mode == ZLIB, s.payload)
}

// EncodeV4 writes ts as a TSR4 container (version 4.20) in RAW or ZLIB
// mode. TSR4 stores every tensor as 4-D NHWC, so tensors of lower rank get
// leading dims of 1 ([3,4] is stored as [1,1,3,4]); dtypes must be float32,
// float16, int8 or int32, and every dim at least 1. Blocks carry their
// CRC-32 and the header its own; RAW blocks start on 256-byte boundaries.
func EncodeV4(w io.Writer, ts []*tensor.Tensor, mode Mode) error {
	if len(ts) == 0 {
		return fmt.Errorf("TSR4 needs at least one tensor")
	}
	if len(ts) > math.MaxUint32 {
		return fmt.Errorf("TSR4 holds at most %d tensors", uint32(math.MaxUint32))
	}
	if mode != RAW && mode != ZLIB {
		return fmt.Errorf("TSR4: unknown mode %v", mode)
	}
	type planned struct {
		code   int
		dims   [4]int
		sum    summary
		offset int64
	}
	plan := make([]planned, len(ts))
	dirEnd := int64(headerSizeV4 + entrySizeV4*len(ts))
	next := dirEnd
	if mode == RAW {
		next = alignUp(dirEnd, alignV4)
	}
	firstData := next
	for i, t := range ts {
		dc, ok := v4DTypes.byDType(t.DType())
		if !ok {
			return fmt.Errorf("tensor %d: TSR4 stores %s, not %s", i, v4DTypes.dtypes(), t.DType())
		}
		dims, err := rightAligned(t.Shape(), 1, "TSR4")
		if err != nil {
			return fmt.Errorf("tensor %d: %w", i, err)
		}
		for _, d := range dims {
			if d < 1 {
				return fmt.Errorf("tensor %d: TSR4 cannot store the empty tensor %s (every dim must be at least 1)", i, t)
			}
		}
		s, err := summarise(t, mode == ZLIB)
		if err != nil {
			return fmt.Errorf("tensor %d: %w", i, err)
		}
		plan[i] = planned{code: dc.code, dims: dims, sum: s, offset: next}
		next += s.payload
		if mode == RAW {
			next = alignUp(next, alignV4)
		}
	}

	le := binary.LittleEndian
	head := make([]byte, dirEnd)
	copy(head, magicV4)
	le.PutUint16(head[4:], majorV4)
	le.PutUint16(head[6:], minorV4)
	le.PutUint32(head[8:], headerSizeV4)
	le.PutUint32(head[12:], uint32(mode))
	le.PutUint32(head[16:], uint32(len(ts)))
	le.PutUint32(head[20:], entrySizeV4)
	le.PutUint64(head[24:], headerSizeV4)
	le.PutUint64(head[32:], uint64(firstData))
	le.PutUint32(head[headerCRCAt:], headerCRC(head))
	for i, p := range plan {
		e := head[headerSizeV4+entrySizeV4*i:]
		esize := uint64(ts[i].DType().Size())
		e[0] = byte(p.code)
		for k, d := range p.dims {
			le.PutUint32(e[4+4*k:], uint32(d))
		}
		le.PutUint64(e[20:], uint64(ts[i].Len()))
		le.PutUint64(e[28:], uint64(p.dims[2])*uint64(p.dims[3])*esize) // compact row: W×C×size (V4.21)
		le.PutUint64(e[36:], uint64(ts[i].Len())*esize)
		le.PutUint64(e[44:], uint64(p.offset))
		le.PutUint64(e[52:], uint64(p.sum.payload))
		le.PutUint32(e[60:], p.sum.crc)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	pos := dirEnd
	for i, p := range plan {
		if pad := p.offset - pos; pad > 0 {
			if _, err := w.Write(make([]byte, pad)); err != nil {
				return err
			}
		}
		if err := writeBlock(w, ts[i], mode == ZLIB, p.sum.payload); err != nil {
			return fmt.Errorf("tensor %d: %w", i, err)
		}
		pos = p.offset + p.sum.payload
	}
	return nil
}

// rightAligned places shape in the last dims of a 4-dim array whose unused
// leading dims are fill.
func rightAligned(shape []int, fill int, format string) ([4]int, error) {
	var dims [4]int
	if len(shape) > 4 {
		return dims, fmt.Errorf("%s stores at most 4 dims, not %d", format, len(shape))
	}
	for i := range dims {
		dims[i] = fill
	}
	for i, d := range shape {
		if d > math.MaxInt32 {
			return dims, fmt.Errorf("%s stores dims up to %d, not %d", format, math.MaxInt32, d)
		}
		dims[4-len(shape)+i] = d
	}
	return dims, nil
}

// summary is what a header must say about a block before the block is
// written: its CRC-32 and its size in the file.
type summary struct {
	crc     uint32
	payload int64
}

// countWriter counts bytes written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// summarise reads t once to compute its CRC-32 and, for zlib, the size of
// its compressed stream. Compressing twice (here and when writing) keeps
// memory flat however large the tensors are; zlib's output is deterministic
// for the same input, which writeBlock checks.
func summarise(t *tensor.Tensor, compress bool) (summary, error) {
	h := crc32.NewIEEE()
	if !compress {
		if err := formats.TensorChunks(t, func(c []byte) error { _, err := h.Write(c); return err }); err != nil {
			return summary{}, err
		}
		return summary{crc: h.Sum32(), payload: int64(t.Len()) * int64(t.DType().Size())}, nil
	}
	var cw countWriter
	zw := zlib.NewWriter(&cw)
	err := formats.TensorChunks(t, func(c []byte) error {
		h.Write(c)
		_, err := zw.Write(c)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return summary{}, err
	}
	return summary{crc: h.Sum32(), payload: cw.n}, nil
}

// writeData writes t's elements in row-major order.
func writeData(w io.Writer, t *tensor.Tensor) error {
	return formats.TensorChunks(t, func(c []byte) error { _, err := w.Write(c); return err })
}

// writeBlock writes t raw or as a zlib stream of the size summarise found.
func writeBlock(w io.Writer, t *tensor.Tensor, compress bool, payload int64) error {
	if !compress {
		return writeData(w, t)
	}
	cw := &countingTo{w: w}
	zw := zlib.NewWriter(cw)
	if err := writeData(zw, t); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if cw.n != payload {
		return fmt.Errorf("zlib stream came out %d bytes long, %d were announced in the header (was the tensor modified while writing?)", cw.n, payload)
	}
	return nil
}

type countingTo struct {
	w io.Writer
	n int64
}

func (c *countingTo) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
