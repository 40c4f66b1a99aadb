package ui

import (
	"slices"
	"testing"
)

func TestDivergingTicksAreEvenAroundZero(t *testing.T) {
	cases := []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{-1, 1, 6, []float64{-1, -0.5, 0, 0.5, 1}},
		{-0.37, 0.37, 6, []float64{-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3}},
		// Asymmetric: one step on both sides, 0 included.
		{-0.2, 0.9, 6, []float64{-0.2, 0, 0.2, 0.4, 0.6, 0.8}},
		{-45, 3, 6, []float64{-40, -20, 0}},
		// Not spanning zero: ordinary nice ticks.
		{1, 3, 4, []float64{1, 1.5, 2, 2.5, 3}},
	}
	for _, c := range cases {
		got := divergingTicks(c.lo, c.hi, c.n)
		if !slices.EqualFunc(got, c.want, func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }) {
			t.Errorf("divergingTicks(%g, %g, %d) = %v, want %v", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

func TestDivergingTicksMirror(t *testing.T) {
	for _, m := range []float64{0.0031, 0.7, 1, 12.5, 3e4} {
		got := divergingTicks(-m, m, 6)
		if !slices.Contains(got, 0) {
			t.Errorf("±%g: no tick at 0 in %v", m, got)
		}
		for i := range got {
			if mirror := got[len(got)-1-i]; got[i] != -mirror {
				t.Errorf("±%g: ticks %v are not symmetric about 0", m, got)
				break
			}
		}
	}
}
