package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"tensorscope/viewmodel"
)

// minBlockPixels is the smallest on-screen block that gets separators:
// below it the lines would hide the values they separate.
const minBlockPixels = 4

// separators are the thin lines between the plane's blocks (the kernels of
// a conv mosaic) over the image at pos, sz, in the background colour so
// that they read as gaps. A zoomed-out view whose blocks are only a few
// pixels has none.
func separators(res *viewmodel.HeatmapImage, pos fyne.Position, sz fyne.Size) []fyne.CanvasObject {
	if res == nil {
		return nil
	}
	bg := theme.Color(theme.ColorNameBackground)
	g, v := res.Grid, res.View
	var out []fyne.CanvasObject
	// Element e of the view is at fraction (e−first)/step/cells of the image:
	// cell k of the grid covers elements [k·step, (k+1)·step).
	lines := func(block, first, count, step, cells int, length float32, draw func(f float32)) {
		if block <= 0 || cells == 0 || float32(block)/float32(step)/float32(cells)*length < minBlockPixels {
			return
		}
		for e := (first/block + 1) * block; e < first+count; e += block {
			draw(float32(e-first) / float32(step) / float32(cells))
		}
	}
	lines(res.RowBlock, v.Row, v.Rows, g.RowStep, g.Rows, sz.Height, func(f float32) {
		y := pos.Y + f*sz.Height
		out = append(out, tickLine(pos.X, y, pos.X+sz.Width, y, bg))
	})
	lines(res.ColBlock, v.Col, v.Cols, g.ColStep, g.Cols, sz.Width, func(f float32) {
		x := pos.X + f*sz.Width
		out = append(out, tickLine(x, pos.Y, x, pos.Y+sz.Height, bg))
	})
	return out
}
