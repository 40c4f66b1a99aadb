package viewmodel

import (
	"context"
	"fmt"
	"math"
	"strings"

	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// SummaryPercentiles are the percentiles shown under the summary line.
var SummaryPercentiles = []float64{1, 5, 50, 95, 99}

type summaryResult struct {
	done     bool
	stats    tensor.Stats
	hist4096 *tensor.Histogram // whole tensor over [min, max]; nil without finite values
	pcts     []float64
}

func (in *Inspector) startSummary() {
	t := in.shown
	in.setProgress("Statistics", 0)
	in.summaryTask = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (summaryResult, error) {
		return computeSummary(ctx, t, progress)
	}, func(f float64) { in.setProgress("Statistics", f) }, func(r summaryResult, err error) {
		in.summaryTask = nil
		in.clearProgress("Statistics")
		if err != nil {
			in.err = err
			in.changed(ChangedTensor)
			return
		}
		in.summary = r
		in.changed(ChangedSummary)
		// Whole-tensor colour ranges were waiting for the statistics; a
		// heatmap still running checks the range when it ends.
		if m := in.heat.rangeMode; in.heat.task == nil && (m == RangeAuto || m == RangeSymmetric) {
			in.recolour()
		}
		in.startHistogram()
	})
}

// computeSummary makes two passes: statistics, then a 4096-bin histogram
// over [min, max] that gives the percentiles and every whole-tensor
// histogram with a power-of-two bin count by merging bins.
func computeSummary(ctx context.Context, t *tensor.Tensor, progress Progress) (summaryResult, error) {
	n := int64(t.Len())
	st, err := tensor.ComputeStats(ctx, t, func(done, total int64) { progress(done, 2*n) })
	if err != nil {
		return summaryResult{}, err
	}
	r := summaryResult{done: true, stats: st}
	if st.Finite == 0 {
		return r, nil
	}
	h, err := tensor.ComputeHistogram(ctx, t, tensor.PercentileBins, st.Min, st.Max,
		func(done, total int64) { progress(n+done, 2*n) })
	if err != nil {
		return summaryResult{}, err
	}
	r.hist4096 = h
	for _, p := range SummaryPercentiles {
		// The estimate lies within its bin, which may reach past the
		// values: a constant tensor's one bin is widened to have a width.
		r.pcts = append(r.pcts, min(max(h.Percentile(p), st.Min), st.Max))
	}
	return r, nil
}

// Stats returns the tensor's statistics once computed.
func (in *Inspector) Stats() (tensor.Stats, bool) { return in.summary.stats, in.summary.done }

// Segment is a piece of text; Alert pieces are shown in a warning colour
// (NaN and Inf counts that are not zero).
type Segment struct {
	Text  string
	Alert bool
}

// SummaryLine is the one-line summary in the spirit of lovely-tensors:
//
//	float32[128,784] n=100352 x∈[-0.41, 0.39] μ=0.0012 σ=0.051 zeros 0.3% nan 0 inf 0
func (in *Inspector) SummaryLine() []Segment {
	if in.entry == nil {
		return nil
	}
	head := textfmt.TypedShape(in.entry.DType, in.entry.Shape)
	if in.entry.TypeName != "" {
		head = in.entry.TypeName + strings.TrimPrefix(head, in.entry.DType.String())
	}
	if in.shown != nil && in.shown.DType() != in.entry.DType {
		head += " → " + in.shown.DType().String()
	}
	if in.view.inEffect != nil && in.shown != nil {
		head += " viewed as " + strings.TrimPrefix(tensor.FormatShape(in.shown.DType(), in.shown.Shape()), in.shown.DType().String())
	}
	if !in.summary.done {
		return []Segment{{Text: head}}
	}
	s := in.summary.stats
	var b strings.Builder
	fmt.Fprintf(&b, "%s n=%d", head, s.Count)
	if s.Finite > 0 {
		fmt.Fprintf(&b, " x∈[%s, %s] μ=%s σ=%s", sig4(s.Min), sig4(s.Max), sig4(s.Mean), sig4(s.Std))
	}
	zeros := 0.0
	if s.Count > 0 {
		zeros = 100 * float64(s.Zeros) / float64(s.Count)
	}
	fmt.Fprintf(&b, " zeros %s%%", strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", zeros), "0"), "."))
	segs := []Segment{{Text: b.String()}}
	segs = append(segs, Segment{Text: fmt.Sprintf(" nan %d", s.NaN), Alert: s.NaN > 0})
	inf := s.PosInf + s.NegInf
	infText := fmt.Sprintf(" inf %d", inf)
	if inf > 0 {
		infText = fmt.Sprintf(" inf %d (+%d −%d)", inf, s.PosInf, s.NegInf)
	}
	segs = append(segs, Segment{Text: infText, Alert: inf > 0})
	return segs
}

// SummaryText is SummaryLine as plain text.
func (in *Inspector) SummaryText() string {
	var b strings.Builder
	for _, s := range in.SummaryLine() {
		b.WriteString(s.Text)
	}
	return b.String()
}

// AlertText spells non-zero NaN and Inf counts ("1 NaN, 2 infinite (+1
// −1)"), or returns "" when every value is finite.
func (in *Inspector) AlertText() string {
	if !in.summary.done {
		return ""
	}
	s := in.summary.stats
	var parts []string
	if s.NaN > 0 {
		parts = append(parts, fmt.Sprintf("%d NaN", s.NaN))
	}
	if inf := s.PosInf + s.NegInf; inf > 0 {
		parts = append(parts, fmt.Sprintf("%d infinite (+%d −%d)", inf, s.PosInf, s.NegInf))
	}
	if len(parts) == 0 {
		return ""
	}
	return "⚠ " + strings.Join(parts, ", ")
}

// PercentileLine spells the percentiles, noting their resolution.
func (in *Inspector) PercentileLine() string {
	if len(in.summary.pcts) == 0 {
		return ""
	}
	var b strings.Builder
	for i, p := range SummaryPercentiles {
		if i > 0 {
			b.WriteString("  ")
		}
		fmt.Fprintf(&b, "p%g %s", p, sig4(in.summary.pcts[i]))
	}
	if st := in.summary.stats; st.Min < st.Max { // else every percentile is the one value, exactly
		h := in.summary.hist4096
		fmt.Fprintf(&b, "   (±%s: one bin of %d)", sig4((h.Hi-h.Lo)/tensor.PercentileBins), tensor.PercentileBins)
	}
	return b.String()
}

// sig4 prints 4 significant digits, integers in full.
func sig4(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return textfmt.Float(v, 4)
}
