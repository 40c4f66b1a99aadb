//go:build !amd64

package tensor

// simdStats: no SIMD statistics loop on this architecture; fastF32's
// scalar loop does the work.
const simdStats = false

func sumsSIMD(x []float32, s float64, v *vectorSums) { sumsPortable(x, s, v) }
