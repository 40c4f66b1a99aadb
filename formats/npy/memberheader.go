package npy

import (
	"fmt"
	"io"

	"tensorscope/formats/internal/zipfile"
)

// headerScratch is what reading the members' headers reuses from one
// member to the next: the reader of the inflated bytes and the buffer the
// header inflates into.
type headerScratch struct {
	head zipfile.HeadReader
	buf  []byte
}

// readHeader inflates only the .npy header at the start of a deflated
// member, into scratch's buffer (valid until the next call).
func (a *array) readHeader(scratch *headerScratch) ([]byte, error) {
	rc, err := scratch.head.Open(&a.Inflater)
	if err != nil {
		return nil, err
	}
	defer scratch.head.Close()
	size := a.Size()
	prefix := min(12, size)
	if int64(cap(scratch.buf)) < prefix {
		scratch.buf = make([]byte, 0, 256)
	}
	head := scratch.buf[:prefix]
	if _, err := io.ReadFull(rc, head); err != nil {
		return nil, a.StreamError(err, 0)
	}
	total, err := peekHeaderLen(head, 0)
	if err != nil {
		return head, nil // parseHeader reports the same problem with its place
	}
	if total > size {
		return nil, fmt.Errorf("header of %d bytes is longer than the member's declared %d bytes", total, size)
	}
	if int64(cap(head)) < total {
		head = append(make([]byte, 0, total), head...)
		scratch.buf = head
	}
	head = head[:total]
	if prefix < total {
		if _, err := io.ReadFull(rc, head[prefix:]); err != nil {
			return nil, a.StreamError(err, prefix)
		}
	}
	return head, nil
}
