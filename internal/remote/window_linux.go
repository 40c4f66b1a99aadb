package remote

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// region is the address space of a window: size bytes reserved
// unreadable, over which fetched blocks are mapped from a temporary
// file (unlinked at once, so nothing is left behind however the process
// ends). The file is sparse: only fetched blocks take disk space.
type region struct {
	mem  []byte // the file's bytes
	full []byte // the whole reservation, whole pages
	file *os.File
}

var pageSize = os.Getpagesize()

func newRegion(size int64) (*region, error) {
	n := roundUp(size, int64(pageSize))
	if int64(int(n)) != n {
		return nil, fmt.Errorf("a remote file of %d bytes is too large to map", size)
	}
	mem, err := unix.Mmap(-1, 0, int(n), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("reserving %d bytes of address space: %v", n, err)
	}
	f, err := blockFile()
	if err != nil {
		unix.Munmap(mem)
		return nil, fmt.Errorf("temporary file for fetched blocks: %v", err)
	}
	if err := f.Truncate(n); err != nil {
		f.Close()
		unix.Munmap(mem)
		return nil, fmt.Errorf("temporary file for fetched blocks: %v", err)
	}
	return &region{mem: mem[:size:size], full: mem, file: f}, nil
}

// blockFile is where fetched blocks are kept: a memory file (memfd, in
// RAM like any cache, never written back to a disk), else an unlinked
// temporary file. Either is sparse.
func blockFile() (*os.File, error) {
	if fd, err := unix.MemfdCreate("tensorscope-remote", unix.MFD_CLOEXEC); err == nil {
		return os.NewFile(uintptr(fd), "memfd:tensorscope-remote"), nil
	}
	f, err := os.CreateTemp("", "tensorscope-remote-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// WriteAt stores fetched bytes in the block file (the kernel writes them
// through its own mapping of memory: no page of the process's is new).
func (r *region) WriteAt(b []byte, off int64) (int, error) { return r.file.WriteAt(b, off) }

// publish maps the block file's bytes [off, off+n), stored through
// WriteAt, readable in the window, its pages mapped in at once (in one
// call into the kernel, by the fetching goroutine, rather than one fault
// at a time by the reader).
func (r *region) publish(off, n int64) error {
	return r.mapFixed(off, n, unix.MAP_POPULATE)
}

// discard frees the block file's bytes [off, off+n) of a failed fetch.
func (r *region) discard(off, n int64) {
	unix.Fallocate(int(r.file.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, roundUp(n, int64(pageSize)))
}

// fill stores data at off (page-aligned) and maps it readable.
func (r *region) fill(off int64, data []byte) error {
	if _, err := r.file.WriteAt(data, off); err != nil {
		return fmt.Errorf("storing fetched bytes: %v", err)
	}
	return r.mapFixed(off, int64(len(data)), 0)
}

func (r *region) mapFixed(off, n int64, flags int) error {
	n = roundUp(n, int64(pageSize))
	addr := unsafe.Pointer(unsafe.SliceData(r.full[off:]))
	_, err := unix.MmapPtr(int(r.file.Fd()), off, addr, uintptr(n), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_FIXED|flags)
	if err != nil {
		return fmt.Errorf("mapping fetched bytes: %v", err)
	}
	return nil
}

// drop makes bytes [off, off+n) unreadable again and frees their disk
// space; off and n are page-aligned (n may end at the file's end).
func (r *region) drop(off, n int64) {
	n = roundUp(n, int64(pageSize))
	addr := unsafe.Pointer(unsafe.SliceData(r.full[off:]))
	unix.MmapPtr(-1, 0, addr, uintptr(n), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED)
	unix.Fallocate(int(r.file.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, n)
}

func (r *region) close() error {
	err := unix.Munmap(r.full)
	if e := r.file.Close(); err == nil {
		err = e
	}
	return err
}

func roundUp(n, to int64) int64 { return (n + to - 1) / to * to }
