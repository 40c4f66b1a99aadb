package npy

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/tensor"
)

// float32Archive returns an .npz of one deflated float32 member of n values
// i/2 and the member's body.
func float32Archive(t *testing.T, n int) []byte {
	data := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)/2))
	}
	body := npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ("+itoa(n)+",), }", data)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "w.npy", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	zw.Close()
	return buf.Bytes()
}

func itoa(n int) string { return formatInt(int64(n)) }

func formatInt(n int64) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestInflateToTemporaryFile inflates a member above the in-memory limit
// into an unlinked, mapped temporary file, reporting progress.
func TestInflateToTemporaryFile(t *testing.T) {
	defer func(l int64) { zipfile.InMemoryLimit = l }(zipfile.InMemoryLimit)
	zipfile.InMemoryLimit = 1 << 10
	const n = 3 << 18 // 3 MiB of data: three progress chunks
	doc, err := formats.OpenBytes("w.npz", float32Archive(t, n))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var reports []int64
	ctx := formats.WithProgress(context.Background(), func(done, total int64) { reports = append(reports, done) })
	x, err := doc.Tensor("w").Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Shards()) != 1 || !doc.Shards()[0].Mapped() {
		t.Fatal("the inflated member is not a mapped temporary file")
	}
	if len(reports) < 3 {
		t.Errorf("progress reported %d times", len(reports))
	}
	st, err := tensor.ComputeStats(context.Background(), x, nil)
	if err != nil || st.Max != float64(n-1)/2 || st.Min != 0 {
		t.Fatalf("stats %+v, %v", st, err)
	}
}

// TestInflateCancelled stops inflating when the load is cancelled, and a
// later load succeeds.
func TestInflateCancelled(t *testing.T) {
	doc, err := formats.OpenBytes("w.npz", float32Archive(t, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Tensor("w")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Load(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled load: %v", err)
	}
	if _, err := e.Load(context.Background()); err != nil {
		t.Fatalf("load after a cancelled one: %v", err)
	}
}
