package tflite_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
)

// A model larger than the near region is decoded from the file with pread
// for its scattered words (farWords) and from memory without: both must
// give the same document and the same values.
func TestFarWordsMatchMapping(t *testing.T) {
	data := tflitetest.Heavy(12).Bytes() // three 4 MiB weights, each Buffer table beside its data
	path := filepath.Join(t.TempDir(), "heavy.tflite")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Close()
	inMemory, err := formats.OpenBytes(path, data)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := fromFile.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := inMemory.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("info --json differs:\nfile:   %.400s\nmemory: %.400s", a.String(), b.String())
	}
	weights, far := 0, 0
	for i, e := range fromFile.Tensors {
		if !e.HasData() {
			continue
		}
		weights++
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		y, err := inMemory.Tensors[i].Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		xb, err := x.ContiguousBytes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		yb, err := y.ContiguousBytes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(xb, yb) {
			t.Errorf("%s: values differ", e.Name)
		}
		if e.Offset > 1<<20 {
			far++
		}
	}
	if weights != 3 || far < 2 {
		t.Errorf("%d weights with data (want 3), %d beyond the near region (want 2)", weights, far)
	}
}
