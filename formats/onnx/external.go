package onnx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// externalEntry resolves a tensor's external data: location against the
// model's folder (never outside it), offset and length honoured. The file
// is checked to exist at open and mapped on the first Load, once per file.
func (b *builder) externalEntry(e *formats.TensorEntry, tp *tensorProto, n int) {
	var location string
	offset, length := int64(0), int64(-1)
	for _, kv := range tp.external {
		switch kv.key {
		case "location":
			location = kv.value
		case "offset", "length":
			v, err := strconv.ParseInt(kv.value, 10, 64)
			if err != nil || v < 0 {
				b.warn(kv.at, "tensor %q: external data %s %q is not a non-negative integer", e.Name, kv.key, kv.value)
				e.Note = "invalid external data " + kv.key
				return
			}
			if kv.key == "offset" {
				offset = v
			} else {
				length = v
			}
		}
		e.Attrs = append(e.Attrs, formats.Attr{Name: "external " + kv.key, Value: kv.value})
	}
	e.Offset = -1
	need := needBytes(e, n)
	if length >= 0 && length < need {
		b.warn(tp.m.start, "tensor %q: external data length %d, the dims %v of %s need %d bytes", e.Name, length, tp.dims, e.DType, need)
		e.Note = "external data is too short"
		return
	}
	e.NBytes = need
	if location == "" {
		b.warn(tp.m.start, "tensor %q: external data has no location", e.Name)
		e.Note = "external data has no location"
		return
	}
	if b.doc.Path == "" {
		e.Note = "external data in " + location + " (a model read from memory has no folder)"
		return
	}
	path, err := formats.ResolveInside(b.doc.Path, location)
	if err != nil {
		b.warn(tp.m.start, "tensor %q: external data location refused: %v", e.Name, err)
		e.Note = "external data location refused: " + location
		return
	}
	shard, size, first, err := b.shardFor(path)
	if err != nil {
		if first { // one warning per file, not one per tensor
			b.warn(tp.m.start, "tensor %q and the others stored in it: external data file %s: %v; they are listed without data",
				e.Name, location, describeMissing(err))
		}
		e.Note = "external data file " + location + " is missing"
		if !formats.IsNotExist(err) {
			e.Note = "external data file " + location + " cannot be read"
		}
		return
	}
	if end := offset + max(length, need); offset > size || end > size {
		// The file's size is known from the stat that checked it:
		// warn now rather than at the first Load.
		b.warn(tp.m.start, "tensor %q: external data %s holds %d bytes, but the tensor's bytes %d..%d run past its end",
			e.Name, location, size, offset, end)
		e.Note = "external data lies past the end of " + location
		return
	}
	dt, shape := e.DType, e.Shape
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) {
		st, err := shard.Storage()
		if err != nil {
			return nil, err
		}
		if offset > int64(st.Len()) || (length >= 0 && length > int64(st.Len())-offset) || need > int64(st.Len())-offset {
			return nil, fmt.Errorf("external data %s: bytes %d..%d are past its end (%d bytes)", location, offset, offset+max(length, need), st.Len())
		}
		return viewAt(st, offset, dt, shape)
	})
}

// shardFor returns the document's shard for path and its size, adding it
// (after checking that it is a regular file) on first use; first is true
// then.
func (b *builder) shardFor(path string) (shard *formats.Shard, size int64, first bool, err error) {
	if s, ok := b.shards[path]; ok {
		return s, b.shardSize[path], false, b.shardErr[path]
	}
	var s *formats.Shard
	st, err := formats.StatRegular(path)
	if err == nil {
		s = b.doc.AddShard(path)
		size = st.Size()
	}
	b.shards[path], b.shardSize[path], b.shardErr[path] = s, size, err
	return s, size, true, err
}

func describeMissing(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
