package viewmodel

import (
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/graphview"
)

// chainScene is a chain of n operators, laid out top to bottom.
func chainScene(t *testing.T, n int) *graphview.Scene {
	t.Helper()
	g := &graphview.Graph{}
	for i := range n {
		g.Nodes = append(g.Nodes, graphview.Node{Title: "Relu", Subtitle: fmt.Sprintf("relu_%d", i)})
		if i > 0 {
			g.Edges = append(g.Edges, graphview.Edge{From: i - 1, To: i, Label: "1×64×56×56"})
		}
	}
	s, err := graphview.NewScene(g, graphview.SceneOptions{Measure: graphview.EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A graph PNG states its true size; one too large to keep its labels
// readable is refused, naming SVG, and leaves no file.
func TestExportGraphPNGTellsItsSize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.png")
	note, err := ExportGraph(path, chainScene(t, 20), graphview.LightPalette())
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%s×%s pixels, at the graph's 1:1 size", formats.GroupDigits(int64(cfg.Width)), formats.GroupDigits(int64(cfg.Height))); !strings.Contains(note, want) {
		t.Errorf("note %q, want it to say %q", note, want)
	}

	// About 84 units a node: 400 nodes are 33,000 units tall, over the
	// side cap at 80 % too.
	big := filepath.Join(dir, "big.png")
	_, err = ExportGraph(big, chainScene(t, 400), graphview.LightPalette())
	var tooLarge *graphview.PNGTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "SVG") {
		t.Fatalf("a 400-node chain: error %v, want a PNGTooLargeError offering SVG", err)
	}
	if _, err := os.Stat(big); !os.IsNotExist(err) {
		t.Errorf("the refused PNG left a file: %v", err)
	}

	// Between: scaled, and the note says by how much and why.
	mid := filepath.Join(dir, "mid.png")
	note, err = ExportGraph(mid, chainScene(t, 220), graphview.LightPalette())
	if err != nil {
		t.Skipf("a 220-node chain does not fit at 80%%: %v", err)
	}
	if !strings.Contains(note, "% of the graph's 1:1 size to stay within 16,384 pixels a side") {
		t.Errorf("scaled note %q", note)
	}
}
