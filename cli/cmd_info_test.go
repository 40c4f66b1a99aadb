package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats/tsr"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// runCmd runs the command line in-process and returns its output.
func runCmd(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb, noViewer)
	return out.String(), errb.String(), code
}

// infoJSON is the contract of `info --json` that automated checks rely on.
type infoJSON struct {
	Path    *string `json:"path"`
	Size    *int64  `json:"size"`
	Format  *string `json:"format"`
	Version *string `json:"version"`
	Header  []struct {
		Name    string `json:"name"`
		Offset  *int64 `json:"offset"`
		Size    *int   `json:"size"`
		Value   any    `json:"value"`
		Meaning *string
	} `json:"header"`
	Metadata map[string]any `json:"metadata"`
	Tensors  []struct {
		Name   string `json:"name"`
		DType  string `json:"dtype"`
		Shape  []int  `json:"shape"`
		Offset *int64 `json:"offset"`
		NBytes int64  `json:"nbytes"`
		Role   string `json:"role"`
	} `json:"tensors"`
	Graph *struct {
		Nodes []struct {
			ID      int            `json:"id"`
			Name    string         `json:"name"`
			Op      string         `json:"op"`
			Inputs  []int          `json:"inputs"`
			Outputs []int          `json:"outputs"`
			Attrs   map[string]any `json:"attrs"`
		} `json:"nodes"`
		Inputs  []int `json:"inputs"`
		Outputs []int `json:"outputs"`
	} `json:"graph"`
	Warnings []string `json:"warnings"`
}

func infoOf(t *testing.T, path string) infoJSON {
	t.Helper()
	out, errOut, code := runCmd("info", "--json", path)
	if code != 0 || errOut != "" {
		t.Fatalf("info --json %s: exit %d, stderr %q", path, code, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("--json should print one line, got %d", strings.Count(out, "\n"))
	}
	var doc infoJSON
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Path == nil || doc.Size == nil || doc.Format == nil || doc.Version == nil ||
		doc.Header == nil || doc.Metadata == nil || doc.Tensors == nil || doc.Warnings == nil {
		t.Fatalf("a contracted key is missing: %s", out)
	}
	if !strings.Contains(out, `"graph":`) {
		t.Error(`"graph" is missing`)
	}
	for _, h := range doc.Header {
		if h.Offset == nil || h.Size == nil {
			t.Errorf("header field %q lacks offset or size", h.Name)
		}
	}
	return doc
}

func TestInfoJSONTSR(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "tsr"), "tsr1_tech-renaissance_test_labels.tsr")
	doc := infoOf(t, p)
	if *doc.Path != p || *doc.Size != 40064 || *doc.Format != "tsr" || *doc.Version != "1" || doc.Graph != nil {
		t.Errorf("path %s size %d format %s version %s graph %v", *doc.Path, *doc.Size, *doc.Format, *doc.Version, doc.Graph)
	}
	if len(doc.Tensors) != 1 {
		t.Fatalf("%d tensors", len(doc.Tensors))
	}
	tn := doc.Tensors[0]
	if tn.Name != "#0" || tn.DType != "int32" || !slices.Equal(tn.Shape, []int{10000}) ||
		tn.Offset == nil || *tn.Offset != 64 || tn.NBytes != 40000 || tn.Role != "data" {
		t.Errorf("tensor %+v", tn)
	}
	if len(doc.Header) != 13 || doc.Header[4].Name != "dtype" || *doc.Header[4].Offset != 16 || doc.Header[4].Value != 3.0 {
		t.Errorf("header %+v", doc.Header)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings %v", doc.Warnings)
	}

	p4 := filepath.Join(samples.Dir(t, "tsr"), "tsr4_renaissance_test_fp16.tsr")
	doc = infoOf(t, p4)
	if *doc.Format != "tsr4" || *doc.Version != "4.20" || len(doc.Tensors) != 1 ||
		doc.Tensors[0].DType != "float16" || !slices.Equal(doc.Tensors[0].Shape, []int{1, 1, 1, 2}) || *doc.Tensors[0].Offset != 256 {
		t.Errorf("TSR4 sample: %+v", doc)
	}
}

func TestInfoJSONNN(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "nn"), "datacode_model_mnist.nn")
	doc := infoOf(t, p)
	if *doc.Format != "nn" || len(doc.Tensors) != 4 || doc.Graph == nil {
		t.Fatalf("format %s, %d tensors, graph %v", *doc.Format, len(doc.Tensors), doc.Graph)
	}
	if doc.Metadata["device"] != "cpu" {
		t.Errorf("metadata %v", doc.Metadata)
	}
	var ops []string
	for i, n := range doc.Graph.Nodes {
		if n.ID != i {
			t.Errorf("node %d has id %d", i, n.ID)
		}
		ops = append(ops, n.Op)
	}
	if !slices.Equal(ops, []string{"Linear", "ReLU", "Linear"}) {
		t.Errorf("ops %v", ops)
	}
	if !slices.Equal(doc.Graph.Inputs, []int{0}) || !slices.Equal(doc.Graph.Outputs, []int{2}) {
		t.Errorf("graph inputs %v outputs %v", doc.Graph.Inputs, doc.Graph.Outputs)
	}
	if a := doc.Graph.Nodes[2].Attrs; a["in_features"] != 128.0 || a["out_features"] != 10.0 || a["trainable"] != true {
		t.Errorf("Linear attrs %v", a)
	}
	for _, tn := range doc.Tensors {
		if tn.Role != "weight" || tn.DType != "float32" {
			t.Errorf("tensor %+v", tn)
		}
	}
}

