package tensor

// ggmlScaleField says where a block type keeps its block-wide scale and
// minimum: byte offsets within the block (ggml-common.h), -1 when absent.
// The scale is a float16 except for Q8_K (float32) and MXFP4 (an E8M0
// exponent byte); IQ1_M spreads its float16 over the top nibbles of its
// sub-block scales and has no field of its own.
type ggmlScaleField struct {
	scale, min int
}

var ggmlScaleFields = map[DType]ggmlScaleField{
	GGMLQ4_0: {0, -1}, GGMLQ4_1: {0, 2}, GGMLQ5_0: {0, -1}, GGMLQ5_1: {0, 2},
	GGMLQ8_0: {0, -1}, GGMLQ8_1: {0, -1},
	GGMLQ2_K: {80, 82}, GGMLQ3_K: {108, -1}, GGMLQ4_K: {0, 2}, GGMLQ5_K: {0, 2},
	GGMLQ6_K: {208, -1}, GGMLQ8_K: {0, -1},
	GGMLIQ2_XXS: {0, -1}, GGMLIQ2_XS: {0, -1}, GGMLIQ2_S: {0, -1}, GGMLIQ3_XXS: {0, -1},
	GGMLIQ3_S: {0, -1}, GGMLIQ1_S: {0, -1}, GGMLIQ1_M: {-1, -1}, GGMLIQ4_NL: {0, -1},
	GGMLIQ4_XS: {0, -1}, GGMLTQ1_0: {52, -1}, GGMLTQ2_0: {64, -1}, GGMLMXFP4: {0, -1},
}

// iq1mScaleBits assembles IQ1_M's float16 block scale from the top nibbles
// of its four 16-bit sub-block scale words (bytes 48…55).
func iq1mScaleBits(b []byte) uint16 {
	sc := func(i int) uint16 { return uint16(b[48+2*i]) | uint16(b[49+2*i])<<8 }
	return (sc(0) >> 12) | ((sc(1) >> 8) & 0x00f0) | ((sc(2) >> 4) & 0x0f00) | (sc(3) & 0xf000)
}
