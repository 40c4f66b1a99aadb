package viewmodel

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// ExportTensor writes t to path in the format its ending names: .csv
// writes plane (a 2-D view of t such as TensorPlane returns) as text, any
// other ending the whole tensor through the format's encoder (.npy, .tsr,
// .safetensors, named "tensor"; see ExportTensorAs). It writes through a
// temporary file renamed into place; cancelling ctx stops the export and
// removes the temporary file. The note says what the user should know
// about the result (a widened dtype, the TSR generation), or is empty.
func ExportTensor(ctx context.Context, path string, t, plane *tensor.Tensor) (note string, err error) {
	return ExportTensorAs(ctx, path, "tensor", t, plane)
}

// ExportTensorAs is ExportTensor with the name formats that name their
// tensors (.safetensors) store it under.
func ExportTensorAs(ctx context.Context, path, name string, t, plane *tensor.Tensor) (note string, err error) {
	write := func(w io.Writer) (string, error) { return "", WriteCSV(ctx, w, plane) }
	if !strings.EqualFold(filepath.Ext(path), formats.CSVExtension) {
		enc, err := formats.EncoderFor(path)
		if err != nil {
			return "", fmt.Errorf("export %s: choose a name ending in %s", filepath.Base(path), strings.Join(formats.TensorExportExtensions(), ", "))
		}
		write = func(w io.Writer) (string, error) {
			return enc.Write(ctx, w, []formats.Named{{Name: name, Tensor: t}}, nil)
		}
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
	widened := csvWidens(plane.DType())
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

// csvWidens reports whether WriteCSV writes dt's values as float32: the
// numeric types NumPy has no dtype for, which .npy exports widen too.
func csvWidens(dt tensor.DType) bool {
	switch dt {
	case tensor.Bool, tensor.Int8, tensor.Uint8, tensor.Int16, tensor.Uint16, tensor.Int32, tensor.Uint32,
		tensor.Int64, tensor.Uint64, tensor.Float16, tensor.Float32, tensor.Float64, tensor.Complex64, tensor.Complex128:
		return false
	}
	return dt.Numeric() && !dt.IsTime()
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
