package viewmodel

import (
	"fmt"
	"image"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// plotFrame is where a drawn plot put its data: the data area's left and
// right edges in pixels and the values at those edges, so that a pointer's
// x maps back to a value.
type plotFrame struct {
	width, height int     // the image it was drawn into
	left, right   float64 // pixels from the image's left edge
	xmin, xmax    float64 // values at left and right
}

// valueAt is the value under pixel column x, ok when x is over the data.
func (f plotFrame) valueAt(x float64) (float64, bool) {
	if f.right <= f.left || x < f.left || x > f.right {
		return 0, false
	}
	return f.xmin + (x-f.left)/(f.right-f.left)*(f.xmax-f.xmin), true
}

// drawPlotFramed is drawPlot that also reports the plot's frame (linear x
// axis).
func drawPlotFramed(p *plot.Plot, w, h int) (image.Image, plotFrame) {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w), vg.Length(h)), vgimg.UseDPI(72))
	dc := draw.New(c)
	p.Draw(dc)
	data := p.DataCanvas(dc) // at 72 dpi a point is a pixel; x grows rightwards as in the image
	return c.Image(), plotFrame{width: w, height: h, left: float64(data.Min.X), right: float64(data.Max.X),
		xmin: p.X.Min, xmax: p.X.Max}
}

// HistogramInfoAt describes the bar under pixel column x of the histogram
// last drawn at w×h pixels, for the hover text: "[-0.031, -0.027): 1,234",
// or "value 3: 1,234" for one bin per integer value. Empty when x is not
// over a bar or the histogram was not drawn at that size.
func (in *Inspector) HistogramInfoAt(x float64, w, h int) string {
	f, r := in.hist.frame, in.hist.result
	if r == nil || r != in.hist.frameOf || f.width != w || f.height != h {
		return ""
	}
	v, ok := f.valueAt(x)
	if !ok {
		return ""
	}
	return histogramBinInfo(r, v, in.OneBinPerValue())
}

// histogramBinInfo spells the bin of r that holds value v: its range
// (half-open but for the last bin, which holds its upper bound) and count.
func histogramBinInfo(r *tensor.Histogram, v float64, oneBinPerValue bool) string {
	n := len(r.Counts)
	if n == 0 || !(r.Hi > r.Lo) || v < r.Lo || v > r.Hi {
		return ""
	}
	width := (r.Hi - r.Lo) / float64(n)
	i := min(int((v-r.Lo)/width), n-1)
	lo, hi := r.Lo+float64(i)*width, r.Lo+float64(i+1)*width
	count := textfmt.Count(r.Counts[i])
	if oneBinPerValue {
		return fmt.Sprintf("value %s: %s", textfmt.Float(lo+width/2, 8), count)
	}
	closing := ")"
	if i == n-1 {
		closing, hi = "]", r.Hi
	}
	return fmt.Sprintf("[%s, %s%s: %s", textfmt.Float(lo, 4), textfmt.Float(hi, 4), closing, count)
}
