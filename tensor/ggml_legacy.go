package tensor

import "encoding/binary"

// The 32-element types: one float16 scale (and for _1 types a float16
// minimum) per block of 4, 5 or 8-bit codes, and the non-linear 4-bit
// IQ4_NL and MXFP4 code books.

func decodeQ4_0(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 18, func(y []float32, b []byte) {
		d := half(b)
		qs := b[2:18]
		for j := 0; j < 16; j++ {
			y[j] = float32(int(qs[j]&0x0F)-8) * d
			y[j+16] = float32(int(qs[j]>>4)-8) * d
		}
	})
}

func decodeQ4_1(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 20, func(y []float32, b []byte) {
		d, m := half(b), half(b[2:])
		qs := b[4:20]
		for j := 0; j < 16; j++ {
			y[j] = float32(float32(qs[j]&0x0F)*d) + m
			y[j+16] = float32(float32(qs[j]>>4)*d) + m
		}
	})
}

func decodeQ5_0(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 22, func(y []float32, b []byte) {
		d := half(b)
		qh := binary.LittleEndian.Uint32(b[2:])
		qs := b[6:22]
		for j := 0; j < 16; j++ {
			h0 := uint8(qh>>j<<4) & 0x10
			h1 := uint8(qh>>(j+12)) & 0x10
			y[j] = float32(int((qs[j]&0x0F)|h0)-16) * d
			y[j+16] = float32(int((qs[j]>>4)|h1)-16) * d
		}
	})
}

func decodeQ5_1(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 24, func(y []float32, b []byte) {
		d, m := half(b), half(b[2:])
		qh := binary.LittleEndian.Uint32(b[4:])
		qs := b[8:24]
		for j := 0; j < 16; j++ {
			h0 := uint8(qh>>j<<4) & 0x10
			h1 := uint8(qh>>(j+12)) & 0x10
			y[j] = float32(float32((qs[j]&0x0F)|h0)*d) + m
			y[j+16] = float32(float32((qs[j]>>4)|h1)*d) + m
		}
	})
}

func decodeQ8_0(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 34, func(y []float32, b []byte) {
		d := half(b)
		qs := b[2:34]
		for j := 0; j < 32; j++ {
			y[j] = float32(int8(qs[j])) * d
		}
	})
}

// decodeQ8_1: ggml has no dequantize_row_q8_1 (Q8_1 is the activation
// format of its dot products); the value of a code is d·q, as for Q8_0,
// and the block's second float16 (d·Σq) is redundant.
func decodeQ8_1(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 36, func(y []float32, b []byte) {
		d := half(b)
		qs := b[4:36]
		for j := 0; j < 32; j++ {
			y[j] = float32(int8(qs[j])) * d
		}
	})
}

func decodeIQ4_NL(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 18, func(y []float32, b []byte) {
		d := half(b)
		qs := b[2:18]
		for j := 0; j < 16; j++ {
			y[j] = d * float32(ggmlValuesIQ4NL[qs[j]&0x0F])
			y[j+16] = d * float32(ggmlValuesIQ4NL[qs[j]>>4])
		}
	})
}

func decodeMXFP4(dst []float32, src []byte) {
	forBlocks(dst, src, 32, 17, func(y []float32, b []byte) {
		d := e8m0Half(b[0])
		qs := b[1:17]
		for j := 0; j < 16; j++ {
			y[j] = float32(ggmlValuesFP4[qs[j]&0x0F]) * d
			y[j+16] = float32(ggmlValuesFP4[qs[j]>>4]) * d
		}
	})
}