func TestInfoHuman(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "nn"), "datacode_model_mnist.nn")
	out, errOut, code := runCmd("info", p)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"DataCode .nn model (nn), version 1",
		"total params      101770",
		"layer1  Linear  128→10   1290",
		"layer0.weight  float32  [128, 784]  weight  1536",
		"ops: Linear 2, ReLU 1",
		"Stage 1 loss: loss 0.3714 → 0.08064",
		"Warnings: 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// Flags may follow the file.
	if out2, _, code := runCmd("info", p, "--json"); code != 0 || !strings.HasPrefix(out2, `{"path":`) {
		t.Errorf("info FILE --json: exit %d, %.40q", code, out2)
	}
}

func TestInfoWarningsShown(t *testing.T) {
	dir := t.TempDir()
	x, err := tensor.FromBytes(make([]byte, 24), tensor.Float32, []int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, x); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	b[12] = 7 // reserved_1
	p := filepath.Join(dir, "reserved.tsr")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd("info", p)
	if code != 0 || !strings.Contains(out, "Warnings: 1\n  at byte 12: reserved_1 is 7, expected 0") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if doc := infoOf(t, p); !slices.Equal(doc.Warnings, []string{"at byte 12: reserved_1 is 7, expected 0"}) {
		t.Errorf("json warnings %v", doc.Warnings)
	}
}

func TestInfoBadFile(t *testing.T) {
	dir := t.TempDir()
	x, _ := tensor.FromBytes(make([]byte, 24), tensor.Float32, []int{2, 3})
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, x); err != nil {
		t.Fatal(err)
	}
	bad := buf.Bytes()
	bad[16] = 9 // dtype
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badDType := write("bad.tsr", bad)
	unknown := write("notes.txt", []byte("hello"))
	empty := write("empty.tsr", nil)
	for _, c := range []struct {
		path, want string
	}{
		{badDType, "tensorscope: " + badDType + ": at byte 16: dtype: expected one of 1 FP32, 2 INT8, 3 INT32, found 9 (read as TSR v1 tensor file)\n"},
		{unknown, "tensorscope: " + unknown + ": unknown format: not one of "},
		{empty, "tensorscope: " + empty + ": the file is empty\n"},
		{filepath.Join(dir, "missing.tsr"), "tensorscope: " + filepath.Join(dir, "missing.tsr") + ": no such file or directory\n"},
		{dir, "tensorscope: " + dir + ": a folder, not a regular file; only regular files (or symbolic links to them) are read\n"},
	} {
		for _, flagArgs := range [][]string{nil, {"--json"}} {
			out, errOut, code := runCmd(append(append([]string{"info"}, flagArgs...), c.path)...)
			if code != 1 || out != "" || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("info %v %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", flagArgs, c.path, code, out, errOut, c.want)
			}
		}
	}
}

func TestInfoUsage(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "tsr"), "tsr1_tech-renaissance_test_labels.tsr")
	for _, args := range [][]string{
		{"info"},
		{"info", "--json"},
		{"info", p, p},
		{"info", "--frobnicate", p},
		{"info", "--json=maybe", p},
	} {
		out, errOut, code := runCmd(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: tensorscope info [--json] FILE") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	out, _, code := runCmd("info", "-h")
	if code != 0 || !strings.Contains(out, "usage: tensorscope info") || !strings.Contains(out, "-json") {
		t.Errorf("info -h: exit %d, %q", code, out)
	}
	// After --, a name that looks like a flag is a file.
	_, errOut, code := runCmd("info", "--", "--json")
	if code != 1 || !strings.Contains(errOut, "tensorscope: --json: no such file") {
		t.Errorf("info -- --json: exit %d, %q", code, errOut)
	}
}

// TestInfoLongHeader: a TSR4 directory of many tensors is listed in full by
// --json but cut short in the summary.
func TestInfoLongHeader(t *testing.T) {
	x, _ := tensor.FromBytes(make([]byte, 8), tensor.Float32, []int{2})
	ts := make([]*tensor.Tensor, 20)
	for i := range ts {
		ts[i] = x
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, ts, tsr.ZLIB); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "many.tsr")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd("info", p)
	fields := 12 + 20*12
	if code != 0 || !strings.Contains(out, fmt.Sprintf("Header: %d fields", fields)) ||
		!strings.Contains(out, fmt.Sprintf("… %d more fields (--json lists them all)", fields-maxHeaderLines)) ||
		!strings.Contains(out, "  #19 ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if doc := infoOf(t, p); len(doc.Header) != fields || len(doc.Tensors) != 20 {
		t.Errorf("--json: %d header fields, %d tensors", len(doc.Header), len(doc.Tensors))
	}
}
