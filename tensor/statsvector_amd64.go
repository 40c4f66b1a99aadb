package tensor

import "golang.org/x/sys/cpu"

// simdStats: the AVX statistics loop needs AVX and POPCNT.
var simdStats = cpu.X86.HasAVX && cpu.X86.HasPOPCNT

// sumsSIMD runs the AVX loop over x, whose length is a positive multiple
// of vectorBlock.
func sumsSIMD(x []float32, s float64, v *vectorSums) { sumsAVX(&x[0], len(x), s, v) }

//go:noescape
func sumsAVX(x *float32, n int, s float64, v *vectorSums)
