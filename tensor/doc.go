// Package tensor is Tensorscope's shared tensor and view core: element types,
// read-only storage (often a memory-mapped file region), strided views over it,
// and the computations every view reads through — statistics, histograms and
// heatmap planes with downsampling.
//
// Every format decodes into this core and every pane reads through it.
//
// Imports: the standard library and github.com/x448/float16 only; nothing of
// Tensorscope's own. Everything above (formats, graphview, viewmodel, ui)
// may import tensor.
package tensor
