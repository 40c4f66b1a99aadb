package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"tensorscope/viewmodel"
)

// plotStyle takes gonum/plot colours from the current Fyne theme, so plots
// follow the system's light or dark appearance.
func plotStyle() viewmodel.PlotStyle {
	return viewmodel.PlotStyle{
		Foreground: theme.Color(theme.ColorNameForeground),
		Background: theme.Color(theme.ColorNameBackground),
		Grid:       theme.Color(theme.ColorNameSeparator),
		Series:     viewmodel.DefaultSeriesColors,
	}
}

// themePx is n pixels at Fyne's default text size (14), scaled with the
// theme's text size: our widgets' fixed sizes (gaps, column widths, minimum
// plot sizes) are written in it, so that they grow and shrink with the text
// when the user changes Fyne's settings instead of staying literal pixels.
// (Fyne's own scale factor applies on top, as to every size.)
func themePx(n float32) float32 { return n * theme.TextSize() / 14 }

// themeSize is fyne.NewSize(themePx(w), themePx(h)).
func themeSize(w, h float32) fyne.Size { return fyne.NewSize(themePx(w), themePx(h)) }
