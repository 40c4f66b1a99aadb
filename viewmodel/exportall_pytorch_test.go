package viewmodel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// TestExportAllTiedWeights: a checkpoint whose two names share one
// storage is written with one copy, as Hugging Face's convert script
// writes it, and the note and the file's metadata say which was dropped.
func TestExportAllTiedWeights(t *testing.T) {
	src := filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "shared_storage.pt")
	doc, err := formats.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	out := filepath.Join(t.TempDir(), "model.safetensors")
	note, err := ExportAll(context.Background(), out, doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "dropped lm_head.weight (the same data as embed.weight)") {
		t.Errorf("note %q does not name the dropped tied weight", note)
	}
	got, err := formats.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.Tensor("lm_head.weight") != nil || got.Tensor("embed.weight") == nil || len(got.Tensors) != len(doc.Tensors)-1 {
		t.Errorf("wrote %d tensors (lm_head.weight %v); want every tensor but lm_head.weight", len(got.Tensors), got.Tensor("lm_head.weight") != nil)
	}
	a, _ := doc.Tensor("middle").Load(context.Background())
	b, _ := got.Tensor("middle").Load(context.Background())
	for i := range 4 {
		x, _ := a.Float64At([]int{i})
		y, _ := b.Float64At([]int{i})
		if x != y {
			t.Errorf("middle[%d] = %v, want %v", i, y, x)
		}
	}
	if meta, _ := got.Metadata.MarshalJSON(); !strings.Contains(string(meta), `"lm_head.weight":"embed.weight"`) {
		t.Errorf("the file's metadata does not record the dropped name: %s", meta)
	}
}
