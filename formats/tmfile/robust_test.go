package tmfile_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/internal/samples"
)

// exercise decodes data and touches everything a viewer would: JSON, every
// loadable tensor, and a rewrite of the model. It must never panic.
func exercise(t *testing.T, data []byte, withJSON bool) {
	doc, err := formats.DecodeAs("tmfile", "input", data)
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) {
			t.Fatalf("error without an offset: %v", err)
		}
		return
	}
	if withJSON {
		if _, err := json.Marshal(doc); err != nil {
			t.Fatalf("json: %v", err)
		}
	}
	for _, e := range doc.Tensors {
		if e.HasData() {
			if _, err := e.Load(context.Background()); err != nil {
				t.Fatalf("tensor %s has a loader that fails: %v", e.Name, err)
			}
		}
	}
	m, _, err := tmfile.Decode(data)
	if err != nil {
		t.Fatalf("the document decoded but the model did not: %v", err)
	}
	if out, err := tmfile.Marshal(m); err == nil {
		if _, _, err := tmfile.Decode(out); err != nil {
			t.Fatalf("a decodable file was rewritten into an undecodable one: %v", err)
		}
	}
}

// TestTruncation cuts samples at every byte (the small ones) or at many
// places (the large ones): each prefix must give an error or a document.
func TestTruncation(t *testing.T) {
	files := sampleFiles(t)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if len(data) > 20000 {
			step = len(data)/600 + 1
		}
		if testing.Short() {
			step *= 8
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			for n := 0; n < len(data); n += step {
				exercise(t, data[:n], true)
			}
		})
	}
}

// TestTruncationKeepingRoot cuts the demo model in the middle but keeps its
// tail (where the root table, subgraph and vectors are), so that decoding
// reaches deep into the file before the offsets run out.
func TestTruncationKeepingRoot(t *testing.T) {
	data, err := tmfile.Marshal(synth.CNN(60, true))
	if err != nil {
		t.Fatal(err)
	}
	tail := 4096
	for cut := 12; cut < len(data)-tail; cut += 13 {
		mod := append(append([]byte(nil), data[:cut]...), data[len(data)-tail:]...)
		// Point the header at the moved root table.
		root := binary.LittleEndian.Uint32(data[8:]) - uint32(len(data)-len(mod))
		binary.LittleEndian.PutUint32(mod[8:], root)
		exercise(t, mod, true)
	}
}

// TestCorruption flips every 4-byte word of a small model to junk values.
func TestCorruption(t *testing.T) {
	data, err := tmfile.Marshal(featureModel(t))
	if err != nil {
		t.Fatal(err)
	}
	for at := 0; at+4 <= len(data); at += 4 {
		for _, v := range []uint32{0, 1, 0xffffffff, uint32(len(data) - 4)} {
			mod := append([]byte(nil), data...)
			binary.LittleEndian.PutUint32(mod[at:], v)
			exercise(t, mod, false)
		}
	}
}

func TestErrorsNameOffsets(t *testing.T) {
	data, err := tmfile.Marshal(synth.Demo())
	if err != nil {
		t.Fatal(err)
	}
	root := binary.LittleEndian.Uint32(data[8:])
	vSub := binary.LittleEndian.Uint32(data[root+8:])
	sg := binary.LittleEndian.Uint32(data[vSub+4:])
	vNodes := binary.LittleEndian.Uint32(data[sg+20:])
	tests := []struct {
		name   string
		at     uint32 // word to overwrite
		value  uint32
		offset int64 // where the error must point
		text   string
	}{
		{"root past the end", 8, 1 << 30, 1 << 30, "outside the file"},
		{"root into the header", 8, 4, 8, "header"},
		{"node vector past the end", sg + 20, uint32(len(data)) + 100, int64(len(data)) + 100, "outside the file"},
		{"node count too large", vNodes, 1 << 28, int64(vNodes), "count"},
		{"node offset into the header", vNodes + 4, 3, int64(vNodes) + 4, "header"},
	}
	for _, tc := range tests {
		mod := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(mod[tc.at:], tc.value)
		_, err := formats.DecodeAs("tmfile", "x", mod)
		var fe *formats.Error
		if !errors.As(err, &fe) || fe.Offset != tc.offset || !strings.Contains(fe.Msg, tc.text) {
			t.Errorf("%s: %v, want an error at byte %d about %q", tc.name, err, tc.offset, tc.text)
		}
	}
}

// Offsets that all point at one large vector would make a naive decoder
// allocate quadratically; the decoder refuses instead.
func TestSharedVectorsAreRefused(t *testing.T) {
	b := tmfile.NewBuilder(1, "")
	x := b.Input("x", []int32{1})
	for i := 0; i < 2000; i++ {
		x = b.Op("relu", "ReLu", nil, []int32{1}, x)
	}
	m, _ := b.Model()
	big := make([]uint32, 20000)
	m.Nodes[0].Outputs = append([]uint32{0}, big...) // one long output vector
	data, err := tmfile.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// Point every node's output vector at node 0's.
	root := binary.LittleEndian.Uint32(data[8:])
	sg := binary.LittleEndian.Uint32(data[binary.LittleEndian.Uint32(data[root+8:])+4:])
	vNodes := binary.LittleEndian.Uint32(data[sg+20:])
	n0 := binary.LittleEndian.Uint32(data[vNodes+4:])
	shared := binary.LittleEndian.Uint32(data[n0+8:])
	for i := uint32(1); i <= 2000; i++ {
		n := binary.LittleEndian.Uint32(data[vNodes+4+4*i:])
		binary.LittleEndian.PutUint32(data[n+8:], shared)
	}
	_, err = formats.DecodeAs("tmfile", "x", data)
	if err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Fatalf("decoding %d bytes whose 2001 nodes share one 20001-entry vector: %v", len(data), err)
	}
}

func TestSniff(t *testing.T) {
	data, err := tmfile.Marshal(synth.Demo())
	if err != nil {
		t.Fatal(err)
	}
	if !tmfile.Sniff(data) {
		t.Error("the demo model is not sniffed as a tmfile")
	}
	for name, mod := range map[string]func([]byte){
		"ver_main 3":   func(b []byte) { b[0] = 3 },
		"ver_sub 4":    func(b []byte) { b[2] = 4 },
		"root outside": func(b []byte) { binary.LittleEndian.PutUint32(b[8:], uint32(len(b))) },
	} {
		c := append([]byte(nil), data...)
		mod(c)
		if tmfile.Sniff(c) {
			t.Errorf("%s: still sniffed as a tmfile", name)
		}
	}
	if tmfile.Sniff([]byte("TSR!0000000000000000000000000000000000000000")) {
		t.Error("a TSR header is sniffed as a tmfile")
	}
	for _, path := range sampleFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := formats.Detect(data); err != nil || f.ID != "tmfile" {
			t.Errorf("%s detected as %v (%v)", filepath.Base(path), f, err)
		}
	}
}

func FuzzDecodeTMFile(f *testing.F) {
	samples.Seed(f, "tmfile", ".tmfile")
	for _, m := range []*tmfile.Model{featureModel(f), synth.Demo(), synth.CNN(40, true), synth.CNN(5, false)} {
		data, err := tmfile.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data, true)
	})
}
