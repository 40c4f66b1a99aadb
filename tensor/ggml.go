package tensor

import (
	"encoding/binary"
	"math"
)

// ggml's block-quantised types. Each decoder below turns whole blocks into
// float32 values with the arithmetic of ggml's reference dequantize_row_*
// (ggml-quants.c), in the same order, so that the values are bit-identical
// to ggml's. Products are rounded to float32 explicitly (float32(a*b)) before
// they are added to anything: the Go spec lets the compiler fuse a*b+c into
// one FMA otherwise, which ggml's reference code does not do.
//
// The block layouts are ggml-common.h's; the lookup grids are generated into
// ggml_grids.go by scripts/ggmlgrids.

func init() {
	unitDecoders[GGMLQ4_0] = decodeQ4_0
	unitDecoders[GGMLQ4_1] = decodeQ4_1
	unitDecoders[GGMLQ5_0] = decodeQ5_0
	unitDecoders[GGMLQ5_1] = decodeQ5_1
	unitDecoders[GGMLQ8_0] = decodeQ8_0
	unitDecoders[GGMLQ8_1] = decodeQ8_1
	unitDecoders[GGMLQ2_K] = decodeQ2_K
	unitDecoders[GGMLQ3_K] = decodeQ3_K
	unitDecoders[GGMLQ4_K] = decodeQ4_K
	unitDecoders[GGMLQ5_K] = decodeQ5_K
	unitDecoders[GGMLQ6_K] = decodeQ6_K
	unitDecoders[GGMLQ8_K] = decodeQ8_K
	unitDecoders[GGMLIQ2_XXS] = decodeIQ2_XXS
	unitDecoders[GGMLIQ2_XS] = decodeIQ2_XS
	unitDecoders[GGMLIQ2_S] = decodeIQ2_S
	unitDecoders[GGMLIQ3_XXS] = decodeIQ3_XXS
	unitDecoders[GGMLIQ3_S] = decodeIQ3_S
	unitDecoders[GGMLIQ1_S] = decodeIQ1_S
	unitDecoders[GGMLIQ1_M] = decodeIQ1_M
	unitDecoders[GGMLIQ4_NL] = decodeIQ4_NL
	unitDecoders[GGMLIQ4_XS] = decodeIQ4_XS
	unitDecoders[GGMLTQ1_0] = decodeTQ1_0
	unitDecoders[GGMLTQ2_0] = decodeTQ2_0
	unitDecoders[GGMLMXFP4] = decodeMXFP4

	// The one block layout with a defined big-endian form: llama.cpp's
	// gguf_convert_endian.py swaps Q8_0's float16 scale and nothing else.
	unitSwappers[GGMLQ8_0] = func(unit []byte) { unit[0], unit[1] = unit[1], unit[0] }
}

// DecodeUnits decodes the whole units in src into dst (len(src)/UnitBytes
// units, len(dst) must be at least units·UnitElems) with the packed dtype's
// reference decoder. It returns the number of values written, or -1 when the
// core has no decoder for dt.
func DecodeUnits(dt DType, dst []float32, src []byte) int {
	if dt >= numDTypes || unitDecoders[dt] == nil {
		return -1
	}
	units := len(src) / dt.UnitBytes()
	n := units * dt.UnitElems()
	unitDecoders[dt](dst[:n], src[:units*dt.UnitBytes()])
	return n
}

// half reads the little-endian float16 at b[0:2] as ggml's GGML_FP16_TO_FP32.
func half(b []byte) float32 { return float16Table()[binary.LittleEndian.Uint16(b)] }

// e8m0Half is ggml's GGML_E8M0_TO_FP32_HALF: half of 2^(e−127), with the
// two smallest exponents as subnormals.
func e8m0Half(e uint8) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e)
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

// blocks calls fn for each block: its bytes and the values it fills.
// Slicing once per block lets the compiler drop bounds checks in fn.
func forBlocks(dst []float32, src []byte, elems, size int, fn func(y []float32, b []byte)) {
	n := len(src) / size
	for i := 0; i < n; i++ {
		fn(dst[i*elems:i*elems+elems:i*elems+elems], src[i*size:i*size+size:i*size+size])
	}
}
