package safetensors_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/safetensors"
	"tensorscope/tensor"
)

// The index's weight_map names are read as views of the mapped index
// while it decodes; every name a document keeps must be its own, valid
// after the index is unmapped (a view would fault when read after Close).
// Escaped names in the index match plain ones in a shard and the reverse.
func TestIndexNamesOutliveTheMapping(t *testing.T) {
	dir := t.TempDir()
	x, _ := tensor.FromBytes([]byte{1, 0, 2, 0}, tensor.Int16, []int{2})
	f, err := os.Create(filepath.Join(dir, "s1.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if err := safetensors.Write(context.Background(), f, []safetensors.Named{{Name: "plain", Tensor: x}, {Name: "ab", Tensor: x}, {Name: "é", Tensor: x}}, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	index := `{"weight_map": {"plain": "s1.safetensors", "a\u0062": "s1.safetensors", "\u00e9": "s1.safetensors",
		"gone": "missing.safetensors", "not there": "s1.safetensors", "plain": "s1.safetensors"}}`
	path := filepath.Join(dir, "model.safetensors.index.json")
	if err := os.WriteFile(path, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range doc.Tensors {
		names = append(names, e.Name)
		if e.Name == "ab" || e.Name == "é" || e.Name == "plain" {
			if _, err := e.Load(context.Background()); err != nil {
				t.Errorf("%s: %v", e.Name, err)
			}
		}
	}
	var warnings []string
	for _, w := range doc.Warnings {
		warnings = append(warnings, w.Message)
	}
	doc.Close()
	// Read every kept string again, the index's mapping gone.
	want := []string{"plain", "ab", "é", "gone", "not there"}
	if len(names) != len(want) {
		t.Fatalf("tensors %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("tensor %d is %q, want %q", i, names[i], want[i])
		}
	}
	if len(warnings) != 2 {
		t.Errorf("warnings %q", warnings)
	}
	for _, w := range warnings {
		_ = append([]byte(nil), w...)
	}
}
