package formats

import (
	"errors"
	"fmt"
	"syscall"

	"tensorscope/tensor"
)

// gatherSize is the buffer TensorChunks fills when a view's contiguous runs
// are short, so that writers see few large writes instead of one per element.
const gatherSize = 64 << 10

// releaseStep is the largest chunk TensorChunks passes from the storage
// at once: large enough that writes stay efficient, small enough that the
// pages of a storage that drops behind are released soon after.
const releaseStep = 8 << 20

// TensorChunks calls fn with t's elements in row-major order, as stored
// (little-endian), in chunks that together hold exactly t.Len() elements.
// Contiguous runs of the storage are passed without copying; short runs of a
// strided view are gathered into a reused buffer. fn must neither modify nor
// keep the chunk. Writers use it so that any view, contiguous or not, can be
// written without materialising a copy of the whole tensor. A memory fault
// while reading a mapped file (truncated on disk) returns tensor.ErrFault.
func TensorChunks(t *tensor.Tensor, fn func(chunk []byte) error) error {
	err := tensor.CatchFault(func() error { return tensorChunks(t, fn) })
	// Chunks go to write(2) straight from the mapping; the kernel reports
	// a fault there as EFAULT instead of raising SIGBUS.
	if errors.Is(err, syscall.EFAULT) {
		return tensor.ErrFault
	}
	return err
}

func tensorChunks(t *tensor.Tensor, fn func(chunk []byte) error) error {
	es := int64(t.DType().Size())
	if es == 0 || t.IsMagnitude() {
		return fmt.Errorf("tensor %s has no bytes of its own to write (convert it with ToFloat32)", t)
	}
	if t.IsBigEndian() {
		fn = swappedChunks(t.DType(), fn)
	}
	shape, strides := t.PhysicalLayout() // a composite axis contributes its components
	for _, d := range shape {
		if d == 0 {
			return nil
		}
	}
	st := t.Storage()
	data := st.Bytes()
	off := int64(t.Offset())
	lo, hi := off, off
	for i, d := range shape {
		span := int64(strides[i]) * es * int64(d-1)
		if span < 0 {
			lo += span
		} else {
			hi += span
		}
	}
	if lo < 0 || hi+es > int64(len(data)) {
		return fmt.Errorf("tensor %s reaches bytes %d..%d outside its storage of %d bytes",
			t, lo, hi+es, len(data))
	}

	// The innermost dims whose strides are row-major form one contiguous run.
	k := len(shape)
	run := int64(1)
	for k > 0 && (shape[k-1] == 1 || int64(strides[k-1]) == run) {
		run *= int64(shape[k-1])
		k--
	}
	runBytes := run * es

	var buf []byte
	if runBytes < gatherSize/4 {
		buf = make([]byte, 0, gatherSize)
	}
	idx := make([]int, k)
	for {
		pos := off
		for i := 0; i < k; i++ {
			pos += int64(idx[i]) * int64(strides[i]) * es
		}
		chunk := data[pos : pos+runBytes]
		if buf == nil {
			// In pieces, each released once written: a storage that
			// drops behind (tensor.Storage.DropBehind) then stays out
			// of memory however long the run.
			for at := int64(0); at < runBytes; at += releaseStep {
				piece := chunk[at:min(at+releaseStep, runBytes)]
				if err := fn(piece); err != nil {
					return err
				}
				st.Release(int(pos+at), len(piece))
			}
		} else {
			if int64(len(buf))+runBytes > int64(cap(buf)) {
				if err := fn(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
			buf = append(buf, chunk...)
		}
		i := k - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	if len(buf) > 0 {
		return fn(buf)
	}
	return nil
}

// swappedChunks wraps fn so that it receives a big-endian tensor's chunks
// as little-endian bytes, swapped in a reused buffer (each half of a
// complex number on its own).
func swappedChunks(dt tensor.DType, fn func(chunk []byte) error) func([]byte) error {
	unit := dt.Size()
	if dt.IsComplex() {
		unit /= 2
	}
	var buf []byte
	return func(c []byte) error {
		buf = append(buf[:0], c...)
		for i := 0; i+unit <= len(buf); i += unit {
			e := buf[i : i+unit]
			for a, b := 0, unit-1; a < b; a, b = a+1, b-1 {
				e[a], e[b] = e[b], e[a]
			}
		}
		return fn(buf)
	}
}
