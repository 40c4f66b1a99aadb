// Command genicons scales the 512×512 application icon down to the smaller
// hicolor sizes the desktop installs (256, 128, 48), so installing needs no
// image tool. Run through `go generate ./assets/desktop`.
//
// Scaling is an area average in linear light: each output pixel is the
// mean of the source area it covers, which keeps the heatmap tiles' edges
// crisp without the ringing of sharper filters.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
)

// Sizes are the icon sizes made besides the 512×512 source.
var Sizes = []int{256, 128, 48}

func main() {
	src := flag.String("src", "../icon.png", "the 512×512 source icon")
	dir := flag.String("o", ".", "output directory for icon-<size>.png")
	flag.Parse()
	img, err := readPNG(*src)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range Sizes {
		b, err := encode(Scale(img, s))
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*dir, fmt.Sprintf("icon-%d.png", s)), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func encode(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img)
	return b.Bytes(), err
}

// tap is one source row or column's share of an output pixel.
type tap struct {
	index  int
	weight float64
}

// taps lists, for each of n outputs, the source indices in [0, m) it
// covers and the fraction of each it covers, normalised to sum to 1.
func taps(m, n int) [][]tap {
	out := make([][]tap, n)
	scale := float64(m) / float64(n)
	for o := range n {
		lo, hi := float64(o)*scale, float64(o+1)*scale
		for i := int(lo); i < m && float64(i) < hi; i++ {
			w := math.Min(hi, float64(i+1)) - math.Max(lo, float64(i))
			if w > 0 {
				out[o] = append(out[o], tap{i, w / scale})
			}
		}
	}
	return out
}

// Scale returns src scaled to size×size.
func Scale(src image.Image, size int) *image.NRGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	n := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(n, n.Rect, src, b.Min, draw.Src)
	// Premultiplied linear RGB and alpha of every source pixel.
	lin := make([][4]float64, w*h)
	for i := range lin {
		px := n.Pix[4*i : 4*i+4]
		a := float64(px[3]) / 255
		lin[i] = [4]float64{linear[px[0]] * a, linear[px[1]] * a, linear[px[2]] * a, a}
	}
	xs, ys := taps(w, size), taps(h, size)
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	for oy, ty := range ys {
		for ox, tx := range xs {
			var acc [4]float64
			for _, ry := range ty {
				for _, rx := range tx {
					p := lin[ry.index*w+rx.index]
					k := ry.weight * rx.weight
					for i := range acc {
						acc[i] += p[i] * k
					}
				}
			}
			c := color.NRGBA{A: to8(acc[3])}
			if acc[3] > 0 {
				c.R, c.G, c.B = fromLinear(acc[0]/acc[3]), fromLinear(acc[1]/acc[3]), fromLinear(acc[2]/acc[3])
			}
			dst.SetNRGBA(ox, oy, c)
		}
	}
	return dst
}

// linear maps an sRGB byte to linear light.
var linear = func() (t [256]float64) {
	for i := range t {
		t[i] = toLinear(uint8(i))
	}
	return t
}()

func toLinear(v uint8) float64 {
	s := float64(v) / 255
	if s <= 0.04045 {
		return s / 12.92
	}
	return math.Pow((s+0.055)/1.055, 2.4)
}

func fromLinear(l float64) uint8 {
	var s float64
	if l <= 0.0031308 {
		s = l * 12.92
	} else {
		s = 1.055*math.Pow(l, 1/2.4) - 0.055
	}
	return to8(s)
}

func to8(v float64) uint8 {
	return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255))
}
