package viewmodel

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"tensorscope/graphview"
)

// MaxGraphPNGPixels caps exported graph PNGs (about 64 megapixels, 256 MB
// of RGBA while drawing); larger graphs are scaled down to fit.
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
	opt := graphview.ExportOptions{Palette: &palette}
	note := ""
	var write func(w io.Writer) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		write = func(w io.Writer) error { return graphview.ExportSVG(w, s, opt) }
	case ".png":
		write = func(w io.Writer) error {
			scale, err := graphview.ExportPNGContext(ctx, w, s, opt, MaxGraphPNGPixels)
			if err == nil && scale < 1 {
				note = fmt.Sprintf("The graph was scaled to %.0f%% to fit %d megapixels.", scale*100, MaxGraphPNGPixels>>20)
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
