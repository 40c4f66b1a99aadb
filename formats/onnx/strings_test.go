package onnx_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// TestStringTensorOfASample: the LabelEncoder node test of the onnx
// repository maps the strings a, b, c (its keys_tensor attribute, as the
// onnx package reads it) to int16 values. The keys read as text and are listed
// with NumPy's dtype for them, object, as the npy codec lists its object
// arrays; the integer values stay numbers.
func TestStringTensorOfASample(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "onnx"), "onnx-github", "node", "test_ai_onnx_ml_label_encoder_tensor_mapping.onnx")
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var keys, values *formats.TensorEntry
	for _, e := range doc.Tensors {
		switch {
		case strings.HasSuffix(e.Name, ".keys_tensor"):
			keys = e
		case strings.HasSuffix(e.Name, ".values_tensor"):
			values = e
		}
	}
	if keys == nil || values == nil {
		t.Fatalf("no keys_tensor or values_tensor among %d tensors", len(doc.Tensors))
	}
	if got := textValues(t, keys); fmt.Sprint(got) != "[a b c]" || keys.TypeString() != "object" {
		t.Errorf("keys: %s %q, want object [a b c]", keys.TypeString(), got)
	}
	if _, err := keys.TextAt(3); err == nil {
		t.Error("element 3 of a 3-string tensor reads without error")
	}
	if values.HasText() || !values.HasData() || values.TypeString() != "int16" {
		t.Errorf("values: %s, text %v, data %v", values.TypeString(), values.HasText(), values.HasData())
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"name":%q,"dtype":"object","shape":[3]`, keys.Name)
	if !strings.Contains(string(out), want) {
		t.Errorf("info --json lacks %s", want)
	}
}
