package tsr

import (
	"fmt"
	"hash/crc32"
	"sort"

	"tensorscope/formats"
	"tensorscope/tensor"
)

const (
	magicV4      = "TSR4"
	headerSizeV4 = 128
	entrySizeV4  = 64
	majorV4      = 4
	minorV4      = 20
	alignV4      = 256 // RAW blocks start on 256-byte boundaries
	headerCRCAt  = 40
	// maxGapScan bounds how many bytes between blocks are read to check
	// that padding is zero; a larger gap is reported without reading it.
	maxGapScan = 4096
)

func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }

// headerCRC is the CRC-32 of the 128-byte header with its CRC field zeroed.
func headerCRC(h []byte) uint32 {
	c := crc32.ChecksumIEEE(h[:headerCRCAt])
	c = crc32.Update(c, crc32.IEEETable, []byte{0, 0, 0, 0})
	return crc32.Update(c, crc32.IEEETable, h[headerCRCAt+4:headerSizeV4])
}

// decodeV4 reads a TSR4 container: a 128-byte header, a directory of 64-byte
// entries, and one RAW or ZLIB block per tensor. Every tensor is 4-D NHWC.
// What makes the data unreadable is an error; reserved fields, alignment,
// padding, trailing bytes and CRC mismatches are warnings.
func decodeV4(src *formats.Source) (*formats.Document, error) {
	data := src.Data
	size := int64(len(data))
	if size < headerSizeV4 {
		return nil, formats.Errorf(0, "file of %d bytes is shorter than the %d-byte TSR4 header", size, headerSizeV4)
	}
	doc := src.NewDocument(v4Format, "")
	f := &fields{r: formats.NewReader(data), doc: doc}

	magic := f.str("magic", 4)
	major := f.u16("version_major")
	minor := f.u16("version_minor")
	headerSize := f.u32("header_size")
	mode := f.u32("file_mode")
	f.mean(modeName(mode))
	count := f.u32("tensor_count")
	entrySize := f.u32("entry_size")
	dirOffset := f.u64("dir_offset")
	dataOffset := f.u64("data_offset")
	hcrc := f.u32("header_crc32")
	hcrcField := len(doc.Header) - 1
	reserved0 := f.u32("reserved_0")
	reserved1 := f.bytes("reserved_1", 80)
	if err := f.r.Err(); err != nil {
		return doc, err
	}
	doc.Version = fmt.Sprintf("%d.%d", major, minor)

	if magic != magicV4 {
		return doc, formats.Errorf(0, "magic: expected %q, found %q", magicV4, magic)
	}
	if major != majorV4 {
		return doc, formats.Errorf(4, "version_major: expected 4, found %d", major)
	}
	if headerSize != headerSizeV4 {
		return doc, formats.Errorf(8, "header_size: expected 128, found %d", headerSize)
	}
	if mode != modeRAW && mode != modeZLIB {
		return doc, formats.Errorf(12, "file_mode: expected 0 (RAW) or 1 (ZLIB), found %d", mode)
	}
	if count < 1 {
		return doc, formats.Errorf(16, "tensor_count: expected at least 1, found 0")
	}
	if entrySize != entrySizeV4 {
		return doc, formats.Errorf(20, "entry_size: expected 64, found %d", entrySize)
	}
	if dirOffset < headerSizeV4 || dirOffset > uint64(size) {
		return doc, formats.Errorf(24, "dir_offset: expected an offset from 128 to the file size %d, found %d", size, dirOffset)
	}
	dirStart := int64(dirOffset)
	if int64(count) > (size-dirStart)/entrySizeV4 {
		return doc, formats.Errorf(16, "tensor_count: %d directory entries of 64 bytes at %d need %d bytes, only %d left in the file",
			count, dirStart, int64(count)*entrySizeV4, size-dirStart)
	}
	dirEnd := dirStart + int64(count)*entrySizeV4
	doc.HeaderSpan = formats.Span{Offset: 0, Len: dirEnd}

	if minor != minorV4 {
		doc.Warn(6, "version %d.%d: this reader knows 4.20; reading it as 4.20", major, minor)
	}
	if got := headerCRC(data); got != hcrc {
		doc.Warn(headerCRCAt, "header CRC-32 mismatch: the header records 0x%08x, its bytes have 0x%08x", hcrc, got)
		doc.Header[hcrcField].Meaning = fmt.Sprintf("0x%08x, mismatch: the header's bytes give 0x%08x", hcrc, got)
	} else {
		doc.Header[hcrcField].Meaning = fmt.Sprintf("0x%08x, matches the header", hcrc)
	}
	if reserved0 != 0 {
		doc.Warn(44, "reserved_0 is %d, expected 0", reserved0)
	}
	if i := firstNonZero(reserved1); i >= 0 {
		doc.Warn(48+int64(i), "reserved_1 holds nonzero bytes, expected zeros")
	}
	if dirStart != headerSizeV4 {
		doc.Warn(24, "dir_offset is %d, expected 128 (the directory right after the header)", dirStart)
	}
	wantData := dirEnd
	if mode == modeRAW {
		wantData = alignUp(dirEnd, alignV4)
	}
	if int64(dataOffset) != wantData || dataOffset > uint64(size) {
		doc.Warn(32, "data_offset is %d, expected %d (the first data block)", dataOffset, wantData)
	}

	f.r.SeekTo(dirStart, "directory")
	blocks := make([]*block, count)
	for i := range blocks {
		b, err := readEntryV4(doc, f, i, mode, dirEnd, size)
		if err != nil {
			return doc, err
		}
		blocks[i] = b
	}
	checkLayoutV4(doc, data, blocks, mode, dirEnd)

	name := func(i int) string { return fmt.Sprintf("tensor #%d", i) }
	verified := verifyAtOpen(doc, data, blocks, name)
	for i, b := range blocks {
		e := &formats.TensorEntry{Name: fmt.Sprintf("#%d", i), Role: formats.RoleData}
		b.attach(e, src.Storage, verified)
		e.Attrs = append(e.Attrs, formats.Attr{Name: "layout", Value: "NHWC"})
		doc.Tensors = append(doc.Tensors, e)
	}
	doc.Metadata = formats.NewObject("",
		formats.Leaf("generation", "TSR4"),
		formats.Leaf("version", doc.Version),
		formats.Leaf("mode", modeName(mode)),
		formats.Leaf("tensor_count", int64(count)),
		formats.Leaf("layout", "NHWC, always 4-D"),
	)
	return doc, nil
}

