package tensor

import "encoding/binary"

// The "i-quants": codes index lattice grids (ggml_grids.go) of 8 or 4
// magnitudes, with signs from a separate 7-bit pattern whose eighth sign
// makes the count of minus signs even (ksigns_iq2xs).

// signOf returns −1 when bit j of the sign byte is set, else 1
// (ggml's "signs & kmask_iq2xs[j] ? -1.f : 1.f").
func signOf(signs uint8, j int) float32 {
	if signs>>j&1 != 0 {
		return -1
	}
	return 1
}

// gridByte returns byte j (0 = least significant) of a packed grid row.
func gridByte(row uint64, j int) float32 { return float32(uint8(row >> (8 * j))) }

// put8 writes db·grid[j]·sign for the 8 magnitudes of a grid row.
func put8(y []float32, db float32, row uint64, signs uint8) {
	y = y[:8]
	for j := range y {
		y[j] = float32(db*gridByte(row, j)) * signOf(signs, j)
	}
}

// put4 writes the 4 magnitudes of a 32-bit grid row with signs bits from0…from0+3.
func put4(y []float32, db float32, row uint32, signs uint8, from0 int) {
	y = y[:4]
	for j := range y {
		y[j] = float32(db*float32(uint8(row>>(8*j)))) * signOf(signs, from0+j)
	}
}

func decodeIQ2_XXS(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 66, func(y []float32, b []byte) {
		d := half(b)
		for ib := 0; ib < 8; ib++ {
			q := b[2+8*ib : 2+8*ib+8]
			aux1 := binary.LittleEndian.Uint32(q[4:])
			db := float32(float32(d*(0.5+float32(aux1>>28))) * 0.25)
			for l := 0; l < 4; l++ {
				signs := ggmlSignsIQ2XS[(aux1>>(7*l))&127]
				put8(y[32*ib+8*l:], db, ggmlGridIQ2XXS[q[l]], signs)
			}
		}
	})
}

func decodeIQ2_XS(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 74, func(y []float32, b []byte) {
		d := half(b)
		for ib := 0; ib < 8; ib++ {
			s := b[66+ib]
			db := [2]float32{
				float32(float32(d*(0.5+float32(s&0x0F))) * 0.25),
				float32(float32(d*(0.5+float32(s>>4))) * 0.25),
			}
			for l := 0; l < 4; l++ {
				q := binary.LittleEndian.Uint16(b[2+2*(4*ib+l):])
				put8(y[32*ib+8*l:], db[l/2], ggmlGridIQ2XS[q&511], ggmlSignsIQ2XS[q>>9])
			}
		}
	})
}

func decodeIQ2_S(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 82, func(y []float32, b []byte) {
		d := half(b)
		qs, signs, qh, scales := b[2:34], b[34:66], b[66:74], b[74:82]
		for ib := 0; ib < 8; ib++ {
			db := [2]float32{
				float32(float32(d*(0.5+float32(scales[ib]&0x0F))) * 0.25),
				float32(float32(d*(0.5+float32(scales[ib]>>4))) * 0.25),
			}
			for l := 0; l < 4; l++ {
				idx := int(qs[4*ib+l]) | (int(qh[ib])<<(8-2*l))&0x300
				put8(y[32*ib+8*l:], db[l/2], ggmlGridIQ2S[idx], signs[4*ib+l])
			}
		}
	})
}

func decodeIQ3_XXS(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 98, func(y []float32, b []byte) {
		d := half(b)
		qs, scalesSigns := b[2:66], b[66:98]
		for ib := 0; ib < 8; ib++ {
			aux := binary.LittleEndian.Uint32(scalesSigns[4*ib:])
			db := float32(float32(d*(0.5+float32(aux>>28))) * 0.5)
			q := qs[8*ib : 8*ib+8]
			for l := 0; l < 4; l++ {
				signs := ggmlSignsIQ2XS[(aux>>(7*l))&127]
				out := y[32*ib+8*l:]
				put4(out, db, ggmlGridIQ3XXS[q[2*l]], signs, 0)
				put4(out[4:], db, ggmlGridIQ3XXS[q[2*l+1]], signs, 4)
			}
		}
	})
}

