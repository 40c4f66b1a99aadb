package tensor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// refDownsample reduces every cell of the plane naively, element by element
// through naiveAt. For means it also returns each cell's error bound for a
// float64 sum, n·ε·max|v|: the exact mean of 3.4e38, −3.4e38 and 1 is
// beyond any float64 summation.
func refDownsample(p *Tensor, maxRows, maxCols int, r Reduction) (*Grid, []float64) {
	rows, cols := p.Shape()[0], p.Shape()[1]
	if rows == 0 || cols == 0 {
		return &Grid{RowStep: 1, ColStep: 1, SrcRows: rows, SrcCols: cols, Reduction: r, Values: []float64{}}, nil
	}
	rowStep, colStep := (rows+maxRows-1)/maxRows, (cols+maxCols-1)/maxCols
	g := &Grid{Rows: (rows + rowStep - 1) / rowStep, Cols: (cols + colStep - 1) / colStep,
		RowStep: rowStep, ColStep: colStep, SrcRows: rows, SrcCols: cols, Reduction: r}
	n := g.Rows * g.Cols
	tol := make([]float64, n)
	g.Values = make([]float64, n)
	g.NaN, g.PosInf, g.NegInf = make([]int64, n), make([]int64, n), make([]int64, n)
	for gr := range g.Rows {
		for gc := range g.Cols {
			k := gr*g.Cols + gc
			var finite []float64
			for i := gr * rowStep; i < min((gr+1)*rowStep, rows); i++ {
				for j := gc * colStep; j < min((gc+1)*colStep, cols); j++ {
					switch v := naiveAt(p, []int{i, j}); {
					case v != v:
						g.NaN[k]++
					case math.IsInf(v, 1):
						g.PosInf[k]++
					case math.IsInf(v, -1):
						g.NegInf[k]++
					default:
						finite = append(finite, v)
					}
				}
			}
			g.Values[k] = math.NaN()
			if len(finite) == 0 {
				continue
			}
			switch r {
			case ReduceMean:
				sum := new(big.Float).SetPrec(2400)
				for _, v := range finite {
					sum.Add(sum, big.NewFloat(v))
				}
				g.Values[k], _ = sum.Quo(sum, big.NewFloat(float64(len(finite)))).Float64()
				for _, v := range finite {
					tol[k] = max(tol[k], math.Abs(v))
				}
				tol[k] *= float64(len(finite)+4) * 0x1p-52
			case ReduceMin, ReduceMax, ReduceAbsMax:
				e := finite[0]
				for _, v := range finite {
					switch r {
					case ReduceMin:
						e = min(e, v)
					case ReduceMax:
						e = max(e, v)
					default:
						e = max(math.Abs(e), math.Abs(v))
					}
				}
				g.Values[k] = e
			}
		}
	}
	g.dropEmptyCounts()
	return g, tol
}

func compareGrids(got, want *Grid, tol []float64) error {
	if got.Rows != want.Rows || got.Cols != want.Cols || got.RowStep != want.RowStep || got.ColStep != want.ColStep ||
		got.SrcRows != want.SrcRows || got.SrcCols != want.SrcCols || got.Reduction != want.Reduction {
		return fmt.Errorf("geometry %d×%d step %d×%d of %d×%d (%v), want %d×%d step %d×%d of %d×%d (%v)",
			got.Rows, got.Cols, got.RowStep, got.ColStep, got.SrcRows, got.SrcCols, got.Reduction,
			want.Rows, want.Cols, want.RowStep, want.ColStep, want.SrcRows, want.SrcCols, want.Reduction)
	}
	for k := range want.Values {
		g, w := got.Values[k], want.Values[k]
		if (w != w) != (g != g) || (w == w && math.Abs(g-w) > tol[k]) {
			return fmt.Errorf("cell %d,%d = %v, want %v", k/want.Cols, k%want.Cols, g, w)
		}
	}
	for _, c := range []struct {
		name      string
		got, want []int64
	}{{"NaN", got.NaN, want.NaN}, {"+Inf", got.PosInf, want.PosInf}, {"-Inf", got.NegInf, want.NegInf}} {
		if (c.got == nil) != (c.want == nil) {
			return fmt.Errorf("%s counts %v, want %v", c.name, c.got != nil, c.want != nil)
		}
		for k := range c.want {
			if c.got[k] != c.want[k] {
				return fmt.Errorf("%s count of cell %d = %d, want %d", c.name, k, c.got[k], c.want[k])
			}
		}
	}
	return nil
}

