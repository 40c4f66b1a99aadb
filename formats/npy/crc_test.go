package npy_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"hash/crc32"
	"strings"
	"testing"

	"tensorscope/formats"
)

// A deflated member is checked as archive/zip checks it: its CRC-32
// against the central directory's when the member is read whole, and a
// data descriptor's against it when there is one.
func TestMemberCRC(t *testing.T) {
	body := npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }", []byte{1, 2, 3, 4, 5})
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestCompression)
	fw.Write(body)
	fw.Close()
	good := crc32.ChecksumIEEE(body)
	for _, c := range []struct {
		name       string
		descriptor bool
		header     uint32 // the central directory's CRC-32
		written    uint32 // the descriptor's
		wantErr    bool
	}{
		{"no descriptor, right", false, good, 0, false},
		{"no descriptor, wrong", false, good ^ 1, 0, true},
		{"no descriptor, none recorded", false, 0, 0, false},
		{"descriptor, right", true, good, good, false},
		{"descriptor, wrong in both", true, good ^ 1, good ^ 1, true},
		{"descriptor disagrees", true, good, good ^ 1, true},
	} {
		var zbuf bytes.Buffer
		zw := zip.NewWriter(&zbuf)
		fh := &zip.FileHeader{Name: "a.npy", Method: zip.Deflate, CompressedSize64: uint64(packed.Len()),
			UncompressedSize64: uint64(len(body)), CRC32: c.header}
		if c.descriptor {
			fh.Flags |= 0x8
		}
		w, err := zw.CreateRaw(fh)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(packed.Bytes())
		if c.descriptor {
			// CreateRaw writes no descriptor of its own: with signature.
			d := []byte{0x50, 0x4b, 0x07, 0x08, byte(c.written), byte(c.written >> 8), byte(c.written >> 16), byte(c.written >> 24)}
			d = append(d, make([]byte, 8)...)
			w.Write(d)
			fh.CompressedSize64 = uint64(packed.Len())
		}
		zw.Close()
		data := zbuf.Bytes()
		if c.descriptor {
			data = fixDescriptorSizes(t, data, packed.Len())
		}
		doc, err := formats.OpenBytes("crc.npz", data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e := doc.Tensor("a")
		if e == nil {
			t.Fatalf("%s: not listed; warnings %v", c.name, doc.Warnings)
		}
		_, err = e.Load(context.Background())
		if c.wantErr != (err != nil) || (err != nil && !strings.Contains(err.Error(), "checksum")) {
			t.Errorf("%s: loading gave %v", c.name, err)
		}
	}
}

// fixDescriptorSizes sets the central directory's compressed size back to
// the stream's: CreateRaw counted the descriptor written after it.
func fixDescriptorSizes(t *testing.T, data []byte, packed int) []byte {
	i := bytes.LastIndex(data, []byte{0x50, 0x4b, 0x01, 0x02})
	if i < 0 {
		t.Fatal("no central directory")
	}
	p := uint32(packed)
	copy(data[i+20:], []byte{byte(p), byte(p >> 8), byte(p >> 16), byte(p >> 24)})
	return data
}
