package viewmodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
)

// MaxGraphPNGPixels caps exported graph PNGs (about 64 megapixels, 256 MB
// of RGBA while drawing). A larger graph is scaled down to fit, but never
// below graphview.ReadablePNGScale: a PNG whose labels cannot be read is
// refused (a *graphview.PNGTooLargeError) and SVG suggested instead.
const MaxGraphPNGPixels = 64 << 20

// ExportGraph writes the laid-out graph to path as SVG or PNG, chosen by
// the file name's ending. The file is written through a temporary file and
// renamed into place. It returns a note for the user (e.g. the PNG scale).
func ExportGraph(path string, s *graphview.Scene, palette graphview.Palette) (string, error) {
	return ExportGraphContext(context.Background(), path, s, palette)
}

// ExportGraphContext is ExportGraph that stops when ctx is cancelled,
// leaving no file behind.
func ExportGraphContext(ctx context.Context, path string, s *graphview.Scene, palette graphview.Palette) (string, error) {
	opt := graphview.ExportOptions{Palette: &palette, MinScale: graphview.ReadablePNGScale}
	note := ""
	var write func(w io.Writer) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		write = func(w io.Writer) error { return graphview.ExportSVG(w, s, opt) }
	case ".png":
		write = func(w io.Writer) error {
			scale, err := graphview.ExportPNGContext(ctx, w, s, opt, MaxGraphPNGPixels)
			if err == nil {
				note = graphPNGNote(s, opt, scale)
			}
			return err
		}
	default:
		return "", fmt.Errorf("export %s: choose a name ending in .svg or .png", filepath.Base(path))
	}
	if err := WriteFileAtomicContext(ctx, path, write); err != nil {
		return "", err
	}
	return note, nil
}

// graphPNGNote tells the size of the PNG written at scale and, when the
// caps made it smaller than the view's 1:1, which cap and by how much.
func graphPNGNote(s *graphview.Scene, opt graphview.ExportOptions, scale float64) string {
	_, w, h := graphview.PNGScale(s, opt, MaxGraphPNGPixels)
	note := fmt.Sprintf("The image is %s×%s pixels", formats.GroupDigits(int64(w)), formats.GroupDigits(int64(h)))
	if scale >= 0.995 {
		return note + ", at the graph's 1:1 size."
	}
	limit := fmt.Sprintf("%d megapixels", MaxGraphPNGPixels>>20)
	if max(w, h) >= graphview.MaxPNGSide-1 {
		limit = formats.GroupDigits(graphview.MaxPNGSide) + " pixels a side"
	}
	return fmt.Sprintf("%s, at %.0f%% of the graph's 1:1 size to stay within %s.", note, scale*100, limit)
}

// IsGraphTooLargeForPNG reports whether err says a graph cannot be drawn
// as a readable PNG (SVG or a shallower depth can).
func IsGraphTooLargeForPNG(err error) bool {
	var tooLarge *graphview.PNGTooLargeError
	return errors.As(err, &tooLarge)
}
