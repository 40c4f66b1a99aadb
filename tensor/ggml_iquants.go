package tensor

import (
	"encoding/binary"
	"sync"
)

// The "i-quants": codes index lattice grids (ggml_grids.go) of 8 or 4
// magnitudes, with signs from a separate 7-bit pattern whose eighth sign
// makes the count of minus signs even (ksigns_iq2xs).

// The grids expanded into float32 rows, and the sign bytes into rows of
// ±1, so that the inner loops are a load, a multiply and a multiply by ±1
// (exact: it only flips the sign bit, as ggml's "? -1.f : 1.f" does). The
// grids (170 KB) are expanded at their first use: at start-up they cost
// every process a millisecond, and few files hold i-quants.
var signRows = expandSigns()

type iqGrids struct {
	iq2xxs, iq2xs, iq2s, iq1s [][8]float32
	iq3xxs, iq3s              [][4]float32
}

var theIQGrids = sync.OnceValue(func() *iqGrids {
	return &iqGrids{
		iq2xxs: expandGrid8(ggmlGridIQ2XXS[:]),
		iq2xs:  expandGrid8(ggmlGridIQ2XS[:]),
		iq2s:   expandGrid8(ggmlGridIQ2S[:]),
		iq1s:   expandGrid8Signed(ggmlGridIQ1S[:]),
		iq3xxs: expandGrid4(ggmlGridIQ3XXS[:]),
		iq3s:   expandGrid4(ggmlGridIQ3S[:]),
	}
})

func expandSigns() *[256][8]float32 {
	var t [256][8]float32
	for s := range t {
		for j := range t[s] {
			t[s][j] = 1
			if s>>j&1 != 0 {
				t[s][j] = -1
			}
		}
	}
	return &t
}

func expandGrid8(g []uint64) [][8]float32 {
	out := make([][8]float32, len(g))
	for i, row := range g {
		for j := range out[i] {
			out[i][j] = float32(uint8(row >> (8 * j)))
		}
	}
	return out
}

func expandGrid8Signed(g []uint64) [][8]float32 {
	out := make([][8]float32, len(g))
	for i, row := range g {
		for j := range out[i] {
			out[i][j] = float32(int8(row >> (8 * j)))
		}
	}
	return out
}

func expandGrid4(g []uint32) [][4]float32 {
	out := make([][4]float32, len(g))
	for i, row := range g {
		for j := range out[i] {
			out[i][j] = float32(uint8(row >> (8 * j)))
		}
	}
	return out
}

// put8 writes db·grid[j]·sign[j] for the 8 magnitudes of a grid row.
func put8(y []float32, db float32, grid *[8]float32, signs uint8) {
	y = y[:8]
	sg := &signRows[signs]
	for j := range y {
		y[j] = float32(db*grid[j]) * sg[j]
	}
}

// put4 writes the 4 magnitudes of a grid row with sign bits from0…from0+3.
func put4(y []float32, db float32, grid *[4]float32, signs uint8, from0 int) {
	y = y[:4]
	sg := signRows[signs][from0 : from0+4]
	for j := range y {
		y[j] = float32(db*grid[j]) * sg[j]
	}
}

func decodeIQ2_XXS(dst []float32, src []byte) {
	g := theIQGrids()
	forBlocks(dst, src, 256, 66, func(y []float32, b []byte) {
		d := half(b)
		for ib := 0; ib < 8; ib++ {
			q := b[2+8*ib : 2+8*ib+8]
			aux1 := binary.LittleEndian.Uint32(q[4:])
			db := float32(float32(d*(0.5+float32(aux1>>28))) * 0.25)
			for l := 0; l < 4; l++ {
				signs := ggmlSignsIQ2XS[(aux1>>(7*l))&127]
				put8(y[32*ib+8*l:], db, &g.iq2xxs[q[l]], signs)
			}
		}
	})
}

func decodeIQ2_XS(dst []float32, src []byte) {
	g := theIQGrids()
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
				put8(y[32*ib+8*l:], db[l/2], &g.iq2xs[q&511], ggmlSignsIQ2XS[q>>9])
			}
		}
	})
}

func decodeIQ2_S(dst []float32, src []byte) {
	g := theIQGrids()
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
				put8(y[32*ib+8*l:], db[l/2], &g.iq2s[idx], signs[4*ib+l])
			}
		}
	})
}

func decodeIQ3_XXS(dst []float32, src []byte) {
	g := theIQGrids()
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
				put4(out, db, &g.iq3xxs[q[2*l]], signs, 0)
				put4(out[4:], db, &g.iq3xxs[q[2*l+1]], signs, 4)
			}
		}
	})
}

func decodeIQ3_S(dst []float32, src []byte) {
	g := theIQGrids()
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
				put4(out, db, &g.iq3s[i1], s, 0)
				put4(out[4:], db, &g.iq3s[i2], s, 4)
			}
		}
	})
}

// ggmlIQ1Delta is ggml's IQ1S_DELTA (and IQ1M_DELTA).
const ggmlIQ1Delta = 0.125

// put8Delta writes dl·(grid[j]+delta) for the 8 signed values of an IQ1 grid row.
func put8Delta(y []float32, dl float32, grid *[8]float32, delta float32) {
	y = y[:8]
	for j := range y {
		y[j] = dl * float32(grid[j]+delta)
	}
}

func decodeIQ1_S(dst []float32, src []byte) {
	g := theIQGrids()
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
				put8Delta(y[32*ib+8*l:], dl, &g.iq1s[idx], delta)
			}
		}
	})
}

func decodeIQ1_M(dst []float32, src []byte) {
	g := theIQGrids()
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
				put8Delta(y[32*ib+8*l:], dl, &g.iq1s[idx[l]], delta)
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
