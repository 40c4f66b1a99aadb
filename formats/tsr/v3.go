package tsr

import (
	"fmt"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const (
	magicV3        = "TSR3"
	headerSizeV3   = 128
	rawOffsetV3    = 256 // RAW data starts 256-byte aligned
	zlibOffsetV3   = 128 // ZLIB data follows the header
	modeRAW        = 0
	modeZLIB       = 1
	reservedV3At   = 72
	paddingV3At    = 76
	nhwcDimsLayout = "NHWC, dims right-aligned"
)

var nhwc = [4]string{"N", "H", "W", "C"}

func modeName(m uint32) string {
	switch m {
	case modeRAW:
		return "RAW"
	case modeZLIB:
		return "ZLIB"
	}
	return ""
}

// decodeV3 reads a TSR3 file: one tensor, RAW or ZLIB, with a CRC-32 of the
// raw data. The reference loader's checks are errors; what it only logs or
// ignores is a warning.
func decodeV3(src *formats.Source) (*formats.Document, error) {
	data := src.Data
	size := int64(len(data))
	if size < headerSizeV3 {
		return nil, formats.Errorf(0, "file of %d bytes is shorter than the %d-byte TSR3 header", size, headerSizeV3)
	}
	doc := src.NewDocument(v3Format, "3")
	doc.HeaderSpan = formats.Span{Offset: 0, Len: headerSizeV3}
	f := &fields{r: formats.NewReader(data), doc: doc}

	magic := f.str("magic", 4)
	headerSize := f.u32("header_size")
	version := f.u32("version")
	mode := f.u32("file_mode")
	f.mean(modeName(mode))
	dtypeCode := f.u8("dtype")
	dtypeField := len(doc.Header) - 1
	ndim := f.u8("ndim")
	reserved1 := f.bytes("reserved_1", 2)
	var dims [4]int32
	for i := range dims {
		dims[i] = f.i32(fmt.Sprintf("dims[%d]", i))
		f.mean(nhwc[i])
	}
	numel := f.u64("numel")
	dataOffset := f.u64("data_offset")
	payloadSize := f.u64("payload_size")
	rawSize := f.u64("raw_data_size")
	crc := f.u32("crc32")
	f.mean(fmt.Sprintf("0x%08x", crc))
	reserved2 := f.u32("reserved_2")
	padding := f.bytes("padding", headerSizeV3-paddingV3At)
	if err := f.r.Err(); err != nil {
		return doc, err
	}

	if magic != magicV3 {
		return doc, formats.Errorf(0, "magic: expected %q, found %q", magicV3, magic)
	}
	if version != 3 {
		return doc, formats.Errorf(8, "version: expected 3, found %d", version)
	}
	if headerSize != headerSizeV3 {
		return doc, formats.Errorf(4, "header_size: expected 128, found %d", headerSize)
	}
	if mode != modeRAW && mode != modeZLIB {
		return doc, formats.Errorf(12, "file_mode: expected 0 (RAW) or 1 (ZLIB), found %d", mode)
	}
	dc, ok := v3DTypes.byCode(int64(dtypeCode))
	if !ok {
		return doc, formats.Errorf(16, "dtype: expected one of %s, found %d", v3DTypes, dtypeCode)
	}
	doc.Header[dtypeField].Meaning = dc.name
	if ndim > 4 {
		return doc, formats.Errorf(17, "ndim: expected 0 to 4, found %d", ndim)
	}
	wantOffset := uint64(rawOffsetV3)
	if mode == modeZLIB {
		wantOffset = zlibOffsetV3
	}
	if dataOffset != wantOffset {
		return doc, formats.Errorf(44, "data_offset: expected %d in %s mode, found %d", wantOffset, modeName(mode), dataOffset)
	}
	// The reference multiplies the positive dims only: zero-filled unused
	// dims do not count, and a scalar (all zero) has one element.
	var positive []int
	for i, d := range dims {
		if d < 0 {
			return doc, formats.Errorf(20+4*int64(i), "dims[%d]: expected a size ≥ 0, found %d", i, d)
		}
		if d > 0 {
			positive = append(positive, int(d))
		}
	}
	want, err := tensor.NumElements(positive)
	if err != nil {
		return doc, formats.Errorf(20, "dims %v: %v", dims, err)
	}
	if numel != uint64(want) {
		return doc, formats.Errorf(36, "numel: expected %d (the product of the positive dims %v), found %d", want, dims, numel)
	}
	esize := int64(dc.dtype.Size())
	if rawSize != numel*uint64(esize) {
		return doc, formats.Errorf(60, "raw_data_size: expected %d (%d × %d-byte %s), found %d", numel*uint64(esize), numel, esize, dc.name, rawSize)
	}
	if payloadSize > uint64(size) || dataOffset+payloadSize > uint64(size) {
		return doc, formats.Errorf(52, "payload_size: %d bytes at data_offset %d run past the end of the %d-byte file", payloadSize, dataOffset, size)
	}
	off, payload, raw := int64(dataOffset), int64(payloadSize), int64(rawSize)
	if mode == modeRAW {
		// The reference maps raw_data_size bytes at data_offset, whatever payload_size says.
		if off+raw > size {
			return doc, formats.Errorf(60, "raw_data_size: %d bytes at data_offset %d run past the end of the %d-byte file", raw, off, size)
		}
		if payload != raw {
			doc.Warn(52, "payload_size is %d, expected %d (raw_data_size) in RAW mode", payload, raw)
		}
		payload = raw
	} else if raw > maxRaw(payload) {
		return doc, formats.Errorf(60, "raw_data_size: %d bytes cannot come from a %d-byte zlib payload", raw, payload)
	}

	if !allZero(reserved1) {
		doc.Warn(18, "reserved_1 is %x, expected zeros", reserved1)
	}
	if reserved2 != 0 {
		doc.Warn(reservedV3At, "reserved_2 is %d, expected 0", reserved2)
	}
	if i := firstNonZero(padding); i >= 0 {
		doc.Warn(paddingV3At+int64(i), "header padding holds nonzero bytes, expected zeros")
	}
	if mode == modeRAW {
		if i := firstNonZero(data[headerSizeV3:rawOffsetV3]); i >= 0 {
			doc.Warn(headerSizeV3+int64(i), "alignment padding before the data holds nonzero bytes, expected zeros")
		}
	}
	if end := off + payload; end < size {
		doc.Warn(end, "%d trailing bytes after the data", size-end)
	}

	var shape []int
	for i := 4 - int(ndim); i < 4; i++ {
		shape = append(shape, int(dims[i]))
	}
	if shape == nil {
		shape = []int{}
	}
	if n, err := tensor.NumElements(shape); err != nil || int64(n) != int64(numel) {
		doc.Warn(20, "dims %v with ndim %d give the tensor %v, which %s", dims, ndim, shape, holds(shape, int64(numel)))
	}

	blk := &block{dtype: dc.dtype, shape: shape, offset: off, size: payload, raw: raw,
		zlib: mode == modeZLIB, crc: crc, hasCRC: mode == modeZLIB || crc != 0, crcAt: 68}
	verified := verifyAtOpen(doc, data, []*block{blk}, func(int) string { return "tensor #0" })
	e := &formats.TensorEntry{Name: "#0", Role: formats.RoleData}
	blk.attach(e, src.Storage, verified)
	e.Attrs = append(e.Attrs, formats.Attr{Name: "layout", Value: nhwcDimsLayout})
	doc.Tensors = []*formats.TensorEntry{e}
	doc.Metadata = formats.NewObject("",
		formats.Leaf("generation", "TSR3"),
		formats.Leaf("mode", modeName(mode)),
		formats.Leaf("dtype", dc.name),
		formats.Leaf("ndim", int64(ndim)),
		formats.Leaf("shape", int64s(shape)),
		formats.Leaf("elements", int64(numel)),
		formats.Leaf("data_offset", off),
		formats.Leaf("payload_bytes", payload),
		formats.Leaf("raw_bytes", raw),
	)
	return doc, nil
}
