package tflite_test

import (
	"context"
	"encoding/json"
	"go/format"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
)

// referencePython is Debian's python3 with python3-flatbuffers and numpy.
const referencePython = "/usr/bin/python3"

type refFile struct {
	Path      string `json:"path"`
	Error     string `json:"error"`
	Subgraphs []struct {
		Operators int      `json:"operators"`
		Ops       []string `json:"ops"`
	} `json:"subgraphs"`
	Tensors []struct {
		Name   string    `json:"name"`
		Shape  []int     `json:"shape"`
		DType  string    `json:"dtype"`
		First  []float64 `json:"first"`
		Sum    *float64  `json:"sum"`
		Scales []float64 `json:"scales"`
		NScale int       `json:"nscales"`
	} `json:"tensors"`
}

// pythonReference generates the Python accessors with flatc --python from
// the vendored schema into a temporary directory and runs
// testdata/reference.py over files. It skips when flatc or the Python
// runtime is missing (make test installs both); CI=true makes that fatal.
func pythonReference(t *testing.T, files []string) []refFile {
	t.Helper()
	missing := func(what string, err error) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (%v); CI=true requires it", what, err)
		}
		t.Skipf("%s is missing (%v): install flatbuffers-compiler and python3-flatbuffers", what, err)
	}
	if err := exec.Command(referencePython, "-c", "import flatbuffers, numpy").Run(); err != nil {
		missing("python3-flatbuffers (or numpy)", err)
	}
	flatc, err := exec.LookPath("flatc")
	if err != nil {
		missing("flatc", err)
	}
	dir := flatcInto(t, flatc, "--python")
	cmd := exec.Command(referencePython, append([]string{"testdata/reference.py", dir}, files...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference.py: %v", err)
	}
	var refs []refFile
	if err := json.Unmarshal(out, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

// flatcInto compiles the vendored schema with flatc and the given
// generator flag into a temporary directory, which it returns.
func flatcInto(t *testing.T, flatc, lang string) string {
	t.Helper()
	dir := t.TempDir()
	schema, err := os.ReadFile("schema/schema.fbs")
	if err != nil {
		t.Fatal(err)
	}
	// flatc 2.0.8 predates (deprecated) on enum values, union members and
	// tables (see schema/generate.sh).
	s := strings.NewReplacer("REDUCE_WINDOW = 205 (deprecated),", "REDUCE_WINDOW = 205,",
		"ReduceWindowOptions (deprecated),", "ReduceWindowOptions,",
		"table ReduceWindowOptions (deprecated) {", "table ReduceWindowOptions {").Replace(string(schema))
	if err := os.WriteFile(filepath.Join(dir, "schema.fbs"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{lang, "-o", dir}
	if lang == "--go" {
		args = append(args, "--go-namespace", "tfl")
	}
	if out, err := exec.Command(flatc, append(args, filepath.Join(dir, "schema.fbs"))...).CombinedOutput(); err != nil {
		t.Fatalf("flatc %s: %v\n%s", lang, err, out)
	}
	return dir
}

// TestGeneratedAccessorsAreCurrent regenerates internal/tfl as
// schema/generate.sh does and compares it with the committed files.
func TestGeneratedAccessorsAreCurrent(t *testing.T) {
	flatc, err := exec.LookPath("flatc")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("flatc is missing (%v); CI=true requires it", err)
		}
		t.Skipf("flatc is missing (%v): install flatbuffers-compiler", err)
	}
	dir := filepath.Join(flatcInto(t, flatc, "--go"), "tfl")
	fresh, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := filepath.Glob("internal/tfl/*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh) != len(committed) || len(fresh) == 0 {
		t.Fatalf("flatc wrote %d files, internal/tfl holds %d: run go generate ./formats/tflite/", len(fresh), len(committed))
	}
	for _, p := range fresh {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := format.Source(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("internal/tfl", filepath.Base(p)))
		if err != nil || string(got) != string(want) {
			t.Errorf("internal/tfl/%s differs from what flatc generates (%v): run go generate ./formats/tflite/", filepath.Base(p), err)
		}
	}
}

func TestAgreesWithFlatBuffersPython(t *testing.T) {
	files := sampleFiles(t)
	refs := pythonReference(t, files)
	if len(refs) != len(files) {
		t.Fatalf("%d reference results for %d files", len(refs), len(files))
	}
	for _, ref := range refs {
		t.Run(filepath.Base(ref.Path), func(t *testing.T) {
			doc, err := formats.Open(ref.Path)
			if ref.Error != "" {
				if err == nil {
					doc.Close()
					t.Fatalf("opened; the reference says %q", ref.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			var ops []string
			for _, n := range doc.Graph.Nodes {
				if n.Kind == formats.KindOp {
					ops = append(ops, n.Op)
				}
			}
			if !slices.Equal(ops, ref.Subgraphs[0].Ops) {
				t.Errorf("subgraph 0 operators:\n got %v\nwant %v", ops, ref.Subgraphs[0].Ops)
			}
			if len(doc.Tensors) != len(ref.Tensors) {
				t.Fatalf("%d tensors, the reference lists %d", len(doc.Tensors), len(ref.Tensors))
			}
			for i, rt := range ref.Tensors {
				e := doc.Tensors[i]
				if e.Name != rt.Name || e.TypeString() != rt.DType || !slices.Equal(e.Shape, rt.Shape) {
					t.Errorf("tensor %d: got %q %s %v, want %q %s %v", i, e.Name, e.TypeString(), e.Shape, rt.Name, rt.DType, rt.Shape)
					continue
				}
				if rt.NScale > 0 && e.Quant != nil {
					if len(e.Quant.Scales) != rt.NScale || !close(e.Quant.Scales[0], rt.Scales[0]) {
						t.Errorf("tensor %q: scales %v…, want %d starting %v", e.Name, e.Quant.Scales[:1], rt.NScale, rt.Scales)
					}
				}
				if rt.First == nil {
					continue
				}
				x, err := e.Load(context.Background())
				if err != nil {
					t.Errorf("tensor %q: %v", e.Name, err)
					continue
				}
				first := make([]float64, len(rt.First))
				if err := x.ReadFloat64s(0, first); err != nil {
					t.Fatal(err)
				}
				for k := range first {
					if !close(first[k], rt.First[k]) {
						t.Errorf("tensor %q: first values %v, want %v", e.Name, first, rt.First)
						break
					}
				}
				if rt.Sum != nil {
					all := make([]float64, x.Len())
					if err := x.ReadFloat64s(0, all); err != nil {
						t.Fatal(err)
					}
					sum := 0.0
					for _, v := range all {
						if !math.IsInf(v, 0) && !math.IsNaN(v) {
							sum += v
						}
					}
					if !close(sum, *rt.Sum) {
						t.Errorf("tensor %q: sum %v, want %v", e.Name, sum, *rt.Sum)
					}
				}
			}
		})
	}
}

func close(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
