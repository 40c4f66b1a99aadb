// Package graphview lays out and draws model graphs. The layout (a layered,
// Sugiyama-style placement of a small generic graph of sized nodes and
// edges) lives in the Fyne-free sub-package layout so it can be tested and
// benchmarked alone; this package adds what drawing needs:
//
//   - the input model (Graph, Node, Edge) with a colour Category per node;
//     it knows no format's operator names (the viewmodel maps each node's
//     normalised meaning onto a Category);
//   - Scene, a laid-out graph with text measured, truncated and indexed for
//     fast viewport queries; it is immutable and may be built off the UI
//     goroutine;
//   - GraphView, the Fyne widget that draws a Scene, pans, zooms, picks
//     nodes and edges and highlights lineage, building only what is visible;
//   - ExportSVG and ExportPNG, which draw the whole scene.
//
// Imports: tensor only, of Tensorscope's own packages (never formats,
// viewmodel or ui); plus Fyne for the widget and gonum/plot's vg for PNG.
package graphview
