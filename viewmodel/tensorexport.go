package viewmodel

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/safetensors"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// TensorExportExtensions are the file endings ExportTensor writes.
var TensorExportExtensions = []string{".npy", ".csv", ".tsr", ".safetensors"}

// ExportTensor writes t to path in the format its ending names: .npy (the
// whole tensor, NumPy format 1.0), .csv (plane, a 2-D view of t such as
// TensorPlane returns), .tsr (TSR v1, else TSR4) or .safetensors (the
// whole tensor, named "tensor"; see ExportTensorAs). It writes through a
// temporary file renamed into place; cancelling ctx stops the export and
// removes the temporary file. The note says what the user should know
// about the result (a widened dtype, the TSR generation), or is empty.
func ExportTensor(ctx context.Context, path string, t, plane *tensor.Tensor) (note string, err error) {
	return ExportTensorAs(ctx, path, "tensor", t, plane)
}

// ExportTensorAs is ExportTensor with the name formats that name their
// tensors (.safetensors) store it under.
func ExportTensorAs(ctx context.Context, path, name string, t, plane *tensor.Tensor) (note string, err error) {
	var write func(w io.Writer) (string, error)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy":
		write = func(w io.Writer) (string, error) { return WriteNPY(ctx, w, t) }
	case ".csv":
		write = func(w io.Writer) (string, error) { return "", WriteCSV(ctx, w, plane) }
	case ".tsr":
		write = func(w io.Writer) (string, error) { return WriteTSR(ctx, w, t) }
	case ".safetensors":
		write = func(w io.Writer) (string, error) {
			return "", safetensors.Write(ctx, w, []safetensors.Named{{Name: name, Tensor: t}}, nil)
		}
	default:
		return "", fmt.Errorf("export %s: choose a name ending in %s", filepath.Base(path), strings.Join(TensorExportExtensions, ", "))
	}
	err = WriteFileAtomicContext(ctx, path, func(w io.Writer) error {
		var err error
		note, err = write(w)
		return err
	})
	return note, err
}

// WriteFileAtomicContext is formats.WriteFileAtomic whose writes fail once
// ctx is cancelled, so that an interrupted export leaves no file behind.
func WriteFileAtomicContext(ctx context.Context, path string, write func(w io.Writer) error) error {
	return formats.WriteFileAtomic(path, func(w io.Writer) error {
		if err := write(contextWriter{ctx, w}); err != nil {
			return err
		}
		return ctx.Err() // cancelled after the last write: still not renamed into place
	})
}

type contextWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c contextWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
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

