package cli

import (
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageReserve is how much of the heap heapOnHugePages prepares:
// address space only until touched, and more than a reading command
// usually grows to (the 100-shard index: 25 MB; the statistics of an
// .npz of 100,000 members: 185 MB, 2,800 page faults instead of 24,000
// with a 64 MiB reserve).
const hugePageReserve = 256 << 20

// hugePageSize is the size of a transparent huge page on amd64 and arm64
// with 4 KiB pages; a region must hold whole ones to be backed by them.
const hugePageSize = 2 << 20

// heapOnHugePages lets the heap a short reading command is about to grow
// into be backed by transparent huge pages. Go maps its heap without
// MADV_HUGEPAGE, and where the kernel gives huge pages only to regions
// asking for them (transparent_hugepage=madvise, Debian's default) every
// fresh 4 KiB page costs a page fault: opening the 100-shard index faulted
// 4,700 times, and on a virtual machine a fault costs several
// microseconds (a third of the command's CPU). One huge page replaces 512
// faults.
//
// It allocates hugePageReserve (mapped, never touched), marks it, and
// frees it back to the OS at once: the page allocator hands out those
// addresses first, and the mark belongs to the mapping, so it outlives
// the release. GODEBUG=disablethp=1, Go's own switch, turns it off. It
// acts once per process.
func heapOnHugePages() { hugePagesOnce.Do(markHugePages) }

var hugePagesOnce sync.Once

func markHugePages() {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return
	}
	// Allocating the reserve would start a collection (the heap is a few
	// megabytes), one more than the release below needs.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	reserve := make([]byte, hugePageReserve)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(reserve)))
	from := (start + hugePageSize - 1) &^ (hugePageSize - 1)
	to := (start + hugePageReserve) &^ (hugePageSize - 1)
	if from < to {
		// An error leaves 4 KiB pages, as before.
		_ = unix.Madvise(reserve[from-start:to-start], unix.MADV_HUGEPAGE)
	}
	reserve = nil
	debug.FreeOSMemory()
}
