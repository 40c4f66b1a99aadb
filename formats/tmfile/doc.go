// Package tmfile reads and writes Tengine tmfile (TM2) models: a graph of
// nodes, operators with typed parameter structs, tensors and weight buffers
// addressed by absolute file offsets.
//
// Imports: formats and tensor.
package tmfile
