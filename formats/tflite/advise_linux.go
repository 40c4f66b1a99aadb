//go:build linux

package tflite

import (
	"os"
	"syscall"
	"unsafe"
)

// readSparsely tells the kernel that decoding touches the mapped file at
// scattered places: the flatbuffer's tables and each buffer's length word,
// which in a model of inline weights lie megabytes apart. Without it every
// touched page brings megabytes of weights around it into memory (534 MB
// of a 1 GB model for 240 length words). The returned function restores
// the default read-ahead for the views that read tensors in order.
func readSparsely(data []byte) (restore func()) {
	page := os.Getpagesize()
	if len(data) < 64<<20 || uintptr(unsafe.Pointer(unsafe.SliceData(data)))%uintptr(page) != 0 {
		return func() {}
	}
	if syscall.Madvise(data, syscall.MADV_RANDOM) != nil {
		return func() {}
	}
	return func() { _ = syscall.Madvise(data, syscall.MADV_NORMAL) }
}
