package tensor

// The ternary types TQ1_0 and TQ2_0: values −1, 0, +1 times a float16 scale.

// tq1Pow3 multiplies a base-3 packed byte so that the wanted trit lands in
// the top bits (ggml's pow3 table).
var tq1Pow3 = [6]uint8{1, 3, 9, 27, 81, 243}

// trit extracts trit n of a TQ1_0 byte: the byte holds a fixed-point
// fraction of 3^5, and multiplying by 3^n moves trit n to the front.
func trit(q uint8, n int) float32 {
	v := q * tq1Pow3[n]
	return float32(int16((uint16(v)*3)>>8) - 1)
}

func decodeTQ1_0(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 54, func(y []float32, b []byte) {
		qs, qh := b[0:48], b[48:52]
		d := half(b[52:])
		// 32 bytes of 5 trits, then 16 bytes of 5 trits, then 4 bytes of 4.
		for n := 0; n < 5; n++ {
			for m := 0; m < 32; m++ {
				y[32*n+m] = trit(qs[m], n) * d
			}
		}
		y = y[160:]
		for n := 0; n < 5; n++ {
			for m := 0; m < 16; m++ {
				y[16*n+m] = trit(qs[32+m], n) * d
			}
		}
		y = y[80:]
		for n := 0; n < 4; n++ {
			for j := 0; j < 4; j++ {
				y[4*n+j] = trit(qh[j], n) * d
			}
		}
	})
}

func decodeTQ2_0(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 66, func(y []float32, b []byte) {
		d := half(b[64:])
		for j := 0; j < 64; j += 32 {
			for l := 0; l < 4; l++ {
				out := y[4*j+32*l : 4*j+32*l+32]
				for m := range out {
					out[m] = float32(int((b[j+m]>>(2*l))&3)-1) * d
				}
			}
		}
	})
}
