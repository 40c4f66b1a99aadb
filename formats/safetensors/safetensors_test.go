package safetensors_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/formats/safetensors"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// file builds a safetensors file from a header JSON and a data buffer.
func file(header string, data []byte) []byte {
	b := make([]byte, 8, 8+len(header)+len(data))
	binary.LittleEndian.PutUint64(b, uint64(len(header)))
	return append(append(b, header...), data...)
}

func rowMajor(t *testing.T, x *tensor.Tensor) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := formats.TensorChunks(x, func(c []byte) error { buf.Write(c); return nil }); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sampleFiles(t *testing.T) []string {
	dir := samples.Dir(t, "safetensors")
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if len(files) < 15 {
		t.Fatalf("found only %d sample files in %s", len(files), dir)
	}
	return files
}

// TestSamplesOpen opens every sample: each opens with every tensor loaded
// (or listed with a reason), except the header that lies about its length,
// which is refused saying so.
func TestSamplesOpen(t *testing.T) {
	for _, path := range sampleFiles(t) {
		doc, err := formats.Open(path)
		if strings.Contains(path, "abuse_attempt") {
			if err == nil || !strings.Contains(err.Error(), "past the end of the 88-byte file") {
				t.Errorf("%s: %v", path, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if doc.Format != "safetensors" || len(doc.Tensors) == 0 || len(doc.Warnings) != 0 {
			t.Errorf("%s: format %s, %d tensors, warnings %v", path, doc.Format, len(doc.Tensors), doc.Warnings)
		}
		for _, e := range doc.Tensors {
			if !e.HasData() {
				t.Errorf("%s: %s has no data: %s", path, e.Name, e.Note)
				continue
			}
			x, err := e.Load(context.Background())
			if err != nil {
				t.Errorf("%s: %s: %v", path, e.Name, err)
				continue
			}
			if int64(len(rowMajor(t, x))) != e.NBytes {
				t.Errorf("%s: %s: loaded bytes differ from the header's range", path, e.Name)
			}
		}
		doc.Close()
	}
}

// TestIndexMatchesShards opens the real sharded checkpoint's index and
// checks that every tensor holds the bytes the same tensor holds when its
// shard is opened alone, and that shards are mapped only when read.
func TestIndexMatchesShards(t *testing.T) {
	dir := filepath.Join(samples.Dir(t, "safetensors"), "FluxML-SafeTensors.jl", "sharded")
	doc, err := formats.Open(filepath.Join(dir, "model.safetensors.index.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if len(doc.Tensors) != 36 || len(doc.Shards()) != 6 || len(doc.Warnings) != 0 {
		t.Fatalf("%d tensors, %d shards, warnings %v", len(doc.Tensors), len(doc.Shards()), doc.Warnings)
	}
	for _, s := range doc.Shards() {
		if s.Mapped() {
			t.Fatalf("%s mapped on opening", s.Path)
		}
	}
	if doc.Metadata.Child("shards") == nil || len(doc.Metadata.Child("shards").Children) != 6 {
		t.Error("the metadata does not list the shards")
	}
	for _, e := range doc.Tensors {
		var shard string
		for _, a := range e.Attributes() {
			if a.Name == "shard" {
				shard = a.Value.(string)
			}
		}
		alone, err := formats.Open(filepath.Join(dir, shard))
		if err != nil {
			t.Fatal(err)
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		y, err := alone.Tensor(e.Name).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rowMajor(t, x), rowMajor(t, y)) || x.DType() != y.DType() {
			t.Errorf("%s differs between the index and %s", e.Name, shard)
		}
		alone.Close()
	}
}

// TestIndexRefusesEscapesAndMissing lists the tensors of a refused or
// missing shard without data, with a warning each.
func TestIndexRefusesEscapesAndMissing(t *testing.T) {
	dir := t.TempDir()
	var good bytes.Buffer
	x, _ := tensor.FromBytes([]byte{1, 0, 0, 0, 2, 0, 0, 0}, tensor.Int32, []int{2})
	if err := safetensors.Write(context.Background(), &good, []safetensors.Named{{Name: "a", Tensor: x}}, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "good.safetensors"), good.Bytes(), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.safetensors"), good.Bytes(), 0o644)
	index := `{"metadata": {"total_size": 8}, "weight_map": {"a": "good.safetensors", "b": "../outside.safetensors",
		"c": "/etc/passwd", "d": "missing.safetensors"}}`
	path := filepath.Join(dir, "model.safetensors.index.json")
	os.WriteFile(path, []byte(index), 0o644)
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	want := map[string]string{"b": "refused", "c": "refused", "d": "missing"}
	for _, e := range doc.Tensors {
		if e.Name == "a" {
			if _, err := e.Load(context.Background()); err != nil {
				t.Error(err)
			}
			continue
		}
		if e.HasData() || !strings.Contains(e.Note, want[e.Name]) {
			t.Errorf("%s: data %v, note %q", e.Name, e.HasData(), e.Note)
		}
	}
	if len(doc.Warnings) != 3 {
		t.Errorf("warnings %v", doc.Warnings)
	}
}

// TestReferenceChecks: each problem the reference refuses is an error or a
// warning naming the tensor and the byte offset.
func TestReferenceChecks(t *testing.T) {
	data := make([]byte, 16)
	cases := []struct {
		name, header string
		data         []byte
		err, warn    string
	}{
		{"outside", `{"a":{"dtype":"F32","shape":[8],"data_offsets":[0,32]}}`, data, "", `tensor "a": data_offsets [0, 32] reach byte`},
		{"overlap", `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[3],"data_offsets":[4,16]}}`, data, "", `tensor "b": data_offsets [4, 16] overlap those of "a"`},
		{"hole", `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}}`, data, "", `4 bytes of the data buffer (at buffer offset 8) belong to no tensor, before "b"`},
		{"size", `{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}`, data, "", `tensor "a": shape [3] of F32 needs 12 bytes`},
		{"dtype", `{"a":{"dtype":"F7","shape":[4],"data_offsets":[0,16]}}`, data, "", `tensor "a": unknown dtype "F7"`},
		{"tail", `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, data, "", "8 bytes after the last tensor's data"},
		{"json", `{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}`, data, "header: expected ',' or '}' after the value of \"a\"", ""},
		{"missing", `{"a":{"dtype":"F32","data_offsets":[0,16]}}`, data, `tensor "a": missing "shape"`, ""},
		{"negative", `{"a":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}}`, data, `tensor "a" shape: expected a non-negative integer`, ""},
		{"notobject", `["a"]`, data, "", ""},
	}
	for _, c := range cases {
		b := file(c.header, c.data)
		doc, err := formats.DecodeAs("safetensors", c.name, b)
		switch {
		case c.err == "" && c.warn == "":
			if err == nil {
				t.Errorf("%s: accepted", c.name)
			}
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "at byte") {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
		default:
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			found := false
			for _, w := range doc.Warnings {
				found = found || (strings.Contains(w.Message, c.warn) && w.Offset >= 0)
			}
			if !found {
				t.Errorf("%s: warnings %v, want %q", c.name, doc.Warnings, c.warn)
			}
		}
	}
	big := make([]byte, 16)
	binary.LittleEndian.PutUint64(big, 100_000_001)
	big[8] = '{'
	if _, err := formats.DecodeAs("safetensors", "big", big); err == nil || !strings.Contains(err.Error(), "over the 100 MB limit") {
		t.Errorf("a 100 MB header: %v", err)
	}
}

// TestWriterRoundTrip writes tensors of every writable dtype, strided views
// included, and reads them back bit for bit.
func TestWriterRoundTrip(t *testing.T) {
	var named []safetensors.Named
	for i, dt := range []tensor.DType{tensor.Bool, tensor.Uint8, tensor.Int8, tensor.Int16, tensor.Uint16, tensor.Int32,
		tensor.Uint32, tensor.Int64, tensor.Uint64, tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64,
		tensor.Complex64, tensor.Float8E4M3FN, tensor.Float8E5M2, tensor.Float8E4M3FNUZ, tensor.Float8E5M2FNUZ, tensor.Float8E8M0FNU} {
		raw := make([]byte, 6*dt.Size())
		for j := range raw {
			raw[j] = byte(i*31 + j*7)
		}
		x, err := tensor.FromBytes(raw, dt, []int{2, 3})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			x, _ = x.Permute([]int{1, 0}) // a strided view
		}
		named = append(named, safetensors.Named{Name: dt.String(), Tensor: x})
	}
	var buf bytes.Buffer
	if err := safetensors.Write(context.Background(), &buf, named, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint64(buf.Bytes())%8 != 0 {
		t.Error("the data buffer is not 8-byte aligned")
	}
	doc, err := formats.OpenBytes("rt.safetensors", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 || doc.Metadata.Child("__metadata__").Child("format").Value != "pt" {
		t.Fatalf("warnings %v", doc.Warnings)
	}
	for _, n := range named {
		y, err := doc.Tensor(n.Name).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if y.DType() != n.Tensor.DType() || !bytes.Equal(rowMajor(t, y), rowMajor(t, n.Tensor)) {
			t.Errorf("%s: differs after the round trip", n.Name)
		}
	}
	c128, _ := tensor.FromBytes(make([]byte, 16), tensor.Complex128, []int{1})
	if err := safetensors.Write(context.Background(), &buf, []safetensors.Named{{Name: "c", Tensor: c128}}, nil); err == nil {
		t.Error("complex128 written, though safetensors has no such dtype")
	}
}

// F4 and F6 tensors are written packed, as safetensors stores them, from
// any view: every element reads back with the same bits.
func TestWriterPacksSubByteTensors(t *testing.T) {
	var named []safetensors.Named
	for i, dt := range []tensor.DType{tensor.Float4E2M1FN, tensor.Float6E2M3FN, tensor.Float6E3M2FN} {
		n, _ := tensor.StorageBytes(dt, 32)
		raw := make([]byte, n)
		for j := range raw {
			raw[j] = byte(i*31 + j*97 + 5)
		}
		x, err := tensor.FromBytes(raw, dt, []int{4, 8})
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, safetensors.Named{Name: dt.String(), Tensor: x})
		xt, _ := x.Permute([]int{1, 0}) // a strided view: repacked in its own order
		named = append(named, safetensors.Named{Name: dt.String() + " transposed", Tensor: xt})
	}
	var buf bytes.Buffer
	if err := safetensors.Write(context.Background(), &buf, named, nil); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.OpenBytes("packed.safetensors", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 {
		t.Fatalf("warnings %v", doc.Warnings)
	}
	for _, n := range named {
		y, err := doc.Tensor(n.Name).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want, got := make([]float64, 32), make([]float64, 32)
		if err := n.Tensor.ReadFloat64s(0, want); err != nil {
			t.Fatal(err)
		}
		if err := y.ReadFloat64s(0, got); err != nil {
			t.Fatal(err)
		}
		if y.DType() != n.Tensor.DType() || !slices.Equal(y.Shape(), n.Tensor.Shape()) || !slices.Equal(got, want) {
			t.Errorf("%s: %v %v after the round trip\n got %v\nwant %v", n.Name, y.DType(), y.Shape(), got, want)
		}
	}
	odd, _ := tensor.FromBytes(make([]byte, 18), tensor.Float4E2M1FN, []int{5, 7})
	if err := safetensors.Write(context.Background(), &buf, []safetensors.Named{{Name: "odd", Tensor: odd}}, nil); err == nil {
		t.Error("35 float4 elements written, though they end inside a byte")
	}
}

// TestMetadataFieldSaysWhatItHolds: the Header pane's __metadata__ field
// says "null" or "{}" when the file holds no metadata, and counts entries.
func TestMetadataFieldSaysWhatItHolds(t *testing.T) {
	cases := map[string]string{
		`null`:                    "null (no metadata)",
		`{}`:                      "{} (no metadata)",
		`{"format":"pt"}`:         "1 entry",
		`{"format":"pt","a":"b"}`: "2 entries",
	}
	for meta, want := range cases {
		path := filepath.Join(t.TempDir(), "m.safetensors")
		header := `{"__metadata__":` + meta + `,"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`
		if err := os.WriteFile(path, file(header, make([]byte, 4)), 0o644); err != nil {
			t.Fatal(err)
		}
		doc, err := formats.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, meaning := "", ""
		for _, f := range doc.Header {
			if f.Name == "__metadata__" {
				got, meaning = fmt.Sprint(f.Value), f.Meaning
			}
		}
		doc.Close()
		if got != want {
			t.Errorf("__metadata__ %s: the field reads %q, want %q", meta, got, want)
		}
		if none := strings.Contains(want, "no metadata"); none != (meaning == "the file holds no metadata") {
			t.Errorf("__metadata__ %s: its meaning reads %q", meta, meaning)
		}
	}
}
