package tensor

// powerSumsAVX runs the AVX loop of the higher moments over n float32s at
// x; n is a positive multiple of powerBlock.
//
//go:noescape
func powerSumsAVX(x *float32, n int, c float64, s *[4][4]float64)
