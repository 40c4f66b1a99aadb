package viewmodel

import "testing"

func heatRange(t *testing.T, in *Inspector) (float64, float64) {
	t.Helper()
	h := in.Heatmap()
	if h == nil {
		t.Fatal("no heatmap")
	}
	return h.Lo, h.Hi
}

func TestColourRangeIsTheWholeTensorsByDefault(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{2, 3, 4}, seq(24))) // plane [3,4] at axis 0 = 0: values 0..11
	drain(t, q, in)
	if lo, hi := heatRange(t, in); lo != 0 || hi != 23 {
		t.Errorf("default range %g..%g, want the whole tensor's 0..23", lo, hi)
	}
	if err := in.SetFixed(0, 1); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if lo, hi := heatRange(t, in); lo != 0 || hi != 23 {
		t.Errorf("second slice coloured over %g..%g, want 0..23 as the first", lo, hi)
	}
	if err := in.SetRange(RangeSlice, 0, 0); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if lo, hi := heatRange(t, in); lo != 12 || hi != 23 {
		t.Errorf("this slice: %g..%g, want 12..23", lo, hi)
	}
	if err := in.SetRange(RangeSymmetric, 0, 0); err != nil {
		t.Fatal(err)
	}
	if lo, hi := heatRange(t, in); lo != -23 || hi != 23 {
		t.Errorf("symmetric: %g..%g, want -23..23", lo, hi)
	}
}

func TestDivergingMapGetsASymmetricWholeRange(t *testing.T) {
	in, q, _ := newTestInspector()
	vals := seq(12)
	for i := range vals {
		vals[i] -= 3 // -3..8
	}
	in.Show(0, f32Entry("b", []int{3, 4}, vals))
	if err := in.SetColormap("coolwarm"); err != nil {
		t.Fatal(err)
	}
	drain(t, q, in)
	if lo, hi := heatRange(t, in); lo != -8 || hi != 8 {
		t.Errorf("diverging whole range %g..%g, want -8..8", lo, hi)
	}
	if err := in.SetColormap("viridis"); err != nil {
		t.Fatal(err)
	}
	if lo, hi := heatRange(t, in); lo != -3 || hi != 8 {
		t.Errorf("sequential whole range %g..%g, want -3..8", lo, hi)
	}
}

func TestHistogramRangeRefusesSliceMode(t *testing.T) {
	var s InspectorSettings
	if err := s.SetHistRange(RangeSlice, 0, 0); err == nil {
		t.Error("a histogram range of 'this slice' was accepted")
	}
	if err := s.SetRange(RangeSlice, 0, 0); err != nil || s.Range.Mode != RangeSlice {
		t.Errorf("heatmap range 'this slice': %v, %+v", err, s.Range)
	}
}

// Until the statistics arrive the heatmap is painted with the slice's
// range; their arrival repaints the same grid, without downsampling again.
func TestColourRangeBeforeAndAfterTheStatistics(t *testing.T) {
	in, q, _ := newTestInspector()
	in.Show(0, f32Entry("w", []int{2, 3, 4}, seq(24)))
	drain(t, q, in)
	summary := in.summary
	grid := in.Heatmap().Grid
	in.summary = summaryResult{} // as before the statistics are computed
	if c := in.colourRange(); c.mode != RangeAuto {
		t.Fatalf("without statistics the range is %+v, want the shown slice's", c)
	}
	in.recolour()
	if lo, hi := heatRange(t, in); lo != 0 || hi != 11 {
		t.Errorf("before the statistics: %g..%g, want the slice's 0..11", lo, hi)
	}
	in.summary = summary
	in.recolour()
	if lo, hi := heatRange(t, in); lo != 0 || hi != 23 {
		t.Errorf("after the statistics: %g..%g, want 0..23", lo, hi)
	}
	if in.Heatmap().Grid != grid || !in.Idle() {
		t.Error("the repaint downsampled the plane again")
	}
}
