// Package nn reads and writes DataCode .nn models: a JSON architecture and
// training history followed by named f32 tensors. Layers become a chain graph;
// tensors are matched to layers by counting Linear layers, never by name.
//
// Imports: formats and tensor.
package nn
