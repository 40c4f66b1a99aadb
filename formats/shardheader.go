package formats

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
	return ReadHeaderInto(nil, path, first, parse)
}

// ReadHeaderInto is ReadHeader reading into *buf, which it grows as needed
// and leaves for the next call: a caller reading a hundred headers one
// after the other allocates one buffer. parse must then keep nothing of
// prefix. A nil buf reads into a new buffer each time. A local file costs
// a stat, an open, an fstat, one read when the header fits in first bytes,
// and a close: no more system calls than that (os.Open adds four to
// register the file with the poller, which a regular file refuses).
func ReadHeaderInto(buf *[]byte, path string, first int64, parse func(prefix []byte, size int64) (need int64, err error)) (size int64, err error) {
	if IsRemote(path) {
		return readRemoteHeader(path, first, parse)
	}
	if err := CheckRegular(path); err != nil {
		return 0, err
	}
	return readLocalHeader(buf, path, first, parse)
}

// parseLoop reads the header through readAt (which fills its buffer from
// the start of the file) into *buf or new buffers, as ReadHeaderInto says.
func parseLoop(buf *[]byte, size, first int64, readAt func([]byte) error, parse func(prefix []byte, size int64) (need int64, err error)) (int64, error) {
	n := min(first, size)
	var b []byte
	if buf != nil {
		b = *buf
	}
	for {
		if int64(cap(b)) < n || buf == nil {
			b = make([]byte, n) // n ≤ the file's size
		}
		b = b[:n]
		if err := readAt(b); err != nil {
			return 0, err
		}
		if buf != nil {
			*buf = b
		}
		need, err := parse(b, size)
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