// readEntryV4 reads directory entry i at the reader's position.
func readEntryV4(doc *formats.Document, f *fields, i int, mode uint32, dirEnd, size int64) (*block, error) {
	at := f.r.Offset()
	p := fmt.Sprintf("tensor[%d].", i)
	dtypeCode := f.u8(p + "dtype")
	dtypeField := len(doc.Header) - 1
	reserved := f.bytes(p+"reserved_0", 3)
	var dims [4]int32
	for k := range dims {
		dims[k] = f.i32(fmt.Sprintf("%sshape[%d]", p, k))
		f.mean(nhwc[k])
	}
	numel := f.i64(p + "numel")
	rowStride := f.u64(p + "row_stride")
	nbytes := f.u64(p + "nbytes")
	offset := f.u64(p + "data_offset")
	payload := f.u64(p + "payload_size")
	crc := f.u32(p + "data_crc32")
	f.mean(fmt.Sprintf("0x%08x", crc))
	if err := f.r.Err(); err != nil {
		return nil, err
	}

	dc, ok := v4DTypes.byCode(int64(dtypeCode))
	if !ok {
		return nil, formats.Errorf(at, "%sdtype: expected one of %s, found %d", p, v4DTypes, dtypeCode)
	}
	doc.Header[dtypeField].Meaning = dc.name
	shape := make([]int, 4)
	for k, d := range dims {
		if d < 0 {
			return nil, formats.Errorf(at+4+4*int64(k), "%sshape[%d]: expected a size ≥ 1, found %d", p, k, d)
		}
		if d == 0 {
			doc.Warn(at+4+4*int64(k), "%sshape[%d] is 0, expected a size ≥ 1 (the tensor is empty)", p, k)
		}
		shape[k] = int(d)
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		return nil, formats.Errorf(at+4, "%sshape %v: %v", p, shape, err)
	}
	if numel != int64(n) {
		return nil, formats.Errorf(at+20, "%snumel: expected %d (the product of shape %v), found %d", p, n, shape, numel)
	}
	esize := int64(dc.dtype.Size())
	raw := int64(n) * esize
	if nbytes != uint64(raw) {
		return nil, formats.Errorf(at+36, "%snbytes: expected %d (%d × %d-byte %s), found %d", p, raw, n, esize, dc.name, nbytes)
	}
	if offset > uint64(size) || payload > uint64(size)-offset {
		return nil, formats.Errorf(at+44, "%sdata_offset %d + payload_size %d run past the end of the %d-byte file", p, offset, payload, size)
	}
	if int64(offset) < dirEnd && payload > 0 {
		return nil, formats.Errorf(at+44, "%sdata_offset: expected an offset at or after the directory's end %d, found %d", p, dirEnd, offset)
	}
	if mode == modeRAW {
		if payload != uint64(raw) {
			return nil, formats.Errorf(at+52, "%spayload_size: expected %d (nbytes) in RAW mode, found %d", p, raw, payload)
		}
		if offset%alignV4 != 0 {
			doc.Warn(at+44, "%sdata_offset %d is not a multiple of 256 as RAW blocks must be", p, offset)
		}
	} else if raw > maxRaw(int64(payload)) {
		return nil, formats.Errorf(at+36, "%snbytes: %d bytes cannot come from a %d-byte zlib payload", p, raw, payload)
	}
	if !allZero(reserved) {
		doc.Warn(at+1, "%sreserved_0 is %x, expected zeros", p, reserved)
	}
	// row_stride is informational only (writers before V4.21 stored an
	// aligned stride; the data itself is always compact), so it is shown,
	// not checked.
	b := &block{dtype: dc.dtype, shape: shape, offset: int64(offset), size: int64(payload), raw: raw,
		zlib: mode == modeZLIB, crc: crc, hasCRC: true, crcAt: at + 60,
		extra: []formats.Attr{{Name: "row_stride", Value: int64(rowStride)}}}
	return b, nil
}

