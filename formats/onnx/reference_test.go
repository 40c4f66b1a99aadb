package onnx_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/onnx"
	"tensorscope/internal/pyref"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// sampleFiles lists every .onnx file under the ONNX samples folder.
func sampleFiles(tb testing.TB) []string {
	tb.Helper()
	dir := samples.Dir(tb, "onnx")
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".onnx" {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	if len(out) == 0 {
		tb.Fatalf("no .onnx files under %s", dir)
	}
	return out
}

type refTensor struct {
	Name     string    `json:"name"`
	Shape    []int     `json:"shape"`
	DataType int       `json:"data_type"`
	DType    string    `json:"dtype"`
	First    []float64 `json:"first"`
	Sum      *float64  `json:"sum"`
	Error    string    `json:"error"`
}

type refFile struct {
	Path      string         `json:"path"`
	Nodes     int            `json:"nodes"`
	Ops       map[string]int `json:"ops"`
	Subgraphs []struct {
		Node  int    `json:"node"`
		Attr  string `json:"attr"`
		Nodes int    `json:"nodes"`
	} `json:"subgraphs"`
	Initializers []refTensor `json:"initializers"`
	Sparse       []struct {
		Name  string `json:"name"`
		Shape []int  `json:"shape"`
	} `json:"sparse"`
	Inputs  []string `json:"inputs"`
	Outputs []string `json:"outputs"`
}

// reference runs testdata/reference.py, or skips when the onnx package is
// not installed (make test installs it; CI=true makes its absence fatal).
func reference(t *testing.T, files []string) []refFile {
	t.Helper()
	python := pyref.Python(t, "python3-onnx python3-numpy", "onnx", "numpy")
	out, err := exec.Command(python, append([]string{"testdata/reference.py"}, files...)...).Output()
	if err != nil {
		t.Fatalf("reference.py: %v", err)
	}
	var refs []refFile
	if err := json.Unmarshal(out, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

func TestAgreesWithOnnxPackage(t *testing.T) {
	files := sampleFiles(t)
	refs := reference(t, files)
	for _, ref := range refs {
		t.Run(filepath.Base(ref.Path), func(t *testing.T) {
			doc, err := formats.Open(ref.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.Format != "onnx" {
				t.Fatalf("format %q", doc.Format)
			}
			compareGraph(t, doc, ref)
			for _, rt := range ref.Initializers {
				compareTensor(t, doc, rt)
			}
			for _, sp := range ref.Sparse {
				e := doc.Tensor(sp.Name)
				if e == nil || !slices.Equal(e.Shape, sp.Shape) {
					t.Errorf("sparse initializer %q: got %v, onnx says shape %v", sp.Name, e, sp.Shape)
				}
			}
		})
	}
}

func compareGraph(t *testing.T, doc *formats.Document, ref refFile) {
	g := doc.Graph
	ops := map[string]int{}
	nodes := 0
	for _, n := range g.Nodes {
		if n.Kind == formats.KindInput {
			continue
		}
		if n.ID != nodes {
			t.Errorf("node %d %q comes after the input nodes", n.ID, n.Name)
		}
		nodes++
		ops[n.Op]++
	}
	if nodes != ref.Nodes {
		t.Errorf("%d nodes, onnx says %d", nodes, ref.Nodes)
	}
	for op, n := range ref.Ops {
		if ops[op] != n {
			t.Errorf("%d %s nodes, onnx says %d", ops[op], op, n)
		}
	}
	if len(ops) != len(ref.Ops) {
		t.Errorf("ops %v, onnx says %v", ops, ref.Ops)
	}
	var subs []string
	for _, s := range ref.Subgraphs {
		node := g.Nodes[s.Node]
		found := false
		for _, sg := range node.Subgraphs {
			if sg.Name == s.Attr {
				found = true
				if got := countNodes(sg.Graph); got != s.Nodes {
					t.Errorf("node %d subgraph %s: %d nodes, onnx says %d", s.Node, s.Attr, got, s.Nodes)
				}
			}
		}
		if !found {
			t.Errorf("node %d %s has no subgraph %s", s.Node, node.Op, s.Attr)
		}
		subs = append(subs, s.Attr)
	}
	inputs := map[string]bool{}
	for _, id := range g.Inputs {
		inputs[g.Nodes[id].Name] = true
	}
	inits := map[string]bool{}
	for _, rt := range ref.Initializers {
		inits[rt.Name] = true
	}
	for _, name := range ref.Inputs {
		if !inputs[name] && !inits[name] {
			t.Errorf("graph input %q has no input node", name)
		}
	}
}

func countNodes(g *formats.Graph) int {
	n := 0
	for _, node := range g.Nodes {
		if node.Kind != formats.KindInput {
			n++
		}
	}
	return n
}

func compareTensor(t *testing.T, doc *formats.Document, rt refTensor) {
	e := doc.Tensor(rt.Name)
	if e == nil {
		t.Errorf("initializer %q is not listed", rt.Name)
		return
	}
	if !slices.Equal(e.Shape, rt.Shape) {
		t.Errorf("%s: shape %v, onnx says %v", rt.Name, e.Shape, rt.Shape)
	}
	if rt.Error != "" {
		// onnx cannot decode it (missing external file): we list it without data.
		if e.HasData() {
			if _, err := e.Load(context.Background()); err == nil {
				t.Errorf("%s: onnx fails (%s) but we load it", rt.Name, rt.Error)
			}
		}
		return
	}
	if e.DType.String() != rt.DType {
		t.Errorf("%s: dtype %s, onnx says %s", rt.Name, e.DType, rt.DType)
	}
	if rt.Sum == nil {
		return
	}
	x, err := e.Load(context.Background())
	if err != nil {
		t.Errorf("%s: %v", rt.Name, err)
		return
	}
	vals := make([]float64, x.Len()*componentsOf(x.DType()))
	if x.DType().IsComplex() {
		vals = complexParts(t, x)
	} else if err := x.ReadFloat64s(0, vals); err != nil {
		t.Errorf("%s: %v", rt.Name, err)
		return
	}
	for i, want := range rt.First {
		if !sameFloat(vals[i], want) {
			t.Errorf("%s[%d] = %v, onnx says %v", rt.Name, i, vals[i], want)
			break
		}
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if math.Abs(sum-*rt.Sum) > 1e-6*max(1, math.Abs(*rt.Sum)) {
		t.Errorf("%s: sum %v, onnx says %v", rt.Name, sum, *rt.Sum)
	}
}

func componentsOf(dt tensor.DType) int {
	if dt.IsComplex() {
		return 2
	}
	return 1
}

// complexParts reads a complex tensor's parts from its bytes.
func complexParts(t *testing.T, x *tensor.Tensor) []float64 {
	b, err := x.ContiguousBytes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	half := x.DType().Size() / 2
	part := tensor.Float32
	if half == 8 {
		part = tensor.Float64
	}
	p, err := tensor.FromBytes(b, part, []int{len(b) / half})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, p.Len())
	if err := p.ReadFloat64s(0, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}
