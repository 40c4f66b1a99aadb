//go:build !linux

package cli

// heapOnHugePages does nothing where the kernel has no madvise hint for
// transparent huge pages (see hugepages_linux.go).
func heapOnHugePages() {}
