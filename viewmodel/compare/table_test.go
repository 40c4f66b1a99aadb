package compare

import (
	"image/color"
	"math"
	"slices"
	"testing"

	"tensorscope/viewmodel"
)

// threePairs compares three tensors of four values: "big" differs most
// by relative error, "neg" has the largest absolute error but is large
// itself, "same" is identical.
func threePairs(t *testing.T) *Comparison {
	t.Helper()
	names := []string{"same", "neg", "big"}
	shapes := map[string][]int32{"same": {4}, "neg": {4}, "big": {4}}
	a := modelBytes(t, names, map[string][]float32{"same": {1, 2, 3, 4}, "neg": {-100, 100, -100, 100}, "big": {1, 1, 1, 1}}, shapes, false)
	b := modelBytes(t, names, map[string][]float32{"same": {1, 2, 3, 4}, "neg": {-90, 100, -100, 100}, "big": {2, 1, 1, 1}}, shapes, false)
	q := viewmodel.NewQueue()
	c := NewComparison(q.Post, viewmodel.Source{Name: "a.tmfile", Data: a}, viewmodel.Source{Name: "b.tmfile", Data: b}, DefaultTolerance)
	drainComparison(t, q, c)
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	t.Cleanup(func() { waitUnmapped(t, c.Close()) })
	return c
}

func listedNames(c *Comparison) []string {
	var out []string
	for i := 0; i < c.Rows(); i++ {
		out = append(out, c.Cell(i, PairName))
	}
	return out
}

// TestComparisonSortsByAnyColumn: each column sorts most different first,
// then reversed, then back to the default order; the selected pair stays
// selected whatever the order.
func TestComparisonSortsByAnyColumn(t *testing.T) {
	c := threePairs(t)
	byError := []string{"big", "neg", "same"}
	if got := listedNames(c); !slices.Equal(got, byError) {
		t.Fatalf("default order %v, want %v", got, byError)
	}
	c.Select(1) // neg
	steps := []struct {
		col  PairColumn
		want []string
		desc bool
	}{
		{PairMaxAbs, []string{"neg", "big", "same"}, true},
		{PairMaxAbs, []string{"same", "big", "neg"}, false},
		{PairMaxAbs, byError, false}, // the third time: the default order
		{PairCosine, []string{"big", "neg", "same"}, false},
		{PairCosine, []string{"same", "neg", "big"}, true},
		{PairName, []string{"big", "neg", "same"}, false},
		{PairName, []string{"same", "neg", "big"}, true},
		{PairOverTol, []string{"big", "neg", "same"}, true}, // 1 each: ties keep the default order
	}
	for i, s := range steps {
		c.SortBy(s.col)
		if got := listedNames(c); !slices.Equal(got, s.want) {
			t.Errorf("step %d, sort by %s: %v, want %v", i, PairColumnTitles[s.col], got, s.want)
		}
		if col, desc, ok := c.Sort(); ok && (col != s.col || desc != s.desc) {
			t.Errorf("step %d: Sort() = %s desc %v, want %s desc %v", i, PairColumnTitles[col], desc, PairColumnTitles[s.col], s.desc)
		}
		if r := c.SelectedRow(); r < 0 || c.Cell(r, PairName) != "neg" {
			t.Errorf("step %d: the selected row is %d, not neg's", i, r)
		}
	}
	c.SetFilter("e") // neg, same
	if got := listedNames(c); !slices.Equal(got, []string{"neg", "same"}) {
		t.Errorf("filtered and sorted by over_tol: %v", got)
	}
}

// TestComparisonCellsAreDiffsColumns: the table's columns are diff's, and
// a pair that was not compared says so and sorts last by any figure.
func TestComparisonCellsAreDiffsColumns(t *testing.T) {
	want := []string{"name", "dtype", "shape", "max_abs", "mean_abs", "rmse", "rel_l2", "cosine", "nan≠", "inf≠", "over_tol"}
	if !slices.Equal(PairColumnTitles[:], want) {
		t.Errorf("columns %v, want %v", PairColumnTitles, want)
	}
	shapes := map[string][]int32{"x": {4}, "y": {4}}
	a := modelBytes(t, []string{"x", "y"}, map[string][]float32{"x": {1, 2, 3, 4}, "y": {1, 2, 3, 4}}, shapes, false)
	shapesB := map[string][]int32{"x": {2, 2}, "y": {4}}
	b := modelBytes(t, []string{"x", "y"}, map[string][]float32{"x": {1, 2, 3, 4}, "y": {1, 2, 3, 5}}, shapesB, false)
	q := viewmodel.NewQueue()
	c := NewComparison(q.Post, viewmodel.Source{Name: "a.tmfile", Data: a}, viewmodel.Source{Name: "b.tmfile", Data: b}, DefaultTolerance)
	drainComparison(t, q, c)
	t.Cleanup(func() { waitUnmapped(t, c.Close()) })
	for _, col := range []PairColumn{PairMaxAbs, PairRMSE, PairCosine} {
		c.SortBy(col)
		if got := listedNames(c); !slices.Equal(got, []string{"y", "x"}) {
			t.Errorf("sorted by %s: %v, want the pair not compared last", PairColumnTitles[col], got)
		}
		for _, _, ok := c.Sort(); ok; _, _, ok = c.Sort() {
			c.SortBy(col) // back to the default order
		}
	}
	row := slices.Index(listedNames(c), "x")
	if got := c.Cell(row, PairShape); got != "[4]/[2, 2]" {
		t.Errorf("shape of x: %q", got)
	}
	if got := c.Cell(row, PairMaxAbs); got != "not compared: shapes differ" {
		t.Errorf("max_abs of x: %q", got)
	}
}

// TestComparisonSpecialsStandApartFromEveryMap: the comparison's NaN, +Inf
// and −Inf colours are far from every colour of every map A and B may use
// and of A−B's, and from each other, so that a non-finite cell never reads
// as a value.
func TestComparisonSpecialsStandApartFromEveryMap(t *testing.T) {
	specials := map[string]color.NRGBA{"NaN": SpecialNaN, "+Inf": SpecialPosInf, "−Inf": SpecialNegInf}
	dist := func(a, b color.NRGBA) float64 {
		dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
		return math.Sqrt(dr*dr + dg*dg + db*db)
	}
	const least = 120 // of 441 across the RGB cube
	for name, c := range specials {
		for _, m := range viewmodel.Colormaps {
			for i := 0; i < 256; i++ {
				if d := dist(c, m.At(float64(i)/255)); d < least {
					t.Errorf("%s %v is %.0f from %s's colour %d", name, c, d, m.Name, i)
					break
				}
			}
		}
		for other, o := range specials {
			if other != name && dist(c, o) < least {
				t.Errorf("%s and %s are too alike", name, other)
			}
		}
	}
}
