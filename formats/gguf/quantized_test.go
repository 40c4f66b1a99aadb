package gguf

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// TestQuantisedAgainstF32Source compares every quantised tensor of the
// llama.cpp-made samples with the same tensor of their F32 source: the
// relative L2 error must be what each type's bit budget allows. This shows
// the decoded values are the model's weights, not merely self-consistent.
func TestQuantisedAgainstF32Source(t *testing.T) {
	dir := samplePath(t, "quantized-llama.cpp")
	src := open(t, filepath.Join(dir, "synth-llama256-F32.gguf"))
	ref := map[string][]float32{}
	for _, e := range src.Tensors {
		ref[e.Name] = loadFloats(t, e)
	}
	// Upper bounds of the relative error per type; SOURCES.md reports about
	// 0.005 (Q8_0), 0.07 (Q4_K), 0.3 (Q2_K, IQ2_XS), 0.45 (IQ1_M), 0.8 (ternary).
	limits := map[tensor.DType][2]float64{
		tensor.GGMLQ8_0: {0.002, 0.01}, tensor.GGMLQ6_K: {0.005, 0.03}, tensor.GGMLQ5_K: {0.01, 0.06},
		tensor.GGMLQ5_0: {0.01, 0.07}, tensor.GGMLQ5_1: {0.01, 0.07}, tensor.GGMLQ4_K: {0.03, 0.12},
		tensor.GGMLQ4_0: {0.03, 0.15}, tensor.GGMLQ4_1: {0.03, 0.15}, tensor.GGMLIQ4_NL: {0.03, 0.15},
		tensor.GGMLIQ4_XS: {0.03, 0.15}, tensor.GGMLQ3_K: {0.05, 0.25}, tensor.GGMLIQ3_XXS: {0.05, 0.3},
		tensor.GGMLIQ3_S: {0.05, 0.3}, tensor.GGMLQ2_K: {0.1, 0.45}, tensor.GGMLIQ2_XS: {0.1, 0.45},
		tensor.GGMLIQ2_XXS: {0.1, 0.5}, tensor.GGMLIQ2_S: {0.1, 0.45}, tensor.GGMLIQ1_M: {0.2, 0.65},
		tensor.GGMLIQ1_S: {0.2, 0.7}, tensor.GGMLTQ2_0: {0.5, 1.0}, tensor.Float16: {0, 0.001},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "synth-llama256-*.gguf"))
	split, _ := filepath.Glob(filepath.Join(dir, "split", "*-00001-of-*.gguf"))
	files = append(files, split...)
	seen := map[tensor.DType]bool{}
	worst := map[tensor.DType]float64{}
	for _, f := range files {
		if strings.HasSuffix(f, "-F32.gguf") {
			continue
		}
		doc := open(t, f)
		for _, e := range fileTensors(doc) {
			if e.DType == tensor.Float32 {
				continue
			}
			lim, ok := limits[e.DType]
			if !ok {
				t.Errorf("%s: %s has type %s with no expected error", filepath.Base(f), e.Name, e.DType)
				continue
			}
			got, want := loadFloats(t, e), ref[e.Name]
			if len(got) != len(want) {
				t.Fatalf("%s: %s has %d values, the source %d", f, e.Name, len(got), len(want))
			}
			rel := relativeError(got, want)
			if rel < lim[0] || rel > lim[1] {
				t.Errorf("%s: %s (%s): relative error %.4f outside [%g, %g]", filepath.Base(f), e.Name, e.DType, rel, lim[0], lim[1])
			}
			seen[e.DType] = true
			worst[e.DType] = max(worst[e.DType], rel)
		}
	}
	for dt, rel := range worst {
		t.Logf("%-8s worst relative error %.4f", dt, rel)
	}
	if len(seen) < 20 {
		t.Errorf("only %d types checked: %v", len(seen), seen)
	}
}

func relativeError(got, want []float32) float64 {
	var num, den float64
	for i := range got {
		d := float64(got[i]) - float64(want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(num / den)
}

func loadFloats(t *testing.T, e *formats.TensorEntry) []float32 {
	t.Helper()
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return float32s(t, x)
}

// TestReferenceBlocksAreSampleBytes checks that the blocks of the reference
// files in tensor/testdata/ggml are the bytes this reader finds for the
// named tensors (so the references and the reader agree on offsets).
func TestReferenceBlocksAreSampleBytes(t *testing.T) {
	files, _ := filepath.Glob("../../tensor/testdata/ggml/*.json")
	if len(files) == 0 {
		t.Fatal("no reference files")
	}
	root := samplePath(t, "")
	for _, f := range files {
		var ref struct {
			Source struct {
				File   string `json:"file"`
				Tensor string `json:"tensor"`
				Blocks []int  `json:"blocks"`
			} `json:"source"`
			Blocks string `json:"blocks_hex"`
		}
		b, _ := os.ReadFile(f)
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatal(err)
		}
		if ref.Source.File == "" {
			continue // random blocks
		}
		doc := open(t, filepath.Join(root, ref.Source.File))
		e := doc.Tensor(ref.Source.Tensor)
		if e == nil {
			t.Fatalf("%s: no tensor %s", ref.Source.File, ref.Source.Tensor)
		}
		ub := int64(e.DType.UnitBytes())
		var raw []byte
		for _, i := range ref.Source.Blocks {
			raw = append(raw, doc.Bytes()[e.Offset+int64(i)*ub:e.Offset+int64(i+1)*ub]...)
		}
		if hex.EncodeToString(raw) != ref.Blocks {
			t.Errorf("%s: blocks differ from %s %s", f, ref.Source.File, ref.Source.Tensor)
		}
	}
}
