package viewmodel

import (
	"math"
	"strings"
	"testing"

	"tensorscope/graphview"
)

// The setters are where every front end's input is checked.
func TestInspectorSettingsSetters(t *testing.T) {
	s := DefaultInspectorSettings()
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{s.SetColormap("GREY"), ""},
		{s.SetColormap("coolwarm"), ""},
		{s.SetColormap("coolwarm (diverging)"), ""},
		{s.SetColormap("jet"), "unknown colour map"},
		{s.SetHistBins(1), ""},
		{s.SetHistBins(MaxHistBins), ""},
		{s.SetHistBins(0), "1–4096"},
		{s.SetHistBins(MaxHistBins + 1), "1–4096"},
		{s.SetReduction("absmax"), ""},
		{s.SetReduction("abs-max"), "unknown reduction"},
		{s.SetRange(RangeManual, 1, 1), "low below high"},
		{s.SetRange(RangeManual, math.Inf(-1), 1), "finite"},
		{s.SetHistRange(RangeSymmetric, 0, 0), "not symmetric"},
		{s.SetAxes(1, 1), "two different axes"},
		{s.SetIndex(0, 2), ""},
		{s.SetIndex(0, 3), "given twice"},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("unexpected error %v", c.err)
		case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
			t.Errorf("error %v, want one mentioning %q", c.err, c.want)
		}
	}
	if s.Colormap.Name != "coolwarm (diverging)" || s.HistBins != MaxHistBins || ReductionNames[3] != "absmax" {
		t.Errorf("settings after the setters: %+v", s)
	}
}

// Apply, then Settings, gives the applied settings back, the plane once
// the tensor is loaded; a plane that does not fit is reported.
func TestInspectorApply(t *testing.T) {
	in, q, _ := newTestInspector()
	s := DefaultInspectorSettings()
	for _, err := range []error{s.SetColormap("grayscale"), s.SetRange(RangeSymmetric, 0, 0), s.SetHistBins(24),
		s.SetHistRange(RangeManual, -1, 1), s.SetReduction("max"), s.SetAxes(0, 2), s.SetIndex(1, 2)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	s.HistLog, s.HistScope = true, HistPlane
	in.Apply(s)
	in.Show(0, f32Entry("w", []int{2, 3, 4}, seq(24)))
	drain(t, q, in)
	if err := in.SettingsErr(); err != nil {
		t.Fatal(err)
	}
	got := in.Settings()
	if got.Colormap != s.Colormap || got.Range != s.Range || got.HistBins != 24 || got.HistRange != s.HistRange ||
		got.Reduction != s.Reduction || !got.HistLog || got.HistScope != HistPlane {
		t.Errorf("Settings() = %+v, applied %+v", got, s)
	}
	if r, c := in.Axes(); r != 0 || c != 2 || in.Fixed()[1] != 2 {
		t.Errorf("plane: axes %d,%d fixed %v", r, c, in.Fixed())
	}
	if h, _ := in.Histogram(); h == nil || len(h.Counts) != 24 {
		t.Errorf("histogram %+v", h)
	}
	bad := DefaultInspectorSettings()
	bad.SetIndex(5, 0)
	in.Apply(bad)
	drain(t, q, in)
	if err := in.SettingsErr(); err == nil || !strings.Contains(err.Error(), "no axis 5") {
		t.Errorf("a plane that does not fit: %v", err)
	}
}

func TestGraphSettingsSetters(t *testing.T) {
	s := DefaultGraphSettings()
	if s.Selected != -1 || !s.Viewport.Fitted() || s.Direction != graphview.TopToBottom {
		t.Fatalf("defaults %+v", s)
	}
	if err := s.SetDirection("Left to right"); err != nil || s.Direction != graphview.LeftToRight {
		t.Errorf("direction: %v, %v", err, s.Direction)
	}
	if err := s.SetDirection("up"); err == nil {
		t.Error("an unknown direction was taken")
	}
	if _, ok := s.ColourMetric(); ok || s.ColourBy != 0 {
		t.Errorf("coloured by %d at first", s.ColourBy)
	}
	if err := s.SetColourBy(" Outlier_Ratio"); err != nil || GraphColourNames[s.ColourBy] != "outlier_ratio" {
		t.Errorf("colour by: %v, %d", err, s.ColourBy)
	}
	if m, ok := s.ColourMetric(); !ok || m.String() != "outlier_ratio" {
		t.Errorf("colour metric %v, %v", m, ok)
	}
	if err := s.SetColourBy("mean"); err == nil || s.ColourBy != 4 {
		t.Errorf("an unknown colouring: %v, and the choice became %d", err, s.ColourBy)
	}
	if err := s.SetColourBy("category"); err != nil || s.ColourBy != 0 {
		t.Errorf("category: %v, %d", err, s.ColourBy)
	}
	doc := chainDoc()
	if err := s.SelectNamed(doc, doc.Graph.Nodes[1].Name); err != nil || s.Selected != 1 {
		t.Errorf("select: %v, %d", err, s.Selected)
	}
	if err := s.SelectNamed(doc, "nope"); err == nil {
		t.Error("selected a node that does not exist")
	}
	if err := s.SetViewport(MaxGraphZoom+1, 0, 0); err == nil {
		t.Error("a zoom beyond the limit was taken")
	}
	if err := s.SetViewport(2, 10, 20); err != nil || s.Viewport.Fitted() {
		t.Errorf("viewport: %v, %+v", err, s.Viewport)
	}
}
