package formats

import (
	"io"
)

// ReadHeader reads the header of the file at path without mapping it, for
// a document of many files (safetensors shards, GGUF splits) whose opening
// must map none of them. It reads the first first bytes (fewer in a
// shorter file) and hands them to parse with the file's size; parse
// returns how many bytes from the start it needs in all, and ReadHeader
// reads that many and calls it again, until parse needs no more than it
// was given (or fails). It returns the file's size.
//
// The file must be a regular file: a FIFO or device standing in for a
// shard would make the read wait forever, so it is refused before it is
// opened (see OpenRegular).
func ReadHeader(path string, first int64, parse func(prefix []byte, size int64) (need int64, err error)) (size int64, err error) {
	if IsRemote(path) {
		return readRemoteHeader(path, first, parse)
	}
	f, st, err := OpenRegular(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	size = st.Size()
	n := min(first, size)
	for {
		buf := make([]byte, n) // n ≤ the file's size
		if _, err := f.ReadAt(buf, 0); err != nil && err != io.EOF {
			return 0, err
		}
		need, err := parse(buf, size)
		switch {
		case err != nil:
			return 0, err
		case need <= n:
			return size, nil
		case need > size:
			return 0, Errorf(-1, "the header needs %d bytes; the file has only %d", need, size)
		}
		n = need
	}
}
