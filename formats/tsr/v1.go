package tsr

import (
	"fmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const (
	magicV1      = "TSR!"
	headerSizeV1 = 64
)

var nchw = [4]string{"N", "C", "H", "W"}

// decodeV1 reads a 'TSR!' file. It applies the reference loader's checks,
// in its order, as errors, and reports what that loader ignores
// (header_size, reserved fields, leading dims other than 1) as warnings.
func decodeV1(src *formats.Source) (*formats.Document, error) {
	data := src.Data
	if len(data) < headerSizeV1 {
		return nil, formats.Errorf(0, "file of %d bytes is shorter than the %d-byte TSR v1 header", len(data), headerSizeV1)
	}
	doc := src.NewDocument(v1Format, "1")
	doc.HeaderSpan = formats.Span{Offset: 0, Len: headerSizeV1}
	f := &fields{r: formats.NewReader(data), doc: doc}

	magic := f.str("magic", 4)
	version := f.i32("version")
	headerSize := f.i32("header_size")
	reserved1 := f.i32("reserved_1")
	dtypeCode := f.i32("dtype")
	ndim := f.i32("ndim")
	var dims [4]int32
	for i := range dims {
		dims[i] = f.i32(fmt.Sprintf("dims[%d]", i))
		f.mean(nchw[i])
	}
	total := f.i64("total_elements")
	reserved2 := f.i64("reserved_2")
	reserved3 := f.i64("reserved_3")
	if err := f.r.Err(); err != nil {
		return doc, err
	}

	if magic != magicV1 {
		return doc, formats.Errorf(0, "magic: expected %q, found %q", magicV1, magic)
	}
	if version != 1 {
		return doc, formats.Errorf(4, "version: expected 1, found %d", version)
	}
	dc, ok := v1DTypes.byCode(int64(dtypeCode))
	if !ok {
		return doc, formats.Errorf(16, "dtype: expected one of %s, found %d", v1DTypes, dtypeCode)
	}
	doc.Header[4].Meaning = dc.name
	if ndim < 0 || ndim > 4 {
		return doc, formats.Errorf(20, "ndim: expected 0 to 4, found %d", ndim)
	}
	for i, d := range dims {
		if d < 0 {
			return doc, formats.Errorf(24+4*int64(i), "dims[%d]: expected a size ≥ 0, found %d", i, d)
		}
	}
	// The reference multiplies all four dims, used or not.
	all := []int{int(dims[0]), int(dims[1]), int(dims[2]), int(dims[3])}
	product, err := tensor.NumElements(all)
	if err != nil {
		return doc, formats.Errorf(24, "dims %v: %v", all, err)
	}
	if total != int64(product) {
		return doc, formats.Errorf(40, "total_elements: expected %d (the product of dims %v), found %d", product, all, total)
	}
	dataSize := total * int64(dc.dtype.Size())
	if want := headerSizeV1 + dataSize; int64(len(data)) != want {
		return doc, formats.Errorf(int64(len(data)), "file size: expected %d bytes (64-byte header + %d × %d-byte %s), found %d",
			want, total, dc.dtype.Size(), dc.name, len(data))
	}

	if headerSize != headerSizeV1 {
		doc.Warn(8, "header_size is %d, expected 64 (ignored: the header is always 64 bytes)", headerSize)
	}
	if reserved1 != 0 {
		doc.Warn(12, "reserved_1 is %d, expected 0", reserved1)
	}
	if reserved2 != 0 {
		doc.Warn(48, "reserved_2 is %d, expected 0", reserved2)
	}
	if reserved3 != 0 {
		doc.Warn(56, "reserved_3 is %d, expected 0", reserved3)
	}
	shape := all[4-ndim:]
	for i := 0; i < 4-int(ndim); i++ {
		if dims[i] != 1 {
			doc.Warn(24+4*int64(i), "dims[%d] is %d but ndim %d leaves it unused (expected 1): the tensor %v %s",
				i, dims[i], ndim, shape, holds(shape, int64(total)))
		}
	}
	blk := &block{dtype: dc.dtype, shape: shape, offset: headerSizeV1, size: dataSize, raw: dataSize}
	e := &formats.TensorEntry{Name: "#0", Role: formats.RoleData}
	blk.attach(e, src.Storage, false)
	e.Attrs = append(e.Attrs, formats.Attr{Name: "layout", Value: "NCHW, dims right-aligned"})
	doc.Tensors = []*formats.TensorEntry{e}
	doc.Metadata = formats.NewObject("",
		formats.Leaf("generation", "TSR v1 ('TSR!')"),
		formats.Leaf("dtype", dc.name),
		formats.Leaf("ndim", int64(ndim)),
		formats.Leaf("shape", int64s(shape)),
		formats.Leaf("elements", total),
		formats.Leaf("data_offset", int64(headerSizeV1)),
		formats.Leaf("data_bytes", dataSize),
	)
	return doc, nil
}

func int64s(s []int) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}

// holds says how much of the stored elements a shape takes: "holds the
// first 6 of the 24 stored elements", or why it cannot.
func holds(shape []int, stored int64) string {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return fmt.Sprintf("cannot be read: %v", err)
	}
	return fmt.Sprintf("holds the first %d of the %d stored elements", n, stored)
}
