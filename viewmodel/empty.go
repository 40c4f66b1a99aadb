package viewmodel

import (
	"image"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// EmptyText is what every view of a tensor without values (a dimension of
// 0, such as float32[0, 3]) shows in place of its drawing.
const EmptyText = "empty"

// Empty reports that the tensor shown (through its view expression) holds
// no values. It is a valid tensor: the inspector computes nothing over it,
// and each view draws EmptyText.
func (in *Inspector) Empty() bool { return in.heat.t != nil && in.heat.t.Len() == 0 }

// RenderEmpty draws EmptyText centred on the style's background at w×h
// pixels: a plot's stand-in for a tensor without values.
func RenderEmpty(w, h int, style PlotStyle) image.Image {
	if w < 1 || h < 1 {
		return nil
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w), vg.Length(h)), vgimg.UseDPI(72))
	dc := draw.New(c)
	if style.Background != nil {
		dc.SetColor(style.Background)
		dc.Fill(dc.Rectangle.Path())
	}
	size := style.FontSize
	if size == 0 {
		size = 13
	}
	st := text.Style{Color: style.Foreground, Font: font.From(sans(size), size), XAlign: draw.XCenter, YAlign: draw.YCenter,
		Handler: &text.Plain{Fonts: font.DefaultCache}}
	dc.FillText(st, vg.Point{X: vg.Length(w) / 2, Y: vg.Length(h) / 2}, EmptyText)
	return c.Image()
}
