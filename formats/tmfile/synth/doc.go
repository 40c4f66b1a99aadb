// Package synth builds tmfile models in code: the demo network the viewer
// embeds (Demo) and CNN-shaped graphs of any node count for graph-view
// benchmarks (CNN). Both are deterministic.
//
// Imports: formats, formats/tmfile.
package synth
