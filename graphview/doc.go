// Package graphview lays out and draws model graphs. The layout (a layered,
// Sugiyama-style placement of a small generic graph of sized nodes and
// edges) has no Fyne imports so it can be tested and benchmarked alone; the
// Fyne widget that draws, pans, zooms and picks lives beside it.
//
// Imports: tensor only, of Tensorscope's own packages (never formats,
// viewmodel or ui); plus Fyne for the widget.
package graphview
