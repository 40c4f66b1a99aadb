//go:build !linux

package tflite

// readSparsely does nothing where madvise is not available.
func readSparsely([]byte) (restore func()) { return func() {} }
