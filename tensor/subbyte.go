package tensor

// Sub-byte element types and their bit order.
//
// Elements are packed densely as one little-endian bit stream: element i of
// a tensor occupies bits [i·w, (i+1)·w) counting from the least significant
// bit of byte 0 (w = 4, 2 or 6). So
//   - int4, uint4, float4_e2m1fn: two per byte, the first in the low nibble
//     (ONNX's INT4/UINT4/FLOAT4E2M1 packing; onnxruntime packs a pair as
//     (second << 4) | first);
//   - int2, uint2: four per byte, the first in bits 0–1 (ONNX's INT2/UINT2,
//     and Keras' pack_int2 "from the least significant 2-bit field");
//   - float6_e2m3fn, float6_e3m2fn: four per three bytes, element k of a
//     unit in bits 6k..6k+5 of the little-endian 24-bit word b0|b1<<8|b2<<16.
//
// The safetensors spec names F4 and F6 types but only counts their bits,
// not their order; we read them by the same stream rule, which is also the
// zarr "packbits" codec's (element i at bits [i·k, (i+1)·k) of a stream
// filled from each byte's least significant bit). ml_dtypes itself stores
// one element per byte and does not pack.
//
// Signed ints are two's complement in their w bits. The decoders turn whole
// units into float32 through small tables, one lookup per byte.

func init() {
	unitDecoders[Int4] = pairDecoder(func(n uint8) float32 { return float32(int8(n<<4) >> 4) })
	unitDecoders[Uint4] = pairDecoder(func(n uint8) float32 { return float32(n) })
	unitDecoders[Float4E2M1FN] = pairDecoder(func(n uint8) float32 { return NarrowFloatValue(Float4E2M1FN, n) })
	unitDecoders[Int2] = quadDecoder(func(n uint8) float32 { return float32(int8(n<<6) >> 6) })
	unitDecoders[Uint2] = quadDecoder(func(n uint8) float32 { return float32(n) })
	unitDecoders[Float6E2M3FN] = float6Decoder(Float6E2M3FN)
	unitDecoders[Float6E3M2FN] = float6Decoder(Float6E3M2FN)
}

// pairDecoder decodes bytes of two 4-bit elements, low nibble first.
func pairDecoder(value func(nibble uint8) float32) func(dst []float32, src []byte) {
	var tab [256][2]float32
	for b := range tab {
		tab[b] = [2]float32{value(uint8(b) & 15), value(uint8(b) >> 4)}
	}
	return func(dst []float32, src []byte) {
		dst = dst[:2*len(src)]
		for i, b := range src {
			p := &tab[b]
			dst[2*i], dst[2*i+1] = p[0], p[1]
		}
	}
}

// quadDecoder decodes bytes of four 2-bit elements, lowest bits first.
func quadDecoder(value func(crumb uint8) float32) func(dst []float32, src []byte) {
	var tab [256][4]float32
	for b := range tab {
		for k := range 4 {
			tab[b][k] = value(uint8(b) >> (2 * k) & 3)
		}
	}
	return func(dst []float32, src []byte) {
		dst = dst[:4*len(src)]
		for i, b := range src {
			copy(dst[4*i:4*i+4], tab[b][:])
		}
	}
}

// float6Decoder decodes 3-byte units of four 6-bit elements.
func float6Decoder(dt DType) func(dst []float32, src []byte) {
	var tab [64]float32
	for b := range tab {
		tab[b] = NarrowFloatValue(dt, uint8(b))
	}
	return func(dst []float32, src []byte) {
		units := len(src) / 3
		dst = dst[:4*units]
		for u := range units {
			s := src[3*u : 3*u+3]
			w := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16
			d := dst[4*u : 4*u+4]
			d[0], d[1], d[2], d[3] = tab[w&63], tab[w>>6&63], tab[w>>12&63], tab[w>>18&63]
		}
	}
}
