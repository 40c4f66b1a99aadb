// Package formats owns the one document model every codec decodes into —
// header fields, metadata tree, tensors with lazy data, the node graph and
// warnings — and the registry that picks a codec by sniffing content.
//
// Each file format lives in its own sub-package (tsr, nn, tmfile, tsm) that
// registers itself like image/png does with image.RegisterFormat; import
// formats/all to get every codec.
//
// Imports: tensor, and nothing else of Tensorscope's own.
package formats
