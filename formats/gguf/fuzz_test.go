package gguf

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// checkDecode decodes b and, when that succeeds, walks every lazy list,
// computes statistics of every tensor and marshals the document. A failure
// must be an error value naming the byte offset.
func checkDecode(t *testing.T, b []byte) (*formats.Document, error) {
	doc, err := formats.DecodeAs("gguf", "fuzz.gguf", b)
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) || fe.Offset < 0 {
			t.Fatalf("error without a byte offset: %v", err)
		}
		return nil, err
	}
	if _, err := doc.MarshalJSON(); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	for _, e := range doc.Tensors {
		x, err := e.Load(context.Background())
		if err != nil {
			continue
		}
		if x.Len() > 1<<16 {
			continue
		}
		if _, err := tensor.ComputeStats(context.Background(), x, nil); err != nil && !strings.Contains(err.Error(), "numeric") {
			t.Logf("%s: stats: %v", e.Name, err)
		}
	}
	return doc, nil
}

func seedFiles(f *testing.F) [][]byte {
	dir := samples.Dir(f, "gguf") // skips (fails under CI=true) without the samples
	var out [][]byte
	for _, p := range []string{
		"edge-cases/kv-and-tensor-types-align64.gguf",
		"quantized-llama.cpp/split/synth-llama256-IQ1_S-00002-of-00002.gguf",
	} {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return append(out, minimalFile())
}

// minimalFile is a hand-made v3 file: one string key and one 2×32 Q8_0 tensor.
func minimalFile() []byte {
	le := binary.LittleEndian
	var b []byte
	b = append(b, "GGUF"...)
	b = le.AppendUint32(b, 3)
	b = le.AppendUint64(b, 1) // tensors
	b = le.AppendUint64(b, 1) // key/values
	b = le.AppendUint64(b, 12)
	b = append(b, "general.name"...)
	b = le.AppendUint32(b, typeString)
	b = le.AppendUint64(b, 2)
	b = append(b, "hi"...)
	b = le.AppendUint64(b, 1)
	b = append(b, "w"...)
	b = le.AppendUint32(b, 2)
	b = le.AppendUint64(b, 32)
	b = le.AppendUint64(b, 2)
	b = le.AppendUint32(b, 8) // Q8_0
	b = le.AppendUint64(b, 0)
	for len(b)%32 != 0 {
		b = append(b, 0)
	}
	for i := 0; i < 2; i++ {
		b = append(b, 0x00, 0x3c) // d = 1
		for j := 0; j < 32; j++ {
			b = append(b, byte(j))
		}
	}
	return b
}

func FuzzDecodeGGUF(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
	})
}

// TestTruncatedAtEveryByte cuts the header of real files at every length:
// each cut is an error naming an offset, never a panic.
func TestTruncatedAtEveryByte(t *testing.T) {
	b, err := os.ReadFile(samplePath(t, "edge-cases/kv-and-tensor-types-align64.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	// Up to the end of the tensor infos every cut is an error; after it the
	// file opens and each tensor whose data is cut off is a warning.
	for n := 0; n < 1604; n++ { // the last tensor ends at 1604
		doc, err := checkDecode(t, b[:n])
		if err == nil && len(doc.Warnings) == 0 {
			t.Fatalf("cut at %d decoded without a warning", n)
		}
	}
	doc, err := checkDecode(t, minimalFile())
	if err != nil {
		t.Fatal(err)
	}
	x, err := doc.Tensors[0].Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := x.Float64At([]int{1, 31}); v != 31 {
		t.Errorf("w[1,31] = %v", v)
	}
}

// TestHostileCounts gives counts, lengths, nesting and offsets far beyond
// the file: each fails at once with the offset, allocating nothing big.
func TestHostileCounts(t *testing.T) {
	le := binary.LittleEndian
	base := minimalFile()
	cases := map[string]struct {
		at    int
		value uint64
		want  string
	}{
		"tensor count":  {8, 1 << 60, "tensor_count"},
		"kv count":      {16, 1 << 62, "metadata_kv_count"},
		"key length":    {24, 1 << 40, "metadata key 0 length"},
		"string length": {48, 1 << 50, "general.name length"},
		"name length":   {58, 1 << 33, "tensor 0 name length"},
		"dimension":     {71, 1 << 61, "overflow"},
		"tensor offset": {91, 1 << 40, ""},
		"type":          {87, 1000, "expected a ggml type"},
	}
	for name, c := range cases {
		b := append([]byte(nil), base...)
		if c.at == 87 {
			le.PutUint32(b[c.at:], uint32(c.value))
		} else {
			le.PutUint64(b[c.at:], c.value)
		}
		doc, err := checkDecode(t, b)
		if c.want == "" {
			if err != nil || len(doc.Warnings) == 0 || doc.Tensors[0].HasData() {
				t.Errorf("%s: want a warning and no data, got %v", name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
	// Arrays nested deeper than maxNesting.
	var b []byte
	b = append(b, "GGUF"...)
	b = le.AppendUint32(b, 3)
	b = le.AppendUint64(b, 0)
	b = le.AppendUint64(b, 1)
	b = le.AppendUint64(b, 1)
	b = append(b, 'a')
	b = le.AppendUint32(b, typeArray)
	for i := 0; i < 100; i++ {
		b = le.AppendUint32(b, typeArray)
		b = le.AppendUint64(b, 1)
	}
	b = le.AppendUint32(b, typeUint8)
	b = le.AppendUint64(b, 1)
	b = append(b, 7)
	if _, err := checkDecode(t, b); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
}
