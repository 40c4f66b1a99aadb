package tsm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// infoJSON is the part of `tensorscope info --json` these tests read.
type infoJSON struct {
	Format string `json:"format"`
	Header []struct {
		Name   string `json:"name"`
		Offset int64  `json:"offset"`
		Value  any    `json:"value"`
	} `json:"header"`
	Metadata map[string]any `json:"metadata"`
	Tensors  []struct {
		Name    string         `json:"name"`
		DType   string         `json:"dtype"`
		Shape   []int          `json:"shape"`
		Role    string         `json:"role"`
		HasData bool           `json:"has_data"`
		Attrs   map[string]any `json:"attrs"`
	} `json:"tensors"`
	Graph struct {
		Nodes []struct {
			ID       int            `json:"id"`
			Name     string         `json:"name"`
			Op       string         `json:"op"`
			Kind     string         `json:"kind"`
			Inputs   []int          `json:"inputs"`
			Attrs    map[string]any `json:"attrs"`
			Reserved map[string]any `json:"reserved"`
		} `json:"nodes"`
		Values []struct {
			Name   string `json:"name"`
			DType  string `json:"dtype"`
			Shape  []int  `json:"shape"`
			Tensor *int   `json:"tensor"`
		} `json:"values"`
		Inputs  []int `json:"inputs"`
		Outputs []int `json:"outputs"`
	} `json:"graph"`
	Warnings []string `json:"warnings"`
}

func infoOf(t *testing.T, path string) infoJSON {
	t.Helper()
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var info infoJSON
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	return info
}

func TestJSONGenerated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "net.tsm")
	if err := os.WriteFile(path, readFixture(t, "example_net.tsm"), 0o644); err != nil {
		t.Fatal(err)
	}
	info := infoOf(t, path)
	if info.Format != "tsm" || len(info.Graph.Nodes) != 10 || len(info.Tensors) != 3 {
		t.Fatalf("format %q, %d nodes, %d tensors", info.Format, len(info.Graph.Nodes), len(info.Tensors))
	}
	conv := info.Graph.Nodes[1]
	if conv.Op != "conv2d" || conv.Name != "conv1" || conv.Kind != "op" || conv.Attrs["format"] != "NCHW" {
		t.Errorf("conv node %+v", conv)
	}
	in := info.Graph.Nodes[0]
	if in.Op != "<param>" || in.Kind != "input" || in.Reserved["#dtype"] != "FLOAT32" {
		t.Errorf("input node %+v", in)
	}
	if v := info.Graph.Values[0]; v.DType != "float32" || len(v.Shape) != 4 {
		t.Errorf("input value %+v", v)
	}
	if n := info.Graph.Nodes[7]; n.Op != "<const>" || n.Kind != "const" || info.Graph.Values[7].Tensor == nil {
		t.Errorf("const node %+v", n)
	}
	w := info.Tensors[0]
	if w.Name != "conv1_weights" || w.DType != "float32" || w.Role != "weight" || !w.HasData || w.Attrs["tsm dtype"] != "FLOAT32" {
		t.Errorf("tensor %+v", w)
	}
	if info.Header[0].Name != "fake" || info.Header[2].Name != "user data" {
		t.Errorf("header %+v", info.Header)
	}
}

func TestJSONSamples(t *testing.T) {
	dir := samples.Dir(t, "tsm")
	info := infoOf(t, filepath.Join(dir, "face_detector.csta"))
	if info.Format != "csta" || len(info.Graph.Nodes) != 222 || len(info.Tensors) != 83 || len(info.Warnings) != 0 {
		t.Fatalf("format %q, %d nodes, %d tensors, warnings %v", info.Format, len(info.Graph.Nodes), len(info.Tensors), info.Warnings)
	}
	nms, _ := info.Metadata["nms"].(map[string]any)
	if nms["top_k"] != 5000.0 || nms["threshold"] != 0.3 {
		t.Errorf("nms metadata %v", nms)
	}
	ops := map[string]int{}
	for _, n := range info.Graph.Nodes {
		ops[n.Op]++
	}
	if ops["conv2d"] != 33 || ops["<const>"] != 83 || ops["pooling2d_v2"] != 5 {
		t.Errorf("ops %v", ops)
	}
	plain := infoOf(t, filepath.Join(dir, "face_detector.tsm"))
	if plain.Format != "tsm" || len(plain.Graph.Nodes) != 222 {
		t.Errorf("plain module: %q, %d nodes", plain.Format, len(plain.Graph.Nodes))
	}
}
