// Package all registers every Tensorscope codec with the formats registry,
// as image/png registers PNG: import it for its side effect.
package all

import (
	_ "tensorscope/formats/gguf"
	_ "tensorscope/formats/nn"
	_ "tensorscope/formats/npy"
	_ "tensorscope/formats/onnx"
	_ "tensorscope/formats/pytorch"
	_ "tensorscope/formats/safetensors"
	_ "tensorscope/formats/tflite"
	_ "tensorscope/formats/tmfile"
	_ "tensorscope/formats/tsm"
	_ "tensorscope/formats/tsr"
)
