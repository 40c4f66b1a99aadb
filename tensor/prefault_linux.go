package tensor

import (
	"os"
	"syscall"
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14): populate the page
// tables, reading the pages in if needed, without writing.
const madvPopulateRead = 22

var pageSize = os.Getpagesize()

// populate maps in bytes [start, end) of mapped data (whose first byte is
// page-aligned, as mmap returns it). Kernels before 5.14 refuse
// MADV_POPULATE_READ; they get MADV_WILLNEED, which at least reads ahead.
func populate(data []byte, start, end int) {
	start &^= pageSize - 1
	if err := syscall.Madvise(data[start:end], madvPopulateRead); err == syscall.EINVAL {
		_ = syscall.Madvise(data[start:end], syscall.MADV_WILLNEED)
	}
}

// release drops the pages wholly inside bytes [start, end) of mapped data
// from the process's page tables (MADV_DONTNEED). On a read-only file
// mapping that loses nothing: a later read maps the page again from the
// page cache (or the file).
func release(data []byte, start, end int) {
	start = (start + pageSize - 1) &^ (pageSize - 1)
	end &^= pageSize - 1
	if start < end {
		_ = syscall.Madvise(data[start:end], syscall.MADV_DONTNEED)
	}
}
