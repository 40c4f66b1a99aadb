package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"path/filepath"
	"testing"
)

// The committed icons must be what the generator makes of the current
// icon.png; a changed icon without `go generate ./assets/desktop` fails here.
func TestCommittedIconsAreCurrent(t *testing.T) {
	src, err := readPNG(filepath.Join("..", "..", "icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Sizes {
		want := Scale(src, s)
		name := filepath.Join("..", fmt.Sprintf("icon-%d.png", s))
		img, err := readPNG(name)
		if err != nil {
			t.Fatal(err)
		}
		// Pixels, not bytes: the PNG compressor may change between Go releases.
		got := image.NewNRGBA(img.Bounds())
		draw.Draw(got, got.Rect, img, img.Bounds().Min, draw.Src)
		if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%s is stale: run go generate ./assets/desktop", name)
		}
	}
}

// Area averaging: a 2×2 checkerboard of black and white becomes one pixel of
// linear-light mid grey (sRGB 188, not the 128 of naive averaging), and a
// flat colour stays exactly itself at a non-integer ratio.
func TestScaleAveragesInLinearLight(t *testing.T) {
	board := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for i, v := range []uint8{0, 255, 255, 0} {
		board.SetNRGBA(i%2, i/2, color.NRGBA{v, v, v, 255})
	}
	if got := Scale(board, 1).NRGBAAt(0, 0); got != (color.NRGBA{188, 188, 188, 255}) {
		t.Errorf("checkerboard → %v; want sRGB 188 grey", got)
	}
	flat := image.NewNRGBA(image.Rect(0, 0, 512, 512))
	teal := color.NRGBA{33, 144, 141, 255}
	for y := range 512 {
		for x := range 512 {
			flat.SetNRGBA(x, y, teal)
		}
	}
	out := Scale(flat, 48)
	for y := range 48 {
		for x := range 48 {
			if c := out.NRGBAAt(x, y); c != teal {
				t.Fatalf("flat colour at (%d,%d) became %v", x, y, c)
			}
		}
	}
	// Transparent pixels do not darken their neighbours.
	half := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	half.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	if got := Scale(half, 1).NRGBAAt(0, 0); got.R != 255 || got.A != 128 {
		t.Errorf("half-transparent red → %v; want pure red at half alpha", got)
	}
}
