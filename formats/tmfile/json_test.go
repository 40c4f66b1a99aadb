package tmfile_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// TestInfoJSON checks what `tensorscope info --json` prints for a tmfile:
// the formats JSON of the document opened through the registry.
func TestInfoJSON(t *testing.T) {
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Format  string `json:"format"`
		Version string `json:"version"`
		Header  []struct {
			Name    string `json:"name"`
			Offset  int64  `json:"offset"`
			Meaning string `json:"meaning"`
		} `json:"header"`
		Metadata map[string]any `json:"metadata"`
		Tensors  []struct {
			Name    string `json:"name"`
			DType   string `json:"dtype"`
			Role    string `json:"role"`
			HasData bool   `json:"has_data"`
		} `json:"tensors"`
		Graph struct {
			Nodes []struct {
				Name   string         `json:"name"`
				Op     string         `json:"op"`
				Kind   string         `json:"kind"`
				Inputs []int          `json:"inputs"`
				Attrs  map[string]any `json:"attrs"`
			} `json:"nodes"`
			Inputs  []int `json:"inputs"`
			Outputs []int `json:"outputs"`
		} `json:"graph"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	if out.Format != "tmfile" || out.Version != "2.0.0" {
		t.Errorf("format %q version %q", out.Format, out.Version)
	}
	if len(out.Graph.Nodes) != 20 || len(out.Tensors) != 20 {
		t.Fatalf("%d nodes %d tensors", len(out.Graph.Nodes), len(out.Tensors))
	}
	ops := map[string]int{}
	for _, n := range out.Graph.Nodes {
		ops[n.Op]++
	}
	if ops["Convolution"] != 3 || ops["ReLu"] != 1 || ops["Const"] != 11 || ops["InputOp"] != 1 || ops["FullyConnected"] != 2 {
		t.Errorf("ops %v", ops)
	}
	pool := out.Graph.Nodes[15]
	if pool.Op != "Pooling" || pool.Attrs["alg"] != "MAX" || pool.Attrs["kernel_h"] != 2.0 {
		t.Errorf("pooling node %+v", pool)
	}
	reshape := out.Graph.Nodes[16]
	if shape, _ := reshape.Attrs["re_shape"].([]any); len(shape) != 2 || shape[1] != 1568.0 {
		t.Errorf("reshape node %+v", reshape)
	}
	if out.Graph.Nodes[0].Kind != "const" || out.Graph.Nodes[11].Kind != "input" {
		t.Errorf("kinds %q %q", out.Graph.Nodes[0].Kind, out.Graph.Nodes[11].Kind)
	}
	model, _ := out.Metadata["model"].(map[string]any)
	if model["orig_format"] != "ONNX" {
		t.Errorf("metadata model %v", model)
	}
	if out.Header[0].Name != "ver_main" || out.Header[4].Name != "offset_root" || out.Header[5].Meaning != "ONNX" {
		t.Errorf("header %+v", out.Header[:6])
	}
}
