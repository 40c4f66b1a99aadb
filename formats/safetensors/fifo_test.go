package safetensors_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/safetensors"
	"tensorscope/internal/fifo"
	"tensorscope/tensor"
)

// A FIFO standing in for a shard of an index is refused with a warning,
// without waiting for a writer; the other shard stays readable.
func TestIndexShardThatIsAFIFOIsRefused(t *testing.T) {
	dir := t.TempDir()
	var good bytes.Buffer
	x, _ := tensor.FromBytes([]byte{1, 0, 0, 0, 2, 0, 0, 0}, tensor.Int32, []int{2})
	if err := safetensors.Write(context.Background(), &good, []safetensors.Named{{Name: "a", Tensor: x}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "good.safetensors"), good.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo.Make(t, filepath.Join(dir, "pipe.safetensors"))
	index := `{"metadata": {}, "weight_map": {"a": "good.safetensors", "b": "pipe.safetensors"}}`
	path := filepath.Join(dir, "model.safetensors.index.json")
	if err := os.WriteFile(path, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	var doc *formats.Document
	var err error
	fifo.Within(t, 5*time.Second, "opening an index with a FIFO shard", func() { doc, err = formats.Open(path) })
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if b := doc.Tensor("b"); b == nil || b.HasData() {
		t.Errorf("b: %+v", b)
	}
	if _, err := doc.Tensor("a").Load(context.Background()); err != nil {
		t.Error(err)
	}
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "named pipe (FIFO), not a regular file") {
		t.Errorf("warnings %v", doc.Warnings)
	}
}
