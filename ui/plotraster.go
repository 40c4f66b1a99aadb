package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// plotRaster draws a plot at the size it is given, caching the image until
// the size or the data changes (update). render returns nil while the
// plot's data is still being computed; nothing is cached then.
type plotRaster struct {
	render func(w, h int) image.Image
	raster *canvas.Raster
	cache  image.Image
	key    [2]int // the size the cached image was drawn at
}

func newPlotRaster(render func(w, h int) image.Image, min fyne.Size) *plotRaster {
	r := &plotRaster{render: render}
	r.raster = canvas.NewRaster(r.draw)
	r.raster.SetMinSize(min)
	return r
}

func (r *plotRaster) draw(w, h int) image.Image {
	if r.cache != nil && r.key == [2]int{w, h} {
		return r.cache
	}
	img := r.render(w, h)
	if img == nil {
		return image.NewNRGBA(image.Rect(0, 0, 1, 1)) // not cached: the plot is on its way
	}
	r.cache, r.key = img, [2]int{w, h}
	return img
}

// update drops the cached image and redraws.
func (r *plotRaster) update() {
	r.cache = nil
	r.raster.Refresh()
}
