//go:build !linux

package tensor

// populate does nothing where MADV_POPULATE_READ does not exist: the
// reads fault pages in as they go.
func populate(data []byte, start, end int) {}

// release does nothing here: the pages stay mapped until the storage is
// closed.
func release(data []byte, start, end int) {}
