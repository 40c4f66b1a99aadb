#include "textflag.h"

// func powerSumsAVX(x *float32, n int, c float64, s *[4][4]float64)
//
// n > 0 and a multiple of 8. Per 8 values, in two vectors of 4 float64
// lanes: d = x − c, then d, d², d³ and d⁴ added to two accumulators each
// (so that the adds do not wait on each other), folded pairwise at the end
// into s[k−1] for the power k.
TEXT ·powerSumsAVX(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ s+24(FP), DI
	VBROADCASTSD c+16(FP), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

loop:
	VCVTPS2PD (SI), Y8
	VCVTPS2PD 16(SI), Y9
	VSUBPD Y15, Y8, Y8
	VSUBPD Y15, Y9, Y9
	VADDPD Y8, Y0, Y0
	VADDPD Y9, Y1, Y1
	VMULPD Y8, Y8, Y10
	VMULPD Y9, Y9, Y11
	VADDPD Y10, Y2, Y2
	VADDPD Y11, Y3, Y3
	VMULPD Y10, Y8, Y12
	VMULPD Y11, Y9, Y13
	VADDPD Y12, Y4, Y4
	VADDPD Y13, Y5, Y5
	VMULPD Y10, Y10, Y10
	VMULPD Y11, Y11, Y11
	VADDPD Y10, Y6, Y6
	VADDPD Y11, Y7, Y7
	ADDQ $32, SI
	SUBQ $8, CX
	JNZ  loop

	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y2, 32(DI)
	VMOVUPD Y4, 64(DI)
	VMOVUPD Y6, 96(DI)
	VZEROUPPER
	RET
