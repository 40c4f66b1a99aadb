package tensor

import (
	"encoding/binary"
	"math"
)

// The K-quants: 256-element super-blocks of 16 or 8 sub-blocks, each with
// its own quantised scale (and minimum) under the block's float16 scales.

// KQuantScaleMin returns sub-block j's 6-bit scale and minimum from the 12
// packed bytes of a Q4_K or Q5_K block (ggml's get_scale_min_k4).
func kScaleMin(j int, q []byte) (sc, m uint8) {
	if j < 4 {
		return q[j] & 63, q[j+4] & 63
	}
	return (q[j+4] & 0x0F) | (q[j-4]>>6)<<4, (q[j+4] >> 4) | (q[j]>>6)<<4
}

// q3KScales unpacks the sixteen 6-bit scales of a Q3_K block (stored with a
// bias of 32) as ggml's dequantize_row_q3_K does.
func q3KScales(b []byte) [16]int8 {
	const kmask1, kmask2 = 0x03030303, 0x0f0f0f0f
	a0 := binary.LittleEndian.Uint32(b[0:])
	a1 := binary.LittleEndian.Uint32(b[4:])
	tmp := binary.LittleEndian.Uint32(b[8:])
	aux := [4]uint32{
		(a0 & kmask2) | ((tmp>>0)&kmask1)<<4,
		(a1 & kmask2) | ((tmp>>2)&kmask1)<<4,
		((a0 >> 4) & kmask2) | ((tmp>>4)&kmask1)<<4,
		((a1 >> 4) & kmask2) | ((tmp>>6)&kmask1)<<4,
	}
	var s [16]int8
	for i, v := range aux {
		s[4*i] = int8(v)
		s[4*i+1] = int8(v >> 8)
		s[4*i+2] = int8(v >> 16)
		s[4*i+3] = int8(v >> 24)
	}
	return s
}

func decodeQ2_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 84, func(y []float32, b []byte) {
		scales := b[0:16]
		d, dmin := half(b[80:]), half(b[82:])
		is := 0
		for n := 0; n < 2; n++ {
			q := b[16+32*n : 16+32*n+32]
			for shift := 0; shift < 8; shift += 2 {
				for part := 0; part < 2; part++ {
					sc := scales[is]
					is++
					dl, ml := float32(d*float32(sc&0x0F)), float32(dmin*float32(sc>>4))
					out := y[:16]
					qq := q[16*part : 16*part+16]
					for l := range out {
						out[l] = float32(dl*float32((qq[l]>>shift)&3)) - ml
					}
					y = y[16:]
				}
			}
		}
	})
}

func decodeQ3_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 110, func(y []float32, b []byte) {
		hm := b[0:32]
		scales := q3KScales(b[96:108])
		dAll := half(b[108:])
		is := 0
		bit := 0 // the hmask bit of this group: set means no −4
		for n := 0; n < 2; n++ {
			q := b[32+32*n : 32+32*n+32]
			for shift := 0; shift < 8; shift += 2 {
				for h := 0; h < 32; h += 16 {
					dl := float32(dAll * float32(int(scales[is])-32))
					is++
					out := y[:16]
					qq, hh := q[h:h+16], hm[h:h+16]
					for l := range out {
						v := int((qq[l]>>shift)&3) - 4 + 4*int((hh[l]>>bit)&1)
						out[l] = dl * float32(v)
					}
					y = y[16:]
				}
				bit++
			}
		}
	})
}

func decodeQ4_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 144, func(y []float32, b []byte) {
		d, dmin := half(b), half(b[2:])
		scales := b[4:16]
		// Each sub-block's 16 possible values, computed once with the
		// reference's float32 expression: a lookup per element then gives
		// the same bits as computing it.
		var t1, t2 [16]float32
		for j := 0; j < 4; j++ {
			sc1, m1 := kScaleMin(2*j, scales)
			sc2, m2 := kScaleMin(2*j+1, scales)
			d1, mm1 := float32(d*float32(sc1)), float32(dmin*float32(m1))
			d2, mm2 := float32(d*float32(sc2)), float32(dmin*float32(m2))
			for q := range t1 {
				t1[q] = float32(d1*float32(q)) - mm1
				t2[q] = float32(d2*float32(q)) - mm2
			}
			q := b[16+32*j : 16+32*j+32]
			lo, hi := y[64*j:64*j+32], y[64*j+32:64*j+64]
			for l := 0; l < 32; l++ {
				lo[l] = t1[q[l]&0x0F]
				hi[l] = t2[q[l]>>4]
			}
		}
	})
}

func decodeQ5_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 176, func(y []float32, b []byte) {
		d, dmin := half(b), half(b[2:])
		scales := b[4:16]
		qh := b[16:48]
		for j := 0; j < 4; j++ {
			sc1, m1 := kScaleMin(2*j, scales)
			sc2, m2 := kScaleMin(2*j+1, scales)
			d1, mm1 := float32(d*float32(sc1)), float32(dmin*float32(m1))
			d2, mm2 := float32(d*float32(sc2)), float32(dmin*float32(m2))
			ql := b[48+32*j : 48+32*j+32]
			lo, hi := y[64*j:64*j+32], y[64*j+32:64*j+64]
			// High bits 2j and 2j+1 of each qh byte, without branches.
			for l := 0; l < 32; l++ {
				v1 := ql[l]&0x0F | (qh[l]>>(2*j)&1)<<4
				v2 := ql[l]>>4 | (qh[l]>>(2*j+1)&1)<<4
				lo[l] = float32(d1*float32(v1)) - mm1
				hi[l] = float32(d2*float32(v2)) - mm2
			}
		}
	})
}

func decodeQ6_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 210, func(y []float32, b []byte) {
		d := half(b[208:])
		for n := 0; n < 2; n++ {
			ql := b[64*n : 64*n+64]
			qh := b[128+32*n : 128+32*n+32]
			sc := b[192+8*n : 192+8*n+8]
			out := y[128*n : 128*n+128]
			for l := 0; l < 32; l++ {
				is := l / 16
				q1 := int(int8((ql[l]&0x0F)|((qh[l]>>0)&3)<<4)) - 32
				q2 := int(int8((ql[l+32]&0x0F)|((qh[l]>>2)&3)<<4)) - 32
				q3 := int(int8((ql[l]>>4)|((qh[l]>>4)&3)<<4)) - 32
				q4 := int(int8((ql[l+32]>>4)|((qh[l]>>6)&3)<<4)) - 32
				out[l] = float32(d*float32(int8(sc[is]))) * float32(q1)
				out[l+32] = float32(d*float32(int8(sc[is+2]))) * float32(q2)
				out[l+64] = float32(d*float32(int8(sc[is+4]))) * float32(q3)
				out[l+96] = float32(d*float32(int8(sc[is+6]))) * float32(q4)
			}
		}
	})
}

func decodeQ8_K(dst []float32, src []byte) {
	forBlocks(dst, src, 256, 292, func(y []float32, b []byte) {
		d := math.Float32frombits(binary.LittleEndian.Uint32(b))
		qs := b[4:260]
		for j := range y {
			y[j] = d * float32(int8(qs[j]))
		}
	})
}