// checkGrid compares got with the naive reduction of p.
func checkGrid(got *Grid, p *Tensor, maxRows, maxCols int, r Reduction) error {
	want, tol := refDownsample(p, maxRows, maxCols, r)
	return compareGrids(got, want, tol)
}

func TestDownsampleMatchesNaiveReduction(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ctx := context.Background()
	reductions := []Reduction{ReduceMean, ReduceMin, ReduceMax, ReduceAbsMax}
	grids := [][2]int{{1, 1}, {3, 4}, {7, 5}, {64, 64}, {1000, 1000}}
	for _, dt := range []DType{Float32, Float64, Float16, Int8, Uint32} {
		x := randomTensor(t, rng, dt, 3*37*53, 0.02)
		m, err := x.View([]int{3, 37, 53})
		if err != nil {
			t.Fatal(err)
		}
		planes := map[string]func() (*Tensor, error){
			"rows×cols":        func() (*Tensor, error) { return Plane(m, 1, 2, []int{1, 0, 0}) },
			"transposed":       func() (*Tensor, error) { return Plane(m, 2, 1, []int{2, 0, 0}) },
			"strided":          func() (*Tensor, error) { return Plane(m, 0, 1, []int{0, 0, 7}) },
			"single row":       func() (*Tensor, error) { return Plane(m, -1, 2, []int{1, 5, 0}) },
			"single column":    func() (*Tensor, error) { return Plane(m, 1, -1, []int{2, 0, 9}) },
			"flattened matrix": func() (*Tensor, error) { return Plane(x, -1, 0, nil) },
		}
		for name, mk := range planes {
			p, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range reductions {
				for _, gs := range grids {
					got, err := Downsample(ctx, p, gs[0], gs[1], r, nil)
					if err != nil {
						t.Fatal(err)
					}
					if err := checkGrid(got, p, gs[0], gs[1], r); err != nil {
						t.Fatalf("%s %s %v to %v: %v", dt, name, r, gs, err)
					}
				}
			}
		}
	}
}

// A plane whose rows are longer than a cancellation step, and cells wider.
func TestDownsampleLongRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	x := randomTensor(t, rng, Float32, 3*100_000, 0.001)
	m, _ := x.View([]int{3, 100_000})
	for _, gs := range [][2]int{{3, 7}, {1, 1}, {2, 1000}} {
		for _, r := range []Reduction{ReduceMean, ReduceAbsMax} {
			got, err := Downsample(context.Background(), m, gs[0], gs[1], r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkGrid(got, m, gs[0], gs[1], r); err != nil {
				t.Fatalf("%v %v: %v", gs, r, err)
			}
		}
	}
}

