package compare

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"tensorscope/viewmodel/textfmt"
)

// PairColumn is a column of the comparison tab's table of pairs: the
// columns `tensorscope diff` prints, in its order.
type PairColumn int

const (
	PairName PairColumn = iota
	PairDType
	PairShape
	PairMaxAbs
	PairMeanAbs
	PairRMSE
	PairRelL2
	PairCosine
	PairNaN
	PairInf
	PairOverTol
)

// PairColumnTitles head the columns, as `tensorscope diff` heads them.
var PairColumnTitles = [...]string{"name", "dtype", "shape", "max_abs", "mean_abs", "rmse", "rel_l2", "cosine", "nan≠", "inf≠", "over_tol"}

// PairColumns is every column, in order.
var PairColumns = func() []PairColumn {
	out := make([]PairColumn, len(PairColumnTitles))
	for i := range out {
		out[i] = PairColumn(i)
	}
	return out
}()

// Numeric reports whether col holds figures (right-aligned, sorted by
// value).
func (col PairColumn) Numeric() bool { return col >= PairMaxAbs }

// pairSort is the order of the listed pairs: by one column, or (when not
// sorted) most different first, as `tensorscope diff` prints them.
type pairSort struct {
	sorted bool
	col    PairColumn
	desc   bool
}

// SortBy sorts the pairs by col. The first choice of a column puts the
// most different pairs first (the largest errors and counts, the smallest
// cosine; names, dtypes and shapes A to Z), the second reverses that, the
// third returns to the default order, most different first by relative
// error. Pairs without the figure (not compared, or undefined) stay last.
func (c *Comparison) SortBy(col PairColumn) {
	first := col.Numeric() && col != PairCosine // descending first
	switch {
	case !c.sort.sorted || c.sort.col != col:
		c.sort = pairSort{sorted: true, col: col, desc: first}
	case c.sort.desc == first:
		c.sort.desc = !first
	default:
		c.sort = pairSort{}
	}
	c.refilter()
	c.changed(ChangedRows)
}

// Sort reports the column the pairs are sorted by and its direction; ok
// is false in the default order.
func (c *Comparison) Sort() (col PairColumn, desc, ok bool) {
	return c.sort.col, c.sort.desc, c.sort.sorted
}

// sortRows orders c.rows by the chosen column; ties keep the default
// order.
func (c *Comparison) sortRows() {
	if !c.sort.sorted {
		return
	}
	col, desc := c.sort.col, c.sort.desc
	slices.SortStableFunc(c.rows, func(x, y int) int {
		fx, fy := &c.figures[x], &c.figures[y]
		if col.Numeric() {
			vx, okx := figure(fx, col)
			vy, oky := figure(fy, col)
			switch {
			case !okx || !oky:
				return boolOrder(okx, oky) // without a figure: last
			case desc:
				return cmp.Compare(vy, vx)
			}
			return cmp.Compare(vx, vy)
		}
		r := strings.Compare(textCell(fx, col), textCell(fy, col))
		if desc {
			return -r
		}
		return r
	})
}

// boolOrder puts true before false.
func boolOrder(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return -1
	}
	return 1
}

// figure is the value of a numeric column; ok is false when the pair was
// not compared or the figure is undefined.
func figure(f *PairFigures, col PairColumn) (float64, bool) {
	if !f.Compared() {
		return 0, false
	}
	switch col {
	case PairMaxAbs:
		return f.MaxAbs()
	case PairMeanAbs:
		return f.MeanAbs()
	case PairRMSE:
		return f.RMSE()
	case PairRelL2:
		return f.RelL2()
	case PairCosine:
		return f.Cosine()
	case PairNaN:
		return float64(f.Diff.NaNMismatch), true
	case PairInf:
		return float64(f.Diff.InfMismatch), true
	case PairOverTol:
		return float64(f.Diff.OverTol), true
	}
	return math.NaN(), false
}

// textCell is a text column's cell.
func textCell(f *PairFigures, col PairColumn) string {
	switch col {
	case PairName:
		return f.Name
	case PairDType:
		if f.DTypeB != f.DTypeA {
			return f.DTypeA.String() + "/" + f.DTypeB.String()
		}
		return f.DTypeA.String()
	case PairShape:
		if !f.Compared() && f.NotCompared == "shapes differ" {
			return textfmt.Dims(f.ShapeA) + "/" + textfmt.Dims(f.ShapeB)
		}
		return textfmt.Dims(f.ShapeA)
	}
	return ""
}

// Cell is the text of listed row i in column col. A pair that was not
// compared says why in its first figure's cell; an undefined figure is
// "–".
func (c *Comparison) Cell(i int, col PairColumn) string {
	f := c.Row(i)
	if f == nil {
		return ""
	}
	if !col.Numeric() {
		return textCell(f, col)
	}
	if !f.Compared() {
		if col == PairMaxAbs {
			return "not compared: " + f.NotCompared
		}
		return ""
	}
	v, ok := figure(f, col)
	switch {
	case !ok:
		return "–"
	case col >= PairNaN:
		return textfmt.Count(int64(v))
	}
	return textfmt.Float(v, 4)
}

// LongestCells are up to n of column col's longest texts over every pair,
// for sizing the column.
func (c *Comparison) LongestCells(col PairColumn, n int) []string {
	texts := make([]string, 0, len(c.figures))
	for i := range c.figures {
		f := &c.figures[i]
		if !col.Numeric() {
			texts = append(texts, textCell(f, col))
		} else if v, ok := figure(f, col); ok {
			if col >= PairNaN {
				texts = append(texts, textfmt.Count(int64(v)))
			} else {
				texts = append(texts, textfmt.Float(v, 4))
			}
		}
	}
	slices.SortFunc(texts, func(x, y string) int { return cmp.Compare(len(y), len(x)) })
	return texts[:min(n, len(texts))]
}

// SelectedRow is the listed row of the selected pair, −1 when none is
// selected or the filter hides it.
func (c *Comparison) SelectedRow() int {
	if c.pair == nil {
		return -1
	}
	for i, idx := range c.rows {
		if &c.figures[idx] == c.pair.figures {
			return i
		}
	}
	return -1
}
