package viewmodel

import (
	"fmt"
	"image"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"tensorscope/formats"
)

// PlotStyle carries the theme's colours into gonum/plot drawings.
type PlotStyle struct {
	Foreground, Background, Grid color.Color
	Series                       []color.Color
	FontSize                     vg.Length // 0 for a default
}

// DefaultSeriesColors are distinguishable on light and dark backgrounds
// (Okabe–Ito palette).
var DefaultSeriesColors = []color.Color{
	color.NRGBA{0, 114, 178, 255}, color.NRGBA{230, 159, 0, 255}, color.NRGBA{0, 158, 115, 255},
	color.NRGBA{204, 121, 167, 255}, color.NRGBA{86, 180, 233, 255}, color.NRGBA{213, 94, 0, 255},
	color.NRGBA{240, 228, 66, 255},
}

// Apply gives p the style's colours and fonts.
func (s PlotStyle) Apply(p *plot.Plot) {
	p.BackgroundColor = s.Background
	size := s.FontSize
	if size == 0 {
		size = 13
	}
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Color = s.Foreground
		a.Label.TextStyle.Color = s.Foreground
		a.Label.TextStyle.Font = sans(size)
		a.Tick.Color = s.Foreground
		a.Tick.Label.Color = s.Foreground
		a.Tick.Label.Font = sans(size - 1)
	}
	p.Title.TextStyle.Color = s.Foreground
	p.Title.TextStyle.Font = sans(size + 1)
	p.Legend.TextStyle.Color = s.Foreground
	p.Legend.TextStyle.Font = sans(size - 1)
}

// sans is gonum/plot's bundled Liberation Sans, closer to the UI's text
// than the default serif.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// SeriesColor is the colour of the i-th series, cycling through the palette.
func (s PlotStyle) SeriesColor(i int) color.Color {
	cs := s.Series
	if len(cs) == 0 {
		cs = DefaultSeriesColors
	}
	return cs[i%len(cs)]
}

// RenderPlot draws a document plot (training curves) at w×h pixels.
func RenderPlot(fp formats.Plot, w, h int, style PlotStyle) (image.Image, error) {
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("plot size %d×%d is empty", w, h)
	}
	p := plot.New()
	style.Apply(p)
	p.Title.Text = fp.Title
	p.X.Label.Text = fp.XLabel
	p.Y.Label.Text = fp.YLabel
	p.Legend.Top = true
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = style.Grid, style.Grid
	p.Add(grid)
	for i, s := range fp.Series {
		pts := make(plotter.XYs, len(s.Y))
		for j, y := range s.Y {
			x := float64(j + 1)
			if j < len(s.X) {
				x = s.X[j]
			}
			pts[j] = plotter.XY{X: x, Y: y}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		line.Color = style.SeriesColor(i)
		line.Width = vg.Points(1.5)
		p.Add(line)
		if len(pts) <= 60 {
			sc, err := plotter.NewScatter(pts)
			if err == nil {
				sc.GlyphStyle = draw.GlyphStyle{Color: line.Color, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
				p.Add(sc)
			}
		}
		p.Legend.Add(s.Name, line)
	}
	return DrawPlot(p, w, h), nil
}

// DrawPlot renders p at exactly w×h pixels (72 dpi: 1 pt = 1 px). The
// canvas owns its image: vgimg copies one passed in with UseImage.
func DrawPlot(p *plot.Plot, w, h int) image.Image {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w), vg.Length(h)), vgimg.UseDPI(72))
	p.Draw(draw.New(c))
	return c.Image()
}
