package viewmodel

import (
	"image/color"
	"math"
	"sync"

	"gonum.org/v1/plot/palette/moreland"
)

// Colormap turns values into colours for the heatmap.
type Colormap struct {
	Name string
	// Diverging maps are centred at 0: zero is the middle colour whatever
	// the range, so signed weights read correctly.
	Diverging bool
	lut       [256]color.NRGBA
	// NaN, PosInf and NegInf cells get colours outside the map's gamut.
	NaN, PosInf, NegInf color.NRGBA
}

// Colormaps offered by the inspector; the first is the default.
var Colormaps = []*Colormap{viridis(), coolwarm(), grayscale()}

// ColormapByName finds a colormap, or returns nil.
func ColormapByName(name string) *Colormap {
	for _, c := range Colormaps {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ColormapNames lists the colormaps' names.
func ColormapNames() []string {
	out := make([]string, len(Colormaps))
	for i, c := range Colormaps {
		out[i] = c.Name
	}
	return out
}

// At returns the colour for t in [0,1] (clamped).
func (c *Colormap) At(t float64) color.NRGBA {
	if !(t > 0) {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	return c.lut[int(t*255+0.5)]
}

// Position maps v to [0,1] for the range [lo,hi]. Diverging maps put 0 at
// 0.5 when the range spans zero, scaling each side by its own extent.
func (c *Colormap) Position(v, lo, hi float64) float64 {
	if c.Diverging && lo < 0 && hi > 0 {
		if v < 0 {
			return 0.5 - 0.5*v/lo
		}
		return 0.5 + 0.5*v/hi
	}
	if hi <= lo {
		return 0.5
	}
	return (v - lo) / (hi - lo)
}

// Color maps value v with range [lo,hi], giving non-finite values their own
// colours.
func (c *Colormap) Color(v, lo, hi float64) color.NRGBA {
	switch {
	case math.IsNaN(v):
		return c.NaN
	case math.IsInf(v, 1):
		return c.PosInf
	case math.IsInf(v, -1):
		return c.NegInf
	}
	return c.At(c.Position(v, lo, hi))
}

// viridisAnchors are matplotlib's viridis at 11 evenly spaced points
// (#440154 … #FDE725); viridis is smooth enough that linear interpolation
// between them stays within a couple of levels of the 256-entry original.
var viridisAnchors = []color.NRGBA{
	{0x44, 0x01, 0x54, 255}, {0x48, 0x24, 0x75, 255}, {0x41, 0x44, 0x87, 255}, {0x35, 0x5f, 0x8d, 255},
	{0x2a, 0x78, 0x8e, 255}, {0x21, 0x91, 0x8c, 255}, {0x22, 0xa8, 0x84, 255}, {0x44, 0xbf, 0x70, 255},
	{0x7a, 0xd1, 0x51, 255}, {0xbd, 0xdf, 0x26, 255}, {0xfd, 0xe7, 0x25, 255},
}

func viridis() *Colormap {
	c := &Colormap{Name: "viridis",
		NaN: color.NRGBA{255, 0, 255, 255}, PosInf: color.NRGBA{255, 255, 255, 255}, NegInf: color.NRGBA{0, 0, 0, 255}}
	n := len(viridisAnchors) - 1
	for i := range c.lut {
		t := float64(i) / 255 * float64(n)
		k := min(int(t), n-1)
		f := t - float64(k)
		a, b := viridisAnchors[k], viridisAnchors[k+1]
		c.lut[i] = color.NRGBA{lerp8(a.R, b.R, f), lerp8(a.G, b.G, f), lerp8(a.B, b.B, f), 255}
	}
	return c
}

// coolwarm is Moreland's smooth blue–red diverging map, from gonum/plot.
func coolwarm() *Colormap {
	c := &Colormap{Name: "coolwarm (diverging)", Diverging: true,
		NaN: color.NRGBA{0, 0, 0, 255}, PosInf: color.NRGBA{255, 230, 0, 255}, NegInf: color.NRGBA{0, 210, 90, 255}}
	m := moreland.SmoothBlueRed()
	m.SetMin(0)
	m.SetMax(1)
	for i := range c.lut {
		col, err := m.At(float64(i) / 255)
		if err != nil {
			panic(err) // inside [min,max] by construction
		}
		c.lut[i] = color.NRGBAModel.Convert(col).(color.NRGBA)
	}
	return c
}

func grayscale() *Colormap {
	c := &Colormap{Name: "grayscale",
		NaN: color.NRGBA{255, 0, 255, 255}, PosInf: color.NRGBA{255, 90, 0, 255}, NegInf: color.NRGBA{0, 120, 255, 255}}
	for i := range c.lut {
		c.lut[i] = color.NRGBA{uint8(i), uint8(i), uint8(i), 255}
	}
	return c
}

func lerp8(a, b uint8, f float64) uint8 {
	return uint8(math.Round(float64(a)*(1-f) + float64(b)*f))
}

// specialsKey names a colour map drawn with other NaN, +Inf and −Inf
// colours.
type specialsKey struct {
	c                   *Colormap
	nan, posInf, negInf color.NRGBA
}

var withSpecials sync.Map // specialsKey → *Colormap

// WithSpecials is c drawing NaN, +Inf and −Inf in the given colours: one
// map per combination, so that widgets that cache by map (the colour
// bar's gradient) see the same one each time.
func (c *Colormap) WithSpecials(nan, posInf, negInf color.NRGBA) *Colormap {
	if c.NaN == nan && c.PosInf == posInf && c.NegInf == negInf {
		return c
	}
	key := specialsKey{c, nan, posInf, negInf}
	if m, ok := withSpecials.Load(key); ok {
		return m.(*Colormap)
	}
	m := *c
	m.NaN, m.PosInf, m.NegInf = nan, posInf, negInf
	got, _ := withSpecials.LoadOrStore(key, &m)
	return got.(*Colormap)
}
