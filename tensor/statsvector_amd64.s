#include "textflag.h"

// func sumsAVX(x *float32, n int, s float64, v *vectorSums)
//
// n > 0 and a multiple of 16. Per 16 values: the extremes with VMINPS and
// VMAXPS, the zeros by comparing with 0 (equal for both signs) and counting
// the mask's bits, and the deviations from s and their squares in float64,
// in four accumulators each so that the adds do not wait on each other.
// The vectorSums layout: sd at 0, sq at 32, mn at 64, mx at 96, zeros at 128.
TEXT ·sumsAVX(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ v+24(FP), DI
	VBROADCASTSD s+16(FP), Y15
	VXORPS Y14, Y14, Y14
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VBROADCASTSS (SI), Y8
	VMOVAPS Y8, Y9
	XORQ R8, R8

loop:
	VMOVUPS (SI), Y10
	VMOVUPS 32(SI), Y11
	VMINPS Y10, Y8, Y8
	VMAXPS Y10, Y9, Y9
	VMINPS Y11, Y8, Y8
	VMAXPS Y11, Y9, Y9
	VCMPPS $0, Y14, Y10, Y12
	VCMPPS $0, Y14, Y11, Y13
	VMOVMSKPS Y12, AX
	VMOVMSKPS Y13, BX
	POPCNTL AX, AX
	POPCNTL BX, BX
	ADDQ AX, R8
	ADDQ BX, R8

	VCVTPS2PD (SI), Y10
	VCVTPS2PD 16(SI), Y11
	VCVTPS2PD 32(SI), Y12
	VCVTPS2PD 48(SI), Y13
	VSUBPD Y15, Y10, Y10
	VSUBPD Y15, Y11, Y11
	VSUBPD Y15, Y12, Y12
	VSUBPD Y15, Y13, Y13
	VADDPD Y10, Y0, Y0
	VADDPD Y11, Y1, Y1
	VADDPD Y12, Y2, Y2
	VADDPD Y13, Y3, Y3
	VMULPD Y10, Y10, Y10
	VMULPD Y11, Y11, Y11
	VMULPD Y12, Y12, Y12
	VMULPD Y13, Y13, Y13
	VADDPD Y10, Y4, Y4
	VADDPD Y11, Y5, Y5
	VADDPD Y12, Y6, Y6
	VADDPD Y13, Y7, Y7

	ADDQ $64, SI
	SUBQ $16, CX
	JNZ  loop

	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	VADDPD Y6, Y4, Y4
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y4, 32(DI)
	VMOVUPS Y8, 64(DI)
	VMOVUPS Y9, 96(DI)
	MOVQ R8, 128(DI)
	VZEROUPPER
	RET