// checkLayoutV4 reports overlapping blocks, nonzero or oversized padding
// between blocks, and bytes after the last block.
func checkLayoutV4(doc *formats.Document, data []byte, blocks []*block, mode uint32, dirEnd int64) {
	order := make([]int, len(blocks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return blocks[order[a]].offset < blocks[order[b]].offset })
	end := dirEnd
	endOwner := -1
	for _, i := range order {
		b := blocks[i]
		switch {
		case b.size == 0:
			continue
		case b.offset < end:
			doc.Warn(b.offset, "tensor #%d's data overlaps tensor #%d's", i, endOwner)
		case b.offset > end:
			gap := b.offset - end
			expected := mode == modeRAW && alignUp(end, alignV4) == b.offset
			if !expected {
				doc.Warn(end, "%d bytes between the %s and tensor #%d's data belong to no tensor", gap, owner(endOwner), i)
			} else if gap <= maxGapScan {
				if k := firstNonZero(data[end:b.offset]); k >= 0 {
					doc.Warn(end+int64(k), "alignment padding before tensor #%d's data holds nonzero bytes, expected zeros", i)
				}
			}
		}
		if e := b.offset + b.size; e > end {
			end, endOwner = e, i
		}
	}
	if size := int64(len(data)); end < size {
		doc.Warn(end, "%d trailing bytes after the last data block", size-end)
	}
}

func owner(i int) string {
	if i < 0 {
		return "directory"
	}
	return fmt.Sprintf("tensor #%d's data", i)
}
