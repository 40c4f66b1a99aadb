//go:build !amd64

package tensor

import "unsafe"

func powerSumsAVX(x *float32, n int, c float64, s *[4][4]float64) {
	powerLanesPortable(unsafe.Slice(x, n), c, s)
}
