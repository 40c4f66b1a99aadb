package ui

import (
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
