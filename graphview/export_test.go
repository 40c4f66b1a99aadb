package graphview

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"strings"
	"testing"
)

func estimateScene(t testing.TB, g *Graph, dir Direction) *Scene {
	t.Helper()
	s, err := NewScene(g, SceneOptions{Direction: dir, Measure: EstimateMeasure})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExportSVG(t *testing.T) {
	g := generated(60)
	// Text that must be escaped, and a cycle and a self-loop.
	g.Nodes[3].Subtitle = `a<b & "c">d`
	g.Nodes[4].Details = append(g.Nodes[4].Details, "x<y")
	g.Edges = append(g.Edges, Edge{From: 20, To: 5, Label: "back"}, Edge{From: 7, To: 7})
	for _, dir := range []Direction{TopToBottom, LeftToRight} {
		s := estimateScene(t, g, dir)
		var buf bytes.Buffer
		if err := ExportSVG(&buf, s, ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		var texts []string
		d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		inText := false
		groups := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v: SVG does not parse: %v", dir, err)
			}
			switch tk := tok.(type) {
			case xml.StartElement:
				inText = tk.Name.Local == "text"
				if tk.Name.Local == "g" {
					groups++
				}
			case xml.CharData:
				if inText {
					texts = append(texts, string(tk))
				}
			case xml.EndElement:
				inText = false
			}
		}
		all := "\n" + strings.Join(texts, "\n") + "\n"
		for i, n := range g.Nodes {
			for _, want := range append([]string{n.Title, n.Subtitle}, n.Details...) {
				if !strings.Contains(all, "\n"+want+"\n") {
					t.Fatalf("%v: SVG lacks text %q of node %d", dir, want, i)
				}
			}
		}
		if !strings.Contains(all, "\nback\n") {
			t.Errorf("%v: SVG lacks the edge label", dir)
		}
		if groups != len(g.Nodes) {
			t.Errorf("%v: %d node groups, want %d", dir, groups, len(g.Nodes))
		}
	}
}

func TestExportPNG(t *testing.T) {
	s := estimateScene(t, generated(30), TopToBottom)
	var buf bytes.Buffer
	scale, err := ExportPNG(&buf, s, ExportOptions{Scale: 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w, h := s.Size()
	wantW, wantH := int((w+48)*2), int((h+48)*2)
	if scale != 2 || img.Bounds().Dx() != wantW || img.Bounds().Dy() != wantH {
		t.Fatalf("PNG %v at scale %g, want %dx%d at 2", img.Bounds(), scale, wantW, wantH)
	}
	// Node 0's header is drawn in its category colour.
	b := s.NodeBox(0)
	x, y := int((b.Min.X+b.Max.X)/2+24)*2, int(b.Min.Y+24+3)*2
	r, g, bl, _ := img.At(x, y).RGBA()
	want := LightPalette().Category[CategoryInput]
	if r>>8 != uint32(want.R) || g>>8 != uint32(want.G) || bl>>8 != uint32(want.B) {
		t.Errorf("pixel in node 0's header is %d,%d,%d, want %v", r>>8, g>>8, bl>>8, want)
	}
}

// Graphs larger than the cap are scaled down to fit it, on both measures.
func TestExportPNGCapped(t *testing.T) {
	s := estimateScene(t, generated(2000), TopToBottom)
	for _, c := range []struct {
		maxPixels int
		wantSide  bool // the side cap, not the pixel cap, binds
	}{{1 << 20, false}, {0, true}} {
		var buf bytes.Buffer
		scale, err := ExportPNG(&buf, s, ExportOptions{}, c.maxPixels)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(&buf)
		if err != nil {
			t.Fatal(err)
		}
		limit := c.maxPixels
		if limit == 0 {
			limit = DefaultMaxPixels
		}
		if scale >= 1 || cfg.Width*cfg.Height > limit || cfg.Width > MaxPNGSide || cfg.Height > MaxPNGSide {
			t.Fatalf("cap %d: %dx%d at scale %g", c.maxPixels, cfg.Width, cfg.Height, scale)
		}
		if c.wantSide && cfg.Height != MaxPNGSide && cfg.Height != MaxPNGSide-1 {
			t.Fatalf("tall graph: height %d, want the side cap %d", cfg.Height, MaxPNGSide)
		}
		_, pw, ph := PNGScale(s, ExportOptions{}, c.maxPixels)
		if pw != cfg.Width || ph != cfg.Height {
			t.Fatalf("PNGScale says %dx%d, image is %dx%d", pw, ph, cfg.Width, cfg.Height)
		}
	}
}

func TestExportEmpty(t *testing.T) {
	s := estimateScene(t, &Graph{}, TopToBottom)
	var buf bytes.Buffer
	if err := ExportSVG(&buf, s, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ExportPNG(&buf, s, ExportOptions{}, 0); err != nil {
		t.Fatal(err)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, io.ErrShortWrite
	}
	return len(p), nil
}

func TestExportWriteErrors(t *testing.T) {
	s := estimateScene(t, generated(300), TopToBottom)
	if err := ExportSVG(&failWriter{n: 1000}, s, ExportOptions{}); err == nil {
		t.Error("SVG: write error not reported")
	}
	if _, err := ExportPNG(&failWriter{n: 1000}, s, ExportOptions{}, 1<<20); err == nil {
		t.Error("PNG: write error not reported")
	}
}

// With a readable floor (MinScale), a graph the caps would shrink below it
// is refused before anything is drawn, with the size it would need; one
// that fits is drawn at the scale asked for, labels at their on-screen
// size.
func TestExportPNGReadableFloor(t *testing.T) {
	s := estimateScene(t, generated(2000), TopToBottom)
	var buf bytes.Buffer
	_, err := ExportPNG(&buf, s, ExportOptions{MinScale: ReadablePNGScale}, 0)
	var tooLarge *PNGTooLargeError
	if !errors.As(err, &tooLarge) {
		t.Fatalf("a 2000-node chain at a readable scale: error %v, want a PNGTooLargeError", err)
	}
	_, h := s.Size()
	if want := int((h + 48) * ReadablePNGScale); tooLarge.Height < want-1 || tooLarge.Height > want+1 || buf.Len() != 0 {
		t.Errorf("refusal says %d pixels tall, want %d; %d bytes written", tooLarge.Height, want, buf.Len())
	}
	if msg := err.Error(); !strings.Contains(msg, "SVG") || !strings.Contains(msg, "16,384") {
		t.Errorf("message %q: should say the cap and offer SVG", msg)
	}
	small := estimateScene(t, generated(30), TopToBottom)
	scale, err := ExportPNG(&buf, small, ExportOptions{MinScale: ReadablePNGScale}, 0)
	if err != nil || scale != 1 {
		t.Errorf("a 30-node graph: scale %g, error %v; want 1:1", scale, err)
	}
}