func TestDownsampleHugeFloat64Mean(t *testing.T) {
	b := make([]byte, 8*6)
	for i, v := range []float64{math.MaxFloat64, math.MaxFloat64, 1e308, -1e308, 5e-324, 1} {
		putF64(b[8*i:], v)
	}
	x, _ := FromBytes(b, Float64, []int{2, 3})
	got, err := Downsample(context.Background(), x, 1, 1, ReduceMean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkGrid(got, x, 1, 1, ReduceMean); err != nil {
		t.Fatal(err)
	}
}

func TestPlane(t *testing.T) {
	x := seqTensor(t, 2, 3, 4)
	tests := []struct {
		row, col int
		fixed    []int
		shape    []int
		strides  []int
		offset   int
	}{
		{1, 2, []int{1, 0, 0}, []int{3, 4}, []int{4, 1}, 48},
		{2, 1, []int{1, 9, 9}, []int{4, 3}, []int{1, 4}, 48},
		{0, 2, []int{0, 2, 0}, []int{2, 4}, []int{12, 1}, 32},
		{0, 1, nil, []int{2, 3}, []int{12, 4}, 0},
		{-1, 2, []int{1, 2, 0}, []int{1, 4}, []int{4, 1}, 80},
		{0, -1, []int{0, 1, 3}, []int{2, 1}, []int{12, 1}, 28},
		{-1, -1, []int{1, 2, 3}, []int{1, 1}, []int{1, 1}, 92},
	}
	for _, tc := range tests {
		p, err := Plane(x, tc.row, tc.col, tc.fixed)
		if err != nil {
			t.Fatalf("Plane(%d, %d, %v): %v", tc.row, tc.col, tc.fixed, err)
		}
		if !eqInts(p.Shape(), tc.shape) || !eqInts(p.Strides(), tc.strides) || p.Offset() != tc.offset {
			t.Errorf("Plane(%d, %d, %v) = %v strides %v offset %d, want %v %v %d", tc.row, tc.col, tc.fixed,
				p.Shape(), p.Strides(), p.Offset(), tc.shape, tc.strides, tc.offset)
		}
	}
	vec := seqTensor(t, 5)
	if p, err := Plane(vec, -1, 0, nil); err != nil || !eqInts(p.Shape(), []int{1, 5}) || !p.IsContiguous() {
		t.Errorf("rank 1: %v, %v", p, err)
	}
	scalar, _ := vec.Select(0, 3)
	if p, err := Plane(scalar, -1, -1, nil); err != nil || !eqInts(p.Shape(), []int{1, 1}) || p.Offset() != 12 {
		t.Errorf("rank 0: %v, %v", p, err)
	} else if v, _ := p.Float64At([]int{0, 0}); v != 3 {
		t.Errorf("rank 0 plane holds %v", v)
	}
	bad := []struct {
		row, col int
		fixed    []int
	}{
		{0, 0, nil}, {3, 1, nil}, {0, -2, nil}, {0, 1, []int{0, 0}}, {0, 1, []int{0, 0, 4}},
		{0, 1, []int{0, 0, -1}}, {1, 2, []int{2, 0, 0}},
	}
	for _, c := range bad {
		if _, err := Plane(x, c.row, c.col, c.fixed); !errors.Is(err, ErrView) {
			t.Errorf("Plane(%d, %d, %v): %v", c.row, c.col, c.fixed, err)
		}
	}
	if _, err := Plane(scalar, 0, -1, nil); err == nil {
		t.Error("rank 0 with an axis accepted")
	}
}

func TestDownsampleErrors(t *testing.T) {
	ctx := context.Background()
	x := seqTensor(t, 2, 3, 4)
	p := seqTensor(t, 4, 4)
	for name, f := range map[string]func() error{
		"rank 3":    func() error { _, err := Downsample(ctx, x, 2, 2, ReduceMean, nil); return err },
		"rows 0":    func() error { _, err := Downsample(ctx, p, 0, 2, ReduceMean, nil); return err },
		"cols -1":   func() error { _, err := Downsample(ctx, p, 2, -1, ReduceMean, nil); return err },
		"reduction": func() error { _, err := Downsample(ctx, p, 2, 2, Reduction(9), nil); return err },
		"complex": func() error {
			c, _ := FromBytes(make([]byte, 32), Complex64, []int{2, 2})
			_, err := Downsample(ctx, c, 2, 2, ReduceMean, nil)
			return err
		},
	} {
		if f() == nil {
			t.Errorf("%s accepted", name)
		}
	}
	empty := seqTensor(t, 0, 5)
	g, err := Downsample(ctx, empty, 4, 4, ReduceMax, nil)
	if err != nil || g.Rows != 0 || len(g.Values) != 0 {
		t.Errorf("empty plane: %+v, %v", g, err)
	}
}
