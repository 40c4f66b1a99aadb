package headless

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"testing"

	"tensorscope/formats/npy"
	"tensorscope/formats/safetensors"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// emptySafetensors holds one float32 tensor "t" of shape, with no values.
func emptySafetensors(t *testing.T, shape []int) []byte {
	t.Helper()
	x, err := tensor.FromBytes(nil, tensor.Float32, shape)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := safetensors.Write(context.Background(), &b, []safetensors.Named{{Name: "t", Tensor: x}}, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// emptyNPY is a NumPy float32 array of shape, with no values.
func emptyNPY(t *testing.T, shape []int) []byte {
	t.Helper()
	h, err := npy.Header("<f4", shape)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// inkBounds is the smallest rectangle holding every pixel that differs
// from the top-left one (the background).
func inkBounds(img image.Image) image.Rectangle {
	b := img.Bounds()
	bg := color.NRGBAModel.Convert(img.At(b.Min.X, b.Min.Y))
	var ink image.Rectangle
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)) != bg {
				ink = ink.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return ink
}

// Every view of a tensor without values draws the word "empty" in its
// middle and nothing else: no axes, no ticks, no colour bar. Before, the
// heatmap panicked ("image: NewRGBA Rectangle has huge or negative
// dimensions") on every empty shape.
func TestRenderEmptyTensors(t *testing.T) {
	const w, h = 640, 400
	files := map[string][]byte{}
	for _, shape := range [][]int{{0, 3}, {3, 0}, {0}, {1, 0}, {2, 0, 3, 3}} {
		files[fmt.Sprintf("st%v.safetensors", shape)] = emptySafetensors(t, shape)
		files[fmt.Sprintf("np%v.npy", shape)] = emptyNPY(t, shape)
	}
	for name, data := range files {
		doc := openFile(t, name, data)
		for _, view := range []string{ViewHeatmap, ViewHistogram, ViewPlot} {
			opt := RenderOptions{View: view, Width: w, Height: h, Tensor: 0}
			if len(doc.Tensors[0].Shape) == 4 {
				opt.Settings.Expr = viewmodel.MosaicExpr
			}
			img, err := renderWith(context.Background(), doc, opt)
			if err != nil {
				t.Errorf("%s %s: %v", name, view, err)
				continue
			}
			ink := inkBounds(img)
			centre := image.Pt(w/2, h/2)
			if ink.Empty() || ink.Dx() > 120 || ink.Dy() > 40 || !centre.In(ink.Inset(-30)) {
				t.Errorf("%s %s: drawing spans %v, want only the word %q about %v", name, view, ink, viewmodel.EmptyText, centre)
			}
		}
		if name[:2] != "st" {
			continue // one format is enough for the comparison
		}
		// The comparison draws its three panels as empty.
		img, err := Render(context.Background(), doc, Options{View: ViewDiff, Width: 1200, Height: 400, Tensor: 0, With: doc,
			Compare: diffOptions(t, doc, 1200, 400, nil, "").Compare})
		if err != nil {
			t.Errorf("%s diff: %v", name, err)
			continue
		}
		for i := range 3 { // the middle band of each third holds its "empty"
			third := image.Rect(i*400, 150, (i+1)*400, 250)
			sub := img.(interface {
				SubImage(image.Rectangle) image.Image
			}).SubImage(third)
			if ink := inkBounds(sub); ink.Empty() || ink.Dx() > 120 {
				t.Errorf("%s diff: panel %d draws %v", name, i, ink)
			}
		}
	}
}
