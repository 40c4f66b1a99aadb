package graphview

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Palette is every colour a drawing of the graph uses. The widget derives
// one from the current Fyne theme; exports take one explicitly.
type Palette struct {
	Background color.NRGBA
	Text       color.NRGBA // node names
	Muted      color.NRGBA // detail lines, edge labels
	Edge       color.NRGBA
	Accent     color.NRGBA // selection, hover, highlighted lineage
	NodeBody   color.NRGBA // fill below the coloured header
	HeaderText color.NRGBA // op type on the category colour
	Category   [numCategories]color.NRGBA
}

// categoryColours are header fills that carry white text and stand out on
// both white and near-black backgrounds (mid-dark, moderately saturated;
// hues follow Netron's so users of it feel at home).
var categoryColours = [numCategories]color.NRGBA{
	CategoryOther:         {0x5f, 0x67, 0x73, 0xff},
	CategoryConvolution:   {0x33, 0x66, 0xa6, 0xff},
	CategoryActivation:    {0xa6, 0x3d, 0x33, 0xff},
	CategoryPooling:       {0x3a, 0x7d, 0x44, 0xff},
	CategoryNormalization: {0x2a, 0x7a, 0x78, 0xff},
	CategoryShape:         {0x8c, 0x65, 0x2e, 0xff},
	CategoryTensor:        {0x6b, 0x52, 0xa3, 0xff},
	CategoryInput:         {0x3d, 0x5a, 0x78, 0xff},
	CategoryOutput:        {0x7d, 0x45, 0x66, 0xff},
	CategoryConstant:      {0x74, 0x74, 0x78, 0xff},
	CategoryControlFlow:   {0x7a, 0x6a, 0x10, 0xff},
	CategoryQuantization:  {0xa3, 0x32, 0x6e, 0xff},
}

// LightPalette is for light backgrounds (and the default for exports).
func LightPalette() Palette {
	return Palette{
		Background: color.NRGBA{0xff, 0xff, 0xff, 0xff},
		Text:       color.NRGBA{0x20, 0x21, 0x24, 0xff},
		Muted:      color.NRGBA{0x5f, 0x63, 0x68, 0xff},
		Edge:       color.NRGBA{0x80, 0x86, 0x8b, 0xff},
		Accent:     color.NRGBA{0x1a, 0x73, 0xe8, 0xff},
		NodeBody:   color.NRGBA{0xf8, 0xf9, 0xfa, 0xff},
		HeaderText: color.NRGBA{0xff, 0xff, 0xff, 0xff},
		Category:   categoryColours,
	}
}

// DarkPalette is for dark backgrounds.
func DarkPalette() Palette {
	return Palette{
		Background: color.NRGBA{0x1e, 0x1f, 0x22, 0xff},
		Text:       color.NRGBA{0xe8, 0xea, 0xed, 0xff},
		Muted:      color.NRGBA{0xa8, 0xad, 0xb3, 0xff},
		Edge:       color.NRGBA{0x8a, 0x90, 0x96, 0xff},
		Accent:     color.NRGBA{0x8a, 0xb4, 0xf8, 0xff},
		NodeBody:   color.NRGBA{0x2b, 0x2d, 0x31, 0xff},
		HeaderText: color.NRGBA{0xff, 0xff, 0xff, 0xff},
		Category:   categoryColours,
	}
}

// ThemePalette follows a Fyne theme: background, text and accent come from
// it; the body is the background nudged towards the text colour and the
// muted and edge colours blend the two, so any theme works.
func ThemePalette(th fyne.Theme, v fyne.ThemeVariant) Palette {
	bg := toNRGBA(th.Color(theme.ColorNameBackground, v))
	fg := toNRGBA(th.Color(theme.ColorNameForeground, v))
	p := Palette{
		Background: bg,
		Text:       fg,
		Muted:      mix(fg, bg, 0.68),
		Edge:       mix(fg, bg, 0.5),
		Accent:     toNRGBA(th.Color(theme.ColorNamePrimary, v)),
		NodeBody:   mix(fg, bg, 0.05),
		HeaderText: color.NRGBA{0xff, 0xff, 0xff, 0xff},
		Category:   categoryColours,
	}
	return p
}

func toNRGBA(c color.Color) color.NRGBA {
	if c == nil {
		return color.NRGBA{}
	}
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}

// mix returns t of a over (1-t) of b, channel by channel.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*t + float64(y)*(1-t) + 0.5) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), f(a.A, b.A)}
}

// dim fades c into the background, for nodes outside a highlighted lineage.
func (p *Palette) dim(c color.NRGBA) color.NRGBA { return mix(c, p.Background, 0.22) }
