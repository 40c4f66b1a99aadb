// Package tflite reads TensorFlow Lite (LiteRT) models: FlatBuffers with
// TFLite's schema (vendored in schema/, accessors generated into
// internal/tfl by schema/generate.sh), verified whole before any
// accessor runs.
package tflite

//go:generate sh schema/generate.sh

import (
	"encoding/binary"

	"tensorscope/formats"
)

// Format is the registered TFLite codec.
var Format = &formats.Format{
	ID:         "tflite",
	Name:       "TensorFlow Lite model",
	Extensions: []string{".tflite"},
	Priority:   20,
	Sniff:      Sniff,
}

func init() {
	Format.Decode = decode
	formats.Register(Format)
}

// Sniff reports whether data carries TFLite's file identifier "TFL3" at
// byte 4 and a root offset inside the file.
func Sniff(data []byte) bool {
	if len(data) < 12 || string(data[4:8]) != "TFL3" {
		return false
	}
	root := binary.LittleEndian.Uint32(data)
	return root >= 8 && uint64(root)+4 <= uint64(len(data))
}
