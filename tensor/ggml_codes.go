package tensor

import "fmt"

// BlockCodes returns the integer code of every element of a block tensor
// before scaling, as int8 with t's shape: what the quantiser chose, e.g.
// −8…7 for Q4_0, 0…15 for Q4_K, −32…31 for Q6_K, −1…1 for the ternary
// types, the code-book index 0…15 for IQ4_NL, IQ4_XS and MXFP4. The lattice
// types (IQ1, IQ2, IQ3) have grid indices rather than per-element codes and
// are refused.
func BlockCodes(t *Tensor) (*Tensor, error) {
	if _, _, err := wholeBlocks(t, "codes"); err != nil {
		return nil, err
	}
	codes, ok := codeReaders[t.dtype]
	if !ok {
		return nil, fmt.Errorf("codes: %s stores lattice grid indices, not one code per element", t.dtype)
	}
	ub, ue := t.dtype.UnitBytes(), t.dtype.UnitElems()
	blocks := t.Len() / ue
	src := t.storage.Bytes()[t.offset : t.offset+blocks*ub]
	out := make([]byte, t.Len())
	for i := 0; i < blocks; i++ {
		codes(src[i*ub:(i+1)*ub], out[i*ue:(i+1)*ue])
	}
	return FromBytes(out, Int8, t.shape)
}

// codeReaders write one block's codes (as int8 bytes) in element order,
// following the element order of the decoders.
var codeReaders = map[DType]func(b, out []byte){
	GGMLQ4_0:   func(b, out []byte) { nibbles(b[2:18], out, -8) },
	GGMLQ4_1:   func(b, out []byte) { nibbles(b[4:20], out, 0) },
	GGMLIQ4_NL: func(b, out []byte) { nibbles(b[2:18], out, 0) },
	GGMLMXFP4:  func(b, out []byte) { nibbles(b[1:17], out, 0) },
	GGMLQ5_0:   func(b, out []byte) { fiveBit(b[2:6], b[6:22], out, -16) },
	GGMLQ5_1:   func(b, out []byte) { fiveBit(b[4:8], b[8:24], out, 0) },
	GGMLQ8_0:   func(b, out []byte) { copy(out, b[2:34]) },
	GGMLQ8_1:   func(b, out []byte) { copy(out, b[4:36]) },
	GGMLQ8_K:   func(b, out []byte) { copy(out, b[4:260]) },
	GGMLIQ4_XS: func(b, out []byte) {
		for ib := 0; ib < 8; ib++ {
			nibbles(b[8+16*ib:8+16*ib+16], out[32*ib:32*ib+32], 0)
		}
	},
	GGMLQ2_K: func(b, out []byte) {
		for n := 0; n < 2; n++ {
			q := b[16+32*n : 48+32*n]
			for k := 0; k < 4; k++ {
				for l := 0; l < 32; l++ {
					out[128*n+32*k+l] = (q[l] >> (2 * k)) & 3
				}
			}
		}
	},
	GGMLQ3_K: func(b, out []byte) {
		hm := b[0:32]
		for n := 0; n < 2; n++ {
			q := b[32+32*n : 64+32*n]
			for k := 0; k < 4; k++ {
				bit := 4*n + k
				for l := 0; l < 32; l++ {
					v := int((q[l]>>(2*k))&3) - 4 + 4*int((hm[l]>>bit)&1)
					out[128*n+32*k+l] = byte(int8(v))
				}
			}
		}
	},
	GGMLQ4_K: func(b, out []byte) {
		for j := 0; j < 4; j++ {
			q := b[16+32*j : 48+32*j]
			for l := 0; l < 32; l++ {
				out[64*j+l], out[64*j+32+l] = q[l]&0x0F, q[l]>>4
			}
		}
	},
	GGMLQ5_K: func(b, out []byte) {
		qh := b[16:48]
		for j := 0; j < 4; j++ {
			q := b[48+32*j : 80+32*j]
			for l := 0; l < 32; l++ {
				out[64*j+l] = q[l]&0x0F | (qh[l]>>(2*j)&1)<<4
				out[64*j+32+l] = q[l]>>4 | (qh[l]>>(2*j+1)&1)<<4
			}
		}
	},
	GGMLQ6_K: func(b, out []byte) {
		for n := 0; n < 2; n++ {
			ql, qh := b[64*n:64*n+64], b[128+32*n:160+32*n]
			o := out[128*n : 128*n+128]
			for l := 0; l < 32; l++ {
				o[l] = byte(int8((ql[l]&0x0F)|((qh[l]>>0)&3)<<4) - 32)
				o[l+32] = byte(int8((ql[l+32]&0x0F)|((qh[l]>>2)&3)<<4) - 32)
				o[l+64] = byte(int8((ql[l]>>4)|((qh[l]>>4)&3)<<4) - 32)
				o[l+96] = byte(int8((ql[l+32]>>4)|((qh[l]>>6)&3)<<4) - 32)
			}
		}
	},
	GGMLTQ2_0: func(b, out []byte) {
		for j := 0; j < 64; j += 32 {
			for l := 0; l < 4; l++ {
				for m := 0; m < 32; m++ {
					out[4*j+32*l+m] = byte(int8((b[j+m]>>(2*l))&3) - 1)
				}
			}
		}
	},
	GGMLTQ1_0: func(b, out []byte) {
		vals := make([]float32, 256)
		// Trits are the decoded values of a block whose scale is 1.
		blk := append([]byte(nil), b...)
		blk[52], blk[53] = 0x00, 0x3c
		decodeTQ1_0(vals, blk)
		for i, v := range vals {
			out[i] = byte(int8(v))
		}
	},
}

// nibbles writes the low nibbles of q, then the high ones, plus bias.
func nibbles(q, out []byte, bias int) {
	for j, v := range q {
		out[j] = byte(int8(int(v&0x0F) + bias))
		out[j+len(q)] = byte(int8(int(v>>4) + bias))
	}
}

// fiveBit is nibbles with a fifth bit from the 32-bit qh.
func fiveBit(qh4, q, out []byte, bias int) {
	qh := uint32(qh4[0]) | uint32(qh4[1])<<8 | uint32(qh4[2])<<16 | uint32(qh4[3])<<24
	for j, v := range q {
		out[j] = byte(int8(int(v&0x0F|uint8(qh>>j<<4)&0x10) + bias))
		out[j+16] = byte(int8(int(v>>4|uint8(qh>>(j+12))&0x10) + bias))
	}
}

// HasBlockCodes reports whether BlockCodes supports dt.
func HasBlockCodes(dt DType) bool { _, ok := codeReaders[dt]; return ok }
