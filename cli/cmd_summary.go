package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

func init() { register("summary", runSummary) }

// runSummary implements `tensorscope summary [--json] FILE`: every tensor's
// health figures in one pass per tensor, the blocks (layers) and the flags.
// Ctrl+C (or SIGTERM) stops it with status 130 (143) and prints nothing on
// stdout.
func runSummary(args []string, stdout, stderr io.Writer) int {
	collectLate()
	c := newCommand("summary", "tensorscope summary [--json] FILE")
	asJSON := c.flags.Bool("json", false, "print one JSON object: totals, tensors with figures and flags, blocks")
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.usageError(stderr, "expected one FILE")
	}
	path := pos[0]
	doc, status := openDocument(path, stderr)
	if doc == nil {
		return status
	}
	defer doc.Close()
	intr := catchInterrupts()
	defer intr.stop()
	m := summary.New(doc)
	err := m.Compute(intr.ctx, doc, nil, nil)
	if intr.caught() {
		fmt.Fprintf(stderr, "tensorscope summary: interrupted (%v)\n", intr.signal())
		return intr.status()
	}
	if err != nil {
		return fileError(stderr, path, err)
	}
	if *asJSON {
		b, err := json.Marshal(m)
		if err != nil {
			return fileError(stderr, path, err)
		}
		stdout.Write(append(b, '\n'))
		return exitOK
	}
	writeSummaryText(stdout, m)
	return exitOK
}

// writeSummaryText prints the totals, the flagged tensors, then every
// tensor's figures.
func writeSummaryText(w io.Writer, m *summary.Model) {
	t := m.Totals
	fmt.Fprintf(w, "%s: %d tensors, %s parameters, %s\n", m.Path, t.Tensors, textfmt.Count(t.Params), textfmt.Bytes(t.Bytes))
	for _, d := range t.DTypes {
		s := t.ByDType[d]
		fmt.Fprintf(w, "  %-10s %5d tensors  %14s parameters  %10s\n", d, s.Tensors, textfmt.Count(s.Params), textfmt.Bytes(s.Bytes))
	}
	var blocks []string
	for _, b := range m.Blocks {
		blocks = append(blocks, fmt.Sprintf("%s (%d indices × %d roles)", blockName(b.Prefix), len(b.Indices), len(b.Roles)))
	}
	if len(blocks) > 0 {
		fmt.Fprintf(w, "blocks: %s\n", strings.Join(blocks, ", "))
	}
	fmt.Fprintln(w)
	var flagged []*summary.Tensor
	for _, x := range m.Tensors {
		if len(x.Flags) > 0 {
			flagged = append(flagged, x)
		}
	}
	if len(flagged) == 0 {
		fmt.Fprintln(w, "flagged: none")
	} else {
		fmt.Fprintf(w, "flagged (%d):\n", len(flagged))
		tw := newTable(w)
		for _, x := range flagged {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", x.Name, strings.Join(x.Flags, ", "), flagDetail(x))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	if len(m.Tensors) == 0 {
		fmt.Fprintln(w, "no tensors with data")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "name\tdtype\tshape\tparams\tzeros\tmin\tmax\tmean\tstd\tabsmax\tl2\tkurtosis\toutlier\tdead rows\tflags")
	for _, x := range m.Tensors {
		s := x.Summary
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", x.Name, x.DType, textfmt.Dims(x.Shape),
			x.Params, s.Zeros, num(s.Finite, s.Min), num(s.Finite, s.Max), num(s.Finite, s.Mean), num(s.Finite, s.Std),
			num(s.Finite, s.AbsMax), num(1, s.L2), num(1, s.Kurtosis), num(1, x.OutlierRatio), s.DeadRows, strings.Join(x.Flags, ","))
	}
	tw.Flush()
}

func blockName(prefix string) string {
	if prefix == "" {
		return "(no prefix)"
	}
	return prefix
}

// num formats a figure, "-" when undefined.
func num(finite int64, v float64) string {
	if finite == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return textfmt.Float(v, 6)
}

// flagDetail says in a few words what the flags found.
func flagDetail(x *summary.Tensor) string {
	s := x.Summary
	var parts []string
	if s.NaN > 0 {
		parts = append(parts, fmt.Sprintf("%d NaN", s.NaN))
	}
	if s.PosInf+s.NegInf > 0 {
		parts = append(parts, fmt.Sprintf("%d inf", s.PosInf+s.NegInf))
	}
	if x.Has(summary.FlagConstant) {
		parts = append(parts, "every value "+textfmt.Float(s.Min, 6))
	}
	if s.DeadRows > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d rows all zero", s.DeadRows, x.Shape[0]))
	}
	if x.Has(summary.FlagLayerAnomaly) {
		parts = append(parts, "std "+textfmt.Float(s.Std, 4)+" far from its siblings'")
	}
	return strings.Join(parts, "; ")
}
