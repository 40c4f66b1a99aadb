package ui

import (
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the masters that assertGoldenImage compares with")

// assertGoldenImage compares img pixel for pixel with testdata/name and on a
// difference writes it to testdata/failed/name, saying how many pixels
// differ (Fyne's own assertion prints every byte, which takes minutes).
func assertGoldenImage(t *testing.T, name string, img image.Image) {
	t.Helper()
	master := filepath.Join("testdata", name)
	if *updateGolden {
		if err := writeGolden(master, img); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(master)
	if err != nil {
		t.Fatalf("%v (run the test with -update-golden to create it)", err)
	}
	want, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	diff, first := 0, image.Point{-1, -1}
	wb, gb := want.Bounds(), img.Bounds()
	if wb.Size() != gb.Size() {
		diff = wb.Dx() * wb.Dy()
	} else {
		for y := 0; y < wb.Dy(); y++ {
			for x := 0; x < wb.Dx(); x++ {
				a := color.NRGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y))
				b := color.NRGBAModel.Convert(img.At(gb.Min.X+x, gb.Min.Y+y))
				if a != b {
					if diff == 0 {
						first = image.Pt(x, y)
					}
					diff++
				}
			}
		}
	}
	if diff > 0 {
		failed := filepath.Join("testdata", "failed", name)
		if err := writeGolden(failed, img); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s: %d pixels differ from the master (first at %v; sizes %v and %v); the actual image is in %s",
			name, diff, first, wb.Size(), gb.Size(), failed)
	}
}

func writeGolden(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
