package tensor

import (
	"fmt"
	"os"
	"sync"
)

// Storage is read-only bytes that tensors view: a memory-mapped file, a heap
// slice, or a buffer produced by decompression. Many tensors may share one
// Storage; none of them ever writes to it.
type Storage struct {
	data   []byte
	mapped bool // data is a memory-mapped file (see prefault)
	// dropBehind: passes over the data release the pages they have read
	// (see Release).
	dropBehind bool
	pager      Pager // bytes readable on demand (see Pager)
	release    func() error
	once       sync.Once
	relErr     error
}

// NewStorage wraps bytes already in memory. The caller must not modify b
// afterwards.
func NewStorage(b []byte) *Storage { return &Storage{data: b} }

// NewStorageFunc wraps memory that release frees when the storage is
// closed: a mapping made elsewhere (a remote file's window of fetched
// blocks).
func NewStorageFunc(b []byte, release func() error) *Storage {
	return &Storage{data: b, release: release}
}

// MapFile opens path read-only and maps it into memory (on Linux and macOS;
// elsewhere it reads the file). No tensor data is copied: pages are read
// from disk when a view first touches them.
func MapFile(path string) (*Storage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	size := fi.Size()
	if size == 0 {
		return &Storage{data: []byte{}}, nil
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%s: file of %d bytes is too large to map", path, size)
	}
	data, release, err := mapReadOnly(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Storage{data: data, mapped: release != nil, release: release}, nil
}

// NewAnonymous returns a storage of n zeroed bytes mapped outside the Go
// heap, and those bytes for the caller to fill before any tensor views
// them: an inflated .npz member of hundreds of megabytes, written once.
// Filling 256 MiB of a fresh mapping took 108–130 ms here, against 700 ms
// for a heap buffer of the same size (which the runtime clears and the
// garbage collector then tracks); on Linux the pages are populated in bulk
// when mapped (MAP_POPULATE) rather than faulted in one by one. (Huge
// pages were slower still: 560 ms, the kernel compacting memory to find
// them.) Close unmaps them.
func NewAnonymous(n int) (*Storage, []byte, error) {
	if n == 0 {
		return &Storage{data: []byte{}}, []byte{}, nil
	}
	data, release, err := mapAnonymous(n)
	if err != nil {
		return nil, nil, fmt.Errorf("%d bytes of memory: %w", n, err)
	}
	return &Storage{data: data, release: release}, data, nil
}

// Populate maps in bytes [off, off+n) of a mapped file, in one call into
// the kernel instead of a page fault per 4 KiB, for a reader about to go
// through them in order (an inflater reading a compressed member). Other
// storages, and ranges outside the storage, are left alone. A file
// truncated meanwhile makes it return early, never fault.
func (s *Storage) Populate(off, n int) {
	if !prefaultOn || !s.mapped || n <= 0 || off < 0 || off > len(s.data)-n {
		return
	}
	populate(s.data, off, off+n)
}

// DropBehind makes every pass over a mapped file's bytes (statistics,
// histograms, heatmaps, writing them out) release the pages it has read:
// the process's resident memory then stays near a few chunks per core,
// whatever the file's size, at the cost of mapping pages again (from the
// page cache) on the next pass. The npz reader asks it for members
// inflated into a temporary file, which may be many times larger than the
// file the user opened. It does nothing to other storages.
func (s *Storage) DropBehind() {
	if s.mapped {
		s.dropBehind = true
	}
}

// Release drops the pages wholly inside bytes [off, off+n) from the
// process's resident memory, when the storage is a mapped file marked
// DropBehind; they stay in the page cache, and reading them again maps
// them back. Other storages, and ranges outside the storage, are left
// alone.
func (s *Storage) Release(off, n int) {
	if !s.dropBehind || n <= 0 || off < 0 || off > len(s.data)-n {
		return
	}
	release(s.data, off, off+n)
}

// Bytes returns the whole storage. The slice must be treated as read-only:
// for a mapped file, writing to it faults.
func (s *Storage) Bytes() []byte { return s.data }

// Len is the storage size in bytes.
func (s *Storage) Len() int { return len(s.data) }

// Close unmaps a mapped file. Tensors viewing the storage must not be used
// afterwards. Closing twice is harmless.
func (s *Storage) Close() error {
	s.once.Do(func() {
		if s.release != nil {
			s.relErr = s.release()
		}
		s.data = nil
	})
	return s.relErr
}