// NPYHeader returns the header of a NumPy format 1.0 file holding a
// C-ordered array of descr and shape: magic, version, length, and a
// dictionary padded with spaces so that the data starts on a 64-byte
// boundary, as NumPy itself writes.
func NPYHeader(descr string, shape []int) ([]byte, error) {
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

// WriteNPY writes t as a NumPy .npy file (format 1.0, C order) that
// numpy.load reads back bit for bit. Types NumPy has no dtype for are
// written as the nearest type it has, and the note says so: bfloat16, the
// float8, float6 and float4 types and the packed integers are widened to
// float32, which holds each of their values exactly; block-quantised
// types are written as their dequantised float32 values; datetime64 and
// timedelta64 as their int64 counts (the unit is the source file's).
func WriteNPY(ctx context.Context, w io.Writer, t *tensor.Tensor) (note string, err error) {
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
	if !widensToFloat32(dt) {
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

// widensToFloat32 reports whether .npy exports write dt as float32.
func widensToFloat32(dt tensor.DType) bool {
	_, native := npyDescr[dt]
	return !native && dt.Numeric() && dt != tensor.Datetime64 && dt != tensor.Timedelta64
}

// writeNPYData writes the header and t's stored bytes in C order.
func writeNPYData(ctx context.Context, w io.Writer, t *tensor.Tensor, descr, note string) (string, error) {
	h, err := NPYHeader(descr, t.Shape())
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
	h, err := NPYHeader(npyDescr[tensor.Float32], t.Shape())
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

// WriteCSV writes a 2-D tensor as comma-separated text, one line per row,
// each value exactly as stored (tensor.ElementString: the shortest decimal
// that reads back to the same value in the element's own type; NaN, +Inf,
// -Inf). Types that .npy files widen to float32 (bfloat16, the narrow
// floats, packed and block types) are written as that float32, so that
// numpy.loadtxt(..., dtype=float32) reads the same values as numpy.load.
// bool is written 1 or 0, which numpy.loadtxt and spreadsheets read;
// opaque values as hex.
func WriteCSV(ctx context.Context, w io.Writer, plane *tensor.Tensor) error {
	if plane.Rank() != 2 {
		return fmt.Errorf("CSV holds a 2-D plane, not %s", plane)
	}
	shape := plane.Shape()
	bw := bufio.NewWriterSize(w, 64<<10)
	idx := []int{0, 0}
	isBool := plane.DType() == tensor.Bool
	widened := widensToFloat32(plane.DType())
	for r := 0; r < shape[0]; r++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx[0] = r
		for c := 0; c < shape[1]; c++ {
			if c > 0 {
				bw.WriteByte(',')
			}
			idx[1] = c
			if isBool {
				b, err := plane.ElementBytes(idx)
				if err != nil {
					return err
				}
				bw.WriteByte('0' + min(b[0], 1))
				continue
			}
			if widened {
				v, err := plane.Float64At(idx)
				if err != nil {
					return err
				}
				bw.WriteString(strconv.FormatFloat(float64(float32(v)), 'g', -1, 32))
				continue
			}
			s, err := plane.ElementString(idx)
			if err != nil {
				return err
			}
			bw.WriteString(s)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteTSR writes t as TSR v1 when it can hold it (float32, int8, int32,
// rank at most 4), else as a RAW TSR4 container of one tensor (which adds
// float16 and stores every tensor with 4 dims); otherwise it fails saying
// why neither fits. The note names the generation written.
func WriteTSR(ctx context.Context, w io.Writer, t *tensor.Tensor) (note string, err error) {
	cw := &countingWriter{w: w}
	errV1 := tsr.EncodeV1(cw, t)
	if errV1 == nil {
		return "written as TSR v1", ctx.Err()
	}
	if cw.n > 0 || ctx.Err() != nil {
		return "", errV1
	}
	errV4 := tsr.EncodeV4(cw, []*tensor.Tensor{t}, tsr.RAW)
	if errV4 == nil {
		note = "written as TSR4, which stores 4 dims"
		if t.Rank() < 4 {
			note = fmt.Sprintf("written as TSR4, which stores 4 dims: shape %s is stored as %s",
				FormatDims(t.Shape()), FormatDims(padShape(t.Shape(), 4)))
		}
		return note, ctx.Err()
	}
	if cw.n > 0 {
		return "", errV4
	}
	return "", fmt.Errorf("%s fits no TSR generation: %v; %v", t, errV1, errV4)
}

// countingWriter counts the bytes written, and reports the count after
// each write when report is set.
type countingWriter struct {
	w      io.Writer
	n      int64
	report func(n int64)
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if c.report != nil {
		c.report(c.n)
	}
	return n, err
}

func padShape(shape []int, rank int) []int {
	out := make([]int, 0, rank)
	for i := len(shape); i < rank; i++ {
		out = append(out, 1)
	}
	return append(out, shape...)
}

// TensorPlane returns the 2-D view of t that the inspector's heatmap would
// show for these choices, and a description of it for the user. axes nil
// means the inspector's default plane (the two largest axes; a vector is one row,
// a scalar one cell); index holds the other axes (default 0).
func TensorPlane(t *tensor.Tensor, axes []int, index map[int]int) (*tensor.Tensor, string, error) {
	rank := t.Rank()
	row, col := -1, -1
	switch {
	case axes != nil:
		if rank < 2 {
			return nil, "", fmt.Errorf("a tensor of rank %d has no axes to choose", rank)
		}
		if len(axes) != 2 || axes[0] == axes[1] || axes[0] < 0 || axes[1] < 0 || axes[0] >= rank || axes[1] >= rank {
			return nil, "", fmt.Errorf("rows and columns need two different axes of %d, not %v", rank, axes)
		}
		row, col = axes[0], axes[1]
	default:
		row, col = planeAxes(t.Shape(), index)
	}
	fixed := make([]int, rank)
	for a, i := range index {
		switch {
		case a < 0 || a >= rank:
			return nil, "", fmt.Errorf("no axis %d in a tensor of rank %d", a, rank)
		case a == row || a == col:
			return nil, "", fmt.Errorf("axis %d is plotted; an index applies to the other axes", a)
		case i < 0 || i >= t.Shape()[a]:
			return nil, "", fmt.Errorf("index %d is outside axis %d of size %d", i, a, t.Shape()[a])
		}
		fixed[a] = i
	}
	p, err := tensor.Plane(t, row, col, fixed)
	if err != nil {
		return nil, "", err
	}
	if rank <= 2 && (axes == nil || (row == 0 && col == 1)) {
		return p, "", nil
	}
	parts := make([]string, rank)
	for a := range parts {
		switch a {
		case row:
			parts[a] = "rows"
		case col:
			parts[a] = "cols"
		default:
			parts[a] = strconv.Itoa(fixed[a])
		}
	}
	return p, fmt.Sprintf("plane [%s] of %s", strings.Join(parts, ", "), t), nil
}

// ExportShown writes the tensor the inspector shows to path (.npy, .csv or
// .tsr; .csv takes the heatmap's current plane) in the background. done
// receives a note for the user or the error.
func (d *Doc) ExportShown(path string, done func(note string, err error)) (*Task, error) {
	in := d.Inspector
	t, plane := in.Tensor(), in.heat.plane
	if t == nil {
		return nil, fmt.Errorf("select a tensor with values first")
	}
	if err := refuseInput(path, d.Doc); err != nil {
		return nil, err
	}
	what := in.ExportedValues()
	name := in.Entry().Name
	return Go(d, func(ctx context.Context, _ Progress) (string, error) {
		note, err := ExportTensorAs(ctx, path, name, t, plane)
		if what != "" {
			note = strings.TrimSpace(what + "\n" + note)
		}
		return note, err
	}, nil, done), nil
}

// ExportedValues says, for a quantised tensor, whether an export writes
// the integers as stored or the dequantised real values ("" for others).
func (in *Inspector) ExportedValues() string {
	if !in.Quantised() {
		return ""
	}
	if in.Dequantised() {
		return "Dequantised values (real numbers: scale × (stored − zero point)), not the stored integers."
	}
	return "Stored quantised integers, not dequantised (tick \"Show dequantised values\" to export real values)."
}
