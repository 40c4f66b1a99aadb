// Command genicon draws Tensorscope's icon: a rounded tile holding a small
// weight heatmap (viridis colours) with a lens over one corner — the app's
// promise of looking inside tensors. Run through `go generate ./assets`.
package main

import (
	"flag"
	"image/color"
	"log"
	"math"
	"os"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// viridis control points (from matplotlib's table, every 1/8).
var viridis = []color.NRGBA{
	{68, 1, 84, 255}, {71, 44, 122, 255}, {59, 81, 139, 255}, {44, 113, 142, 255},
	{33, 144, 141, 255}, {39, 173, 129, 255}, {92, 200, 99, 255}, {170, 220, 50, 255},
	{253, 231, 37, 255},
}

func lerpColor(t float64) color.Color {
	t = math.Max(0, math.Min(1, t)) * float64(len(viridis)-1)
	i := int(t)
	if i >= len(viridis)-1 {
		return viridis[len(viridis)-1]
	}
	f := t - float64(i)
	a, b := viridis[i], viridis[i+1]
	mix := func(x, y uint8) uint8 { return uint8(float64(x)*(1-f) + float64(y)*f + 0.5) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

func roundedRect(x0, y0, x1, y1, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0 + r, Y: y0})
	p.Line(vg.Point{X: x1 - r, Y: y0})
	p.Arc(vg.Point{X: x1 - r, Y: y0 + r}, r, -math.Pi/2, math.Pi/2)
	p.Line(vg.Point{X: x1, Y: y1 - r})
	p.Arc(vg.Point{X: x1 - r, Y: y1 - r}, r, 0, math.Pi/2)
	p.Line(vg.Point{X: x0 + r, Y: y1})
	p.Arc(vg.Point{X: x0 + r, Y: y1 - r}, r, math.Pi/2, math.Pi/2)
	p.Line(vg.Point{X: x0, Y: y0 + r})
	p.Arc(vg.Point{X: x0 + r, Y: y0 + r}, r, math.Pi, math.Pi/2)
	p.Close()
	return p
}

func main() {
	out := flag.String("o", "icon.png", "output PNG")
	flag.Parse()
	const size = 512
	c := vgimg.NewWith(vgimg.UseWH(size, size), vgimg.UseDPI(72), vgimg.UseBackgroundColor(color.Transparent))
	dc := draw.New(c)

	// Tile.
	dc.SetColor(color.NRGBA{28, 33, 48, 255})
	dc.Fill(roundedRect(16, 16, size-16, size-16, 96))

	// Heatmap: 6×6 cells of a smooth signed pattern, like a conv kernel bank.
	const n, x0, y0, cell, gap = 6, 72.0, 72.0, 60.0, 6.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := 0.5 + 0.45*math.Sin(float64(i)*0.9+0.3)*math.Cos(float64(j)*0.7-0.4)
			dc.SetColor(lerpColor(v))
			x := vg.Length(x0 + float64(j)*(cell+gap))
			y := vg.Length(y0 + float64(i)*(cell+gap))
			dc.Fill(roundedRect(x, y, x+cell, y+cell, 8))
		}
	}

	// Lens: a ring and handle over the upper-right quarter.
	cx, cy, r := vg.Length(318), vg.Length(310), vg.Length(96)
	var ring vg.Path
	ring.Move(vg.Point{X: cx + r, Y: cy})
	ring.Arc(vg.Point{X: cx, Y: cy}, r, 0, 2*math.Pi)
	ring.Close()
	dc.SetColor(color.NRGBA{255, 255, 255, 60})
	dc.Fill(ring)
	dc.SetLineWidth(26)
	dc.SetColor(color.NRGBA{245, 247, 250, 255})
	dc.Stroke(ring)
	var handle vg.Path
	d := r / vg.Length(math.Sqrt2)
	handle.Move(vg.Point{X: cx + d + 10, Y: cy - d - 10})
	handle.Line(vg.Point{X: cx + d + 70, Y: cy - d - 70})
	dc.SetLineStyle(draw.LineStyle{Color: color.NRGBA{245, 247, 250, 255}, Width: 40})
	dc.Stroke(handle)

	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
