package npy

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// encoder writes one tensor as a .npy file.
var encoder = &formats.Encoder{
	Extension: ".npy",
	Check: func(n formats.Named) error {
		if dt := n.Tensor.DType(); npyDescr[dt] == "" && !WidensToFloat32(dt) && dt != tensor.BFloat16 &&
			dt != tensor.Datetime64 && dt != tensor.Timedelta64 {
			return fmt.Errorf("%s has no NumPy dtype", dt)
		}
		return nil
	},
	Write: func(ctx context.Context, w io.Writer, ts []formats.Named, _ map[string]string) (string, error) {
		if len(ts) != 1 {
			return "", fmt.Errorf("a .npy file holds one tensor, not %d", len(ts))
		}
		return Write(ctx, w, ts[0].Tensor)
	},
}

// npyDescr is NumPy's array-protocol type string for each dtype that has
// one: little-endian ('<') where byte order matters, '|' where it does not.
var npyDescr = map[tensor.DType]string{
	tensor.Bool: "|b1", tensor.Int8: "|i1", tensor.Uint8: "|u1",
	tensor.Int16: "<i2", tensor.Uint16: "<u2", tensor.Int32: "<i4", tensor.Uint32: "<u4",
	tensor.Int64: "<i8", tensor.Uint64: "<u8",
	tensor.Float16: "<f2", tensor.Float32: "<f4", tensor.Float64: "<f8",
	tensor.Complex64: "<c8", tensor.Complex128: "<c16",
	tensor.Void8: "|V1", tensor.Void16: "|V2", tensor.Void32: "|V4", tensor.Void64: "|V8", tensor.Void128: "|V16",
}

// Header returns the header of a NumPy format 1.0 file holding a
// C-ordered array of descr and shape: magic, version, length, and a
// dictionary padded with spaces so that the data starts on a 64-byte
// boundary, as NumPy itself writes.
func Header(descr string, shape []int) ([]byte, error) {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	tuple += ")"
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)
	const pre = 10 // magic (6), version (2), header length (2)
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	if total-pre > 0xffff {
		return nil, fmt.Errorf("a %d-dimensional shape does not fit a NumPy 1.0 header", len(shape))
	}
	h := make([]byte, total)
	copy(h, "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(h[8:], uint16(total-pre))
	n := copy(h[pre:], dict)
	for i := pre + n; i < total-1; i++ {
		h[i] = ' '
	}
	h[total-1] = '\n'
	return h, nil
}

// Write writes t as a NumPy .npy file (format 1.0, C order) that
// numpy.load reads back bit for bit. Types NumPy has no dtype for are
// written as the nearest type it has, and the note says so: bfloat16, the
// float8, float6 and float4 types and the packed integers are widened to
// float32, which holds each of their values exactly; block-quantised
// types are written as their dequantised float32 values; datetime64 and
// timedelta64 as their int64 counts (the unit is the source file's).
func Write(ctx context.Context, w io.Writer, t *tensor.Tensor) (note string, err error) {
	dt := t.DType()
	if dt == tensor.Datetime64 || dt == tensor.Timedelta64 {
		return writeNPYData(ctx, w, t, npyDescr[tensor.Int64],
			dt.String()+" written as its int64 counts; the unit is the source file's")
	}
	if descr, ok := npyDescr[dt]; ok {
		return writeNPYData(ctx, w, t, descr, "")
	}
	if dt == tensor.BFloat16 {
		return writeBFloat16NPY(ctx, w, t)
	}
	if !WidensToFloat32(dt) {
		return "", fmt.Errorf("%s has no NumPy dtype", dt)
	}
	wide, err := t.ToFloat32(ctx)
	if err != nil {
		return "", err
	}
	note = dt.String() + " has no NumPy dtype: written as float32, which holds every " + dt.String() + " value exactly"
	if dt.BlockQuantized() {
		note = dt.String() + " has no NumPy dtype: written as its dequantised float32 values"
	}
	return writeNPYData(ctx, w, wide, npyDescr[tensor.Float32], note)
}

// WidensToFloat32 reports whether Write stores dt as float32: the numeric
// types NumPy has no dtype for (bfloat16, the narrow floats, packed and
// block-quantised types).
func WidensToFloat32(dt tensor.DType) bool {
	_, native := npyDescr[dt]
	return !native && dt.Numeric() && dt != tensor.Datetime64 && dt != tensor.Timedelta64
}

// writeNPYData writes the header and t's stored bytes in C order.
func writeNPYData(ctx context.Context, w io.Writer, t *tensor.Tensor, descr, note string) (string, error) {
	h, err := Header(descr, t.Shape())
	if err != nil {
		return "", err
	}
	if _, err := w.Write(h); err != nil {
		return "", err
	}
	return note, formats.TensorChunks(t, func(c []byte) error { return writeChecked(ctx, w, c) })
}

// writeBFloat16NPY widens bfloat16 to float32 while streaming: a bfloat16
// is the top half of the float32 with the same value, NaN payloads included.
func writeBFloat16NPY(ctx context.Context, w io.Writer, t *tensor.Tensor) (string, error) {
	h, err := Header(npyDescr[tensor.Float32], t.Shape())
	if err != nil {
		return "", err
	}
	if _, err := w.Write(h); err != nil {
		return "", err
	}
	note := "bfloat16 has no NumPy dtype: written as float32, which holds every bfloat16 value exactly"
	var buf []byte
	return note, formats.TensorChunks(t, func(c []byte) error {
		buf = buf[:0]
		for i := 0; i+1 < len(c); i += 2 {
			buf = append(buf, 0, 0, c[i], c[i+1])
		}
		return writeChecked(ctx, w, buf)
	})
}

func writeChecked(ctx context.Context, w io.Writer, b []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// Descr is NumPy's array-protocol type string for dt ("<f4"), or "" for a
// dtype NumPy has none for.
func Descr(dt tensor.DType) string { return npyDescr[dt] }
