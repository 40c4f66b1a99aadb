package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

func init() { register("stats", runStats) }

// tensorStats is one tensor's line of `stats --json`. Min, max, mean and
// std are over finite values and null when there are none; std is the
// population standard deviation.
type tensorStats struct {
	Name   string   `json:"name"`
	DType  string   `json:"dtype"`
	Part   string   `json:"part,omitempty"` // of a complex tensor: magnitude, real or imag
	Shape  []int    `json:"shape"`
	Count  int64    `json:"count"`
	Finite int64    `json:"finite"`
	NaN    int64    `json:"nan"`
	PosInf int64    `json:"posinf"`
	NegInf int64    `json:"neginf"`
	Zeros  int64    `json:"zeros"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
	Mean   *float64 `json:"mean"`
	Std    *float64 `json:"std"`
}

// runStats implements `tensorscope stats [--json] FILE [TENSOR...]`:
// statistics of the named tensors, or of every tensor with numeric data,
// computed by the tensor core over the stored values. Ctrl+C (or SIGTERM)
// stops it with status 130 (143) and prints nothing on stdout.
func runStats(args []string, stdout, stderr io.Writer) int {
	collectLate()
	c := newCommand("stats", "tensorscope stats [--json] [--part magnitude|real|imag] FILE [TENSOR...]")
	asJSON := c.flags.Bool("json", false, "print a JSON array with one object per tensor")
	part := tensor.Magnitude
	c.flags.Func("part", "the part of complex tensors summarised: "+strings.Join(tensor.ComplexPartNames, ", ")+" (default magnitude)", func(v string) (err error) {
		part, err = tensor.ParseComplexPart(v)
		return err
	})
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) < 1 {
		return c.usageError(stderr, "expected FILE")
	}
	path := pos[0]
	doc, status := openDocument(path, stderr)
	if doc == nil {
		return status
	}
	defer doc.Close()
	entries, err := selectTensors(doc, pos[1:])
	if err != nil {
		return fileError(stderr, path, err)
	}
	intr := catchInterrupts()
	defer intr.stop()
	out := make([]tensorStats, 0, len(entries))
	for _, e := range entries {
		st, err := statsOf(intr.ctx, e, part)
		if intr.caught() {
			fmt.Fprintf(stderr, "tensorscope stats: interrupted (%v)\n", intr.signal())
			return intr.status()
		}
		if err != nil {
			return fileError(stderr, path, err)
		}
		out = append(out, st)
	}
	if *asJSON {
		if err := writeStatsJSON(stdout, out); err != nil {
			return fileError(stderr, path, err)
		}
		return exitOK
	}
	writeStatsTable(stdout, out)
	return exitOK
}

// writeStatsJSON prints rows as json.Marshal prints the list, one row
// at a time: the whole list at once was a buffer of 25 MB (and its
// growth) for an archive of 100,000 arrays.
func writeStatsJSON(w io.Writer, rows []tensorStats) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteByte('[')
	for i := range rows {
		if i > 0 {
			bw.WriteByte(',')
		}
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	bw.WriteString("]\n")
	bw.Flush() // as before: a failed write of the output is not the file's error
	return nil
}

// selectTensors returns the named entries, or every entry with numeric
// data when no name is given (views derived from another tensor, such as a
// quantised tensor's scales, only when named: they repeat its data).
func selectTensors(doc *formats.Document, names []string) ([]*formats.TensorEntry, error) {
	if len(names) == 0 {
		var all []*formats.TensorEntry
		for _, e := range doc.Tensors {
			if e.HasData() && summarisable(e) && e.Role != formats.RoleDerived {
				all = append(all, e)
			}
		}
		return all, nil
	}
	var out []*formats.TensorEntry
	for _, n := range names {
		e := doc.Tensor(n)
		switch {
		case e == nil:
			return nil, fmt.Errorf("no tensor named %q (try `tensorscope info` for the list)", n)
		case !e.HasData():
			return nil, fmt.Errorf("tensor %q has no data in this file", n)
		case !summarisable(e):
			return nil, fmt.Errorf("tensor %q is %s, which has no real values to summarise", n, e.TypeString())
		}
		out = append(out, e)
	}
	return out, nil
}

// summarisable reports whether e has values stats can summarise: real
// numbers, or complex ones through one of their parts.
func summarisable(e *formats.TensorEntry) bool { return e.DType.Numeric() || e.DType.IsComplex() }

func statsOf(ctx context.Context, e *formats.TensorEntry, part tensor.ComplexPart) (tensorStats, error) {
	stored, err := e.Load(formats.Streamed(ctx)) // a remote tensor larger than the cache is read in pieces
	if err != nil {
		return tensorStats{}, err
	}
	t, partName := stored, ""
	if stored.DType().IsComplex() {
		if t, err = stored.ComplexPart(part); err != nil {
			return tensorStats{}, fmt.Errorf("tensor %q: %w", e.Name, err)
		}
		partName = part.String()
	}
	st, err := tensor.ComputeStats(ctx, t, nil)
	if err != nil {
		return tensorStats{}, fmt.Errorf("tensor %q: %w", e.Name, err)
	}
	shape := stored.Shape()
	if shape == nil {
		shape = []int{}
	}
	ts := tensorStats{Name: e.Name, DType: stored.DType().String(), Part: partName, Shape: shape, Count: st.Count, Finite: st.Finite,
		NaN: st.NaN, PosInf: st.PosInf, NegInf: st.NegInf, Zeros: st.Zeros}
	if st.Finite > 0 {
		ts.Min, ts.Max, ts.Mean, ts.Std = finite(st.Min), finite(st.Max), finite(st.Mean), finite(st.Std)
	}
	return ts, nil
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func writeStatsTable(w io.Writer, rows []tensorStats) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no tensors with data")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "name\tdtype\tshape\tcount\tnan\t+inf\t-inf\tzeros\tmin\tmax\tmean\tstd")
	num := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return textfmt.Float(*p, 6)
	}
	for _, r := range rows {
		dtype := r.DType
		if r.Part != "" {
			dtype += " (" + r.Part + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", r.Name, dtype, textfmt.Dims(r.Shape),
			r.Count, r.NaN, r.PosInf, r.NegInf, r.Zeros, num(r.Min), num(r.Max), num(r.Mean), num(r.Std))
	}
	tw.Flush()
}