func decodeIQ3_S(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 110, func(y []float32, b []byte) {
		d := half(b)
		qs, qh, signs, scales := b[2:66], b[66:74], b[74:106], b[106:110]
		for ib := 0; ib < 8; ib++ {
			sc := scales[ib/2] >> (4 * (ib % 2)) & 0x0F
			db := float32(d * float32(1+2*int(sc)))
			h := int(qh[ib])
			q := qs[8*ib : 8*ib+8]
			for l := 0; l < 4; l++ {
				i1 := int(q[2*l]) | (h<<(8-2*l))&256
				i2 := int(q[2*l+1]) | (h<<(7-2*l))&256
				out := y[32*ib+8*l:]
				s := signs[4*ib+l]
				put4(out, db, ggmlGridIQ3S[i1], s, 0)
				put4(out[4:], db, ggmlGridIQ3S[i2], s, 4)
			}
		}
	})
}

// ggmlIQ1Delta is ggml's IQ1S_DELTA (and IQ1M_DELTA).
const ggmlIQ1Delta = 0.125

// put8Delta writes dl·(grid[j]+delta) for the 8 signed values of an IQ1 grid row.
func put8Delta(y []float32, dl float32, row uint64, delta float32) {
	y = y[:8]
	for j := range y {
		y[j] = dl * float32(float32(int8(row>>(8*j)))+delta)
	}
}

func decodeIQ1_S(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 50, func(y []float32, b []byte) {
		d := half(b)
		qs := b[2:34]
		for ib := 0; ib < 8; ib++ {
			qh := binary.LittleEndian.Uint16(b[34+2*ib:])
			dl := float32(d * float32(2*((qh>>12)&7)+1))
			delta := float32(ggmlIQ1Delta)
			if qh&0x8000 != 0 {
				delta = -ggmlIQ1Delta
			}
			for l := 0; l < 4; l++ {
				idx := int(qs[4*ib+l]) | int((qh>>(3*l))&7)<<8
				put8Delta(y[32*ib+8*l:], dl, ggmlGridIQ1S[idx], delta)
			}
		}
	})
}

func decodeIQ1_M(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 56, func(y []float32, b []byte) {
		qs, qh := b[0:32], b[32:48]
		var sc [4]uint16
		for i := range sc {
			sc[i] = binary.LittleEndian.Uint16(b[48+2*i:])
		}
		scaleBits := (sc[0] >> 12) | ((sc[1] >> 8) & 0x00f0) | ((sc[2] >> 4) & 0x0f00) | (sc[3] & 0xf000)
		d := float16Table()[scaleBits]
		for ib := 0; ib < 8; ib++ {
			s := sc[ib/2] >> (6 * (ib % 2))
			dl1 := float32(d * float32(2*(s&7)+1))
			dl2 := float32(d * float32(2*((s>>3)&7)+1))
			h0, h1 := int(qh[2*ib]), int(qh[2*ib+1])
			q := qs[4*ib : 4*ib+4]
			idx := [4]int{
				int(q[0]) | (h0<<8)&0x700,
				int(q[1]) | (h0<<4)&0x700,
				int(q[2]) | (h1<<8)&0x700,
				int(q[3]) | (h1<<4)&0x700,
			}
			hs := [4]int{h0 & 0x08, h0 & 0x80, h1 & 0x08, h1 & 0x80}
			for l := 0; l < 4; l++ {
				delta := float32(ggmlIQ1Delta)
				if hs[l] != 0 {
					delta = -ggmlIQ1Delta
				}
				dl := dl1
				if l >= 2 {
					dl = dl2
				}
				put8Delta(y[32*ib+8*l:], dl, ggmlGridIQ1S[idx[l]], delta)
			}
		}
	})
}

func decodeIQ4_XS(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 136, func(y []float32, b []byte) {
		d := half(b)
		scalesH := binary.LittleEndian.Uint16(b[2:])
		scalesL := b[4:8]
		for ib := 0; ib < 8; ib++ {
			ls := int((scalesL[ib/2]>>(4*(ib%2)))&0x0F) | int((scalesH>>(2*ib))&3)<<4
			dl := float32(d * float32(ls-32))
			qs := b[8+16*ib : 8+16*ib+16]
			out := y[32*ib : 32*ib+32]
			for j := 0; j < 16; j++ {
				out[j] = dl * float32(ggmlValuesIQ4NL[qs[j]&0x0F])
				out[j+16] = dl * float32(ggmlValuesIQ4NL[qs[j]>>4])
			}
		}
	})
}
