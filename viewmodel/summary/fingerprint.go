package summary

import (
	"fmt"
	"math"
	"strings"
)

// Metric is a figure the fingerprint and the plots colour or draw by.
type Metric int

const (
	MetricStd Metric = iota
	MetricAbsMax
	MetricKurtosis
	MetricOutlierRatio
	MetricZeros // the share of elements that are zero
	MetricL2
)

// MetricNames are the metrics' names, as --metric takes them.
var MetricNames = []string{"std", "absmax", "kurtosis", "outlier_ratio", "zeros", "l2"}

func (m Metric) String() string { return MetricNames[m] }

// Label is how a legend names the metric.
func (m Metric) Label() string {
	if m == MetricZeros {
		return "zeros (share)"
	}
	return m.String()
}

// ParseMetric returns the metric named s.
func ParseMetric(s string) (Metric, error) {
	for i, n := range MetricNames {
		if n == s {
			return Metric(i), nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q (choose %s)", s, strings.Join(MetricNames, ", "))
}

// Value is t's metric, NaN when not computed or undefined.
func (t *Tensor) Value(m Metric) float64 {
	if t == nil || !t.Done {
		return math.NaN()
	}
	s := t.Summary
	switch m {
	case MetricStd, MetricAbsMax:
		if s.Finite == 0 {
			return math.NaN()
		}
		if m == MetricStd {
			return s.Std
		}
		return s.AbsMax
	case MetricKurtosis:
		return s.Kurtosis
	case MetricOutlierRatio:
		return t.OutlierRatio
	case MetricZeros:
		if s.Count == 0 {
			return math.NaN()
		}
		return float64(s.Zeros) / float64(s.Count)
	case MetricL2:
		return s.L2
	}
	return math.NaN()
}

// Fingerprint is a block's metric as a grid: one row per index, one column
// per role. Cells whose tensor is missing or whose value is undefined are
// NaN. Lo and Hi span the finite values (both NaN when there are none).
type Fingerprint struct {
	Prefix  string
	Metric  Metric
	Indices []int
	Roles   []string
	Values  [][]float64 // [row][column]
	Tensors [][]*Tensor // [row][column], nil where there is none
	Lo, Hi  float64
}

// Fingerprint returns block b's grid of metric m.
func (m *Model) Fingerprint(b int, metric Metric) *Fingerprint {
	blk := m.Blocks[b]
	fp := &Fingerprint{Prefix: blk.Prefix, Metric: metric, Indices: blk.Indices, Roles: blk.Roles,
		Lo: math.NaN(), Hi: math.NaN()}
	row := map[int]int{}
	for i, idx := range blk.Indices {
		row[idx] = i
	}
	col := map[string]int{}
	for j, r := range blk.Roles {
		col[r] = j
	}
	fp.Values = make([][]float64, len(blk.Indices))
	fp.Tensors = make([][]*Tensor, len(blk.Indices))
	for i := range fp.Values {
		fp.Values[i] = make([]float64, len(blk.Roles))
		fp.Tensors[i] = make([]*Tensor, len(blk.Roles))
		for j := range fp.Values[i] {
			fp.Values[i][j] = math.NaN()
		}
	}
	for _, t := range m.Tensors {
		if !t.InBlock || t.Prefix != blk.Prefix {
			continue
		}
		i, j := row[t.Index], col[t.Role]
		fp.Tensors[i][j] = t
		v := t.Value(metric)
		fp.Values[i][j] = v
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if math.IsNaN(fp.Lo) || v < fp.Lo {
			fp.Lo = v
		}
		if math.IsNaN(fp.Hi) || v > fp.Hi {
			fp.Hi = v
		}
	}
	return fp
}

// Point is one tensor's metric at its layer index.
type Point struct {
	Index   int
	Value   float64
	Flagged bool
	Tensor  *Tensor
}

// Series is one role's metric against the layer index.
type Series struct {
	Role   string
	Points []Point // by index; undefined values left out
}

// Layers returns, for block b, each role's metric against the index.
func (m *Model) Layers(b int, metric Metric) []Series {
	fp := m.Fingerprint(b, metric)
	out := make([]Series, len(fp.Roles))
	for j, role := range fp.Roles {
		out[j].Role = role
		for i, idx := range fp.Indices {
			t, v := fp.Tensors[i][j], fp.Values[i][j]
			if t == nil || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			out[j].Points = append(out[j].Points, Point{Index: idx, Value: v, Flagged: len(t.Flags) > 0, Tensor: t})
		}
	}
	return out
}

// LargestBlock is the index in Blocks of the block with the most tensors
// (the layers of a model, rather than a few numbered extras), -1 when
// there are no blocks.
func (m *Model) LargestBlock() int {
	best, n := -1, 0
	for i, b := range m.Blocks {
		if k := len(b.Indices) * len(b.Roles); k > n {
			best, n = i, k
		}
	}
	return best
}
