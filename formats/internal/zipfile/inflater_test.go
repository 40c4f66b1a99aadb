package zipfile

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// deflatedZip is an archive of one deflated member holding body.
func deflatedZip(t *testing.T, body []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "m", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	zw.Close()
	return buf.Bytes()
}

// onlyMember sets up an inflater for the archive's one member.
func onlyMember(t *testing.T, b []byte) (*Inflater, *Member) {
	t.Helper()
	d, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := d.Find(func(*Member) bool { return true })
	at, err := d.DataOffset(&m)
	if err != nil {
		t.Fatal(err)
	}
	in := new(Inflater)
	if err := in.Init(nil, tensor.NewStorage(b), at, &m); err != nil {
		t.Fatal(err)
	}
	return in, &m
}

// TestInflaterReads: the whole member, its storage and its start read
// what was written.
func TestInflaterReads(t *testing.T) {
	body := bytes.Repeat([]byte("tensorscope "), 1000)
	in, _ := onlyMember(t, deflatedZip(t, body))
	got, err := in.ReadAll(context.Background())
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("ReadAll: %d bytes, %v", len(got), err)
	}
	st, err := in.Inflate(context.Background())
	if err != nil || !bytes.Equal(st.Bytes(), body) {
		t.Fatalf("Inflate: %v", err)
	}
	var h HeadReader
	r, err := h.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 11)
	if _, err := io.ReadFull(r, head); err != nil || string(head) != "tensorscope" {
		t.Fatalf("head %q, %v", head, err)
	}
	h.Close()
}

// TestInflaterRefuses: a wrong CRC-32, a stream longer than declared and
// a declared size deflate cannot reach are refused, naming the byte.
func TestInflaterRefuses(t *testing.T) {
	body := bytes.Repeat([]byte{7}, 4096)
	b := deflatedZip(t, body)
	d, _ := Read(b)
	m, _ := d.Find(func(*Member) bool { return true })

	crc := bytes.Clone(b)
	binary.LittleEndian.PutUint32(crc[m.Record+16:], m.CRC32^1)
	in, _ := onlyMember(t, crc)
	if _, err := in.ReadAll(context.Background()); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("wrong CRC-32: %v", err)
	}

	short := bytes.Clone(b)
	binary.LittleEndian.PutUint32(short[m.Record+24:], 100)
	in, _ = onlyMember(t, short)
	var fe *formats.Error
	if _, err := in.ReadAll(context.Background()); !errors.As(err, &fe) || !strings.Contains(err.Error(), "inflates past the 100 bytes") {
		t.Errorf("longer than declared: %v", err)
	}

	bomb := m
	bomb.UncompressedSize = bomb.CompressedSize*maxDeflateRatio + 1025
	if err := CheckRatio(&bomb); err == nil || !strings.Contains(err.Error(), "zip bomb") {
		t.Errorf("bomb: %v", err)
	}
	if err := new(Inflater).Init(nil, nil, 0, &bomb); err == nil {
		t.Error("Init accepted a bomb")
	}
}

// TestInflaterCancelled: a cancelled inflation is not remembered.
func TestInflaterCancelled(t *testing.T) {
	in, _ := onlyMember(t, deflatedZip(t, make([]byte, 3<<20)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := in.Inflate(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	doc := (&formats.Source{Path: "m.zip"}).NewDocument(&formats.Format{ID: "zip"}, "")
	in.doc = doc // a member this size is mapped, and the document owns the mapping
	defer doc.Close()
	if _, err := in.Inflate(context.Background()); err != nil {
		t.Fatalf("after a cancelled one: %v", err)
	}
}
