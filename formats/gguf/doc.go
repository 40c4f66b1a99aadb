// Package gguf reads GGUF, the file format of ggml and llama.cpp (spec:
// ggml's docs/gguf.md): versions 2 and 3 in either byte order, every
// metadata value type (long arrays kept in the file as lazy lists), tensors
// of every ggml type with shapes in row-major order, and split sets
// (name-00001-of-0000N.gguf) opened as one document.
package gguf
