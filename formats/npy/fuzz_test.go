package npy_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

func fuzzSeeds(f *testing.F, ext string) {
	dir := filepath.Join(samples.Root(), "npy")
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ext {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 { // small seeds mutate and run fast
				f.Add(b)
			}
		}
		return nil
	})
}

// checkDecode decodes b as id; no input may panic, every failure names a
// byte offset, and decoding allocates at most a small multiple of the input.
func checkDecode(t *testing.T, id string, b []byte) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	doc, err := formats.DecodeAs(id, "fuzz", b)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(256*len(b))+4<<20 {
		t.Fatalf("decoding %d bytes allocated %d", len(b), grew)
	}
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) {
			t.Fatalf("error without a byte offset: %v", err)
		}
		return
	}
	for _, e := range doc.Tensors {
		e.Load(context.Background())
		if e.HasText() {
			e.TextAt(0)
		}
	}
	if _, err := doc.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	doc.Close()
}

func FuzzDecodeNPY(f *testing.F) {
	fuzzSeeds(f, ".npy")
	f.Add(npyBytes("{'descr': [('a', '>i4', (2,)), ('b', [('c', '<M8[D]')])], 'fortran_order': True, 'shape': (2L, 1L), }", make([]byte, 24)))
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, "npy", b) })
}

func FuzzDecodeNPZ(f *testing.F) {
	fuzzSeeds(f, ".npz")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("x.npy")
	w.Write(npyBytes("{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }", make([]byte, 16)))
	zw.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, "npz", b) })
}
