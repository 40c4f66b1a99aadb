package gguf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/fifo"
)

// A FIFO standing in for the second shard of a split set is refused with a
// warning, without waiting for a writer.
func TestSplitShardThatIsAFIFOIsRefused(t *testing.T) {
	first := samplePath(t, "quantized-llama.cpp/split/synth-llama256-IQ1_S-00001-of-00002.gguf")
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, filepath.Base(first))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo.Make(t, filepath.Join(dir, strings.Replace(filepath.Base(first), "00001-of", "00002-of", 1)))
	var doc *formats.Document
	fifo.Within(t, 5*time.Second, "opening a split set with a FIFO shard", func() { doc, err = formats.Open(path) })
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if len(fileTensors(doc)) != 6 || len(doc.Warnings) == 0 ||
		!strings.Contains(doc.Warnings[0].Message, "named pipe (FIFO), not a regular file") {
		t.Errorf("%d tensors, warnings %v", len(fileTensors(doc)), doc.Warnings)
	}
}
