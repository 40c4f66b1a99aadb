package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats/safetensors"
	"tensorscope/internal/summaryref"
	"tensorscope/tensor"
)

// faultyCheckpoint writes a safetensors checkpoint of a 12-layer stack
// with planted faults: a NaN in layer 2, three dead rows in the float16
// embedding (large enough for the pattern-table path), an all-zero bias, a
// constant norm, and layer 7's q_proj scaled by 10 — the one layer that
// must stand out from its siblings.
func faultyCheckpoint(t testing.TB) string {
	rng := rand.New(rand.NewPCG(24, 24))
	var named []safetensors.Named
	add := func(name string, dt tensor.DType, shape []int, value func(i int) float64) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		b := make([]byte, n*dt.Size())
		for i := range n {
			v := value(i)
			switch dt {
			case tensor.Float32:
				binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
			case tensor.Float64:
				binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
			case tensor.Float16:
				binary.LittleEndian.PutUint16(b[2*i:], tensor.Float32ToFloat16(float32(v)))
			case tensor.BFloat16:
				binary.LittleEndian.PutUint16(b[2*i:], tensor.Float32ToBFloat16(float32(v)))
			}
		}
		x, err := tensor.FromBytes(b, dt, shape)
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, safetensors.Named{Name: name, Tensor: x})
	}
	normal := func(scale float64) func(int) float64 { return func(int) float64 { return rng.NormFloat64() * scale } }
	add("model.embed_tokens.weight", tensor.Float16, []int{4096, 256}, func(i int) float64 {
		if r := i / 256; r == 5 || r == 900 || r == 4095 {
			return 0
		}
		return rng.NormFloat64()*0.02 + 1e-3
	})
	for l := range 12 {
		p := fmt.Sprintf("model.layers.%d.", l)
		qScale := 0.02
		if l == 7 {
			qScale *= 10
		}
		add(p+"input_layernorm.weight", tensor.Float32, []int{64}, func(int) float64 { return 1 + rng.NormFloat64()*0.01 })
		add(p+"self_attn.q_proj.weight", tensor.Float32, []int{64, 64}, normal(qScale))
		add(p+"self_attn.k_proj.weight", tensor.BFloat16, []int{64, 64}, normal(0.02))
		add(p+"mlp.up_proj.weight", tensor.Float32, []int{128, 64}, func(i int) float64 {
			if l == 2 && i == 77 {
				return math.NaN()
			}
			return rng.NormFloat64() * 0.03
		})
		add(p+"mlp.down_proj.weight", tensor.Float64, []int{64, 128}, normal(0.03))
	}
	add("model.norm.weight", tensor.Float32, []int{64}, func(int) float64 { return 1 })
	add("lm_head.bias", tensor.Float32, []int{4096}, func(int) float64 { return 0 })
	add("lm_head.weight", tensor.BFloat16, []int{4096, 64}, normal(0.02))
	path := filepath.Join(t.TempDir(), "faulty.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := safetensors.Write(context.Background(), f, named, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

type summaryJSON struct {
	Tensors []struct {
		Name     string   `json:"name"`
		DeadRows int64    `json:"dead_rows"`
		NaN      int64    `json:"nan"`
		Flags    []string `json:"flags"`
	} `json:"tensors"`
	Blocks []struct {
		Prefix  string   `json:"prefix"`
		Indices []int    `json:"indices"`
		Roles   []string `json:"roles"`
	} `json:"blocks"`
}

// The planted faults are found, each flag where it belongs, and the layer
// scaled by 10 is the only layer_anomaly; every figure agrees with the
// NumPy reference reading the file itself.
func TestSummaryPlantedFaults(t *testing.T) {
	path := faultyCheckpoint(t)
	out, errOut, code := runChild(t, nil, "summary", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s summaryJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	flagged := map[string][]string{}
	for _, x := range s.Tensors {
		if len(x.Flags) > 0 {
			flagged[x.Name] = x.Flags
		}
	}
	want := map[string][]string{
		"model.layers.2.mlp.up_proj.weight":      {"nan"},
		"model.embed_tokens.weight":              {"dead_rows"},
		"model.layers.7.self_attn.q_proj.weight": {"layer_anomaly"},
		"model.norm.weight":                      {"constant"},
		"lm_head.bias":                           {"all_zero"},
	}
	if fmt.Sprint(flagged) != fmt.Sprint(want) {
		t.Errorf("flags %v, want %v", flagged, want)
	}
	for _, x := range s.Tensors {
		if x.Name == "model.embed_tokens.weight" && x.DeadRows != 3 {
			t.Errorf("%s: %d dead rows, want 3", x.Name, x.DeadRows)
		}
	}
	if len(s.Blocks) != 1 || s.Blocks[0].Prefix != "model.layers" || len(s.Blocks[0].Indices) != 12 ||
		!slices.Equal(s.Blocks[0].Roles, []string{"input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.k_proj.weight", "mlp.up_proj.weight", "mlp.down_proj.weight"}) {
		t.Errorf("blocks %+v", s.Blocks)
	}

	summaryref.Require(t)
	summaryref.Compare(t, "faulty.safetensors", []byte(out), summaryref.Run(t, path)[0])
}

// The text form prints the totals, the flagged tensors first, then the
// table of every tensor.
func TestSummaryText(t *testing.T) {
	path := faultyCheckpoint(t)
	out, errOut, code := runChild(t, nil, "summary", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	totals := strings.Index(out, "64 tensors")
	flagged := strings.Index(out, "flagged (5):")
	anomaly := strings.Index(out, "model.layers.7.self_attn.q_proj.weight  layer_anomaly")
	table := strings.Index(out, "name  ")
	if totals < 0 || flagged < totals || anomaly < flagged || table < anomaly {
		t.Errorf("text form out of order:\n%s", out)
	}
	if !strings.Contains(out, "3 of 4096 rows all zero") || !strings.Contains(out, "blocks: model.layers (12 indices × 5 roles)") {
		t.Errorf("text form lacks details:\n%s", out)
	}
}

func TestSummaryUsage(t *testing.T) {
	_, errOut, code := runChild(t, nil, "summary")
	if code != 2 || !strings.Contains(errOut, "usage: tensorscope summary") {
		t.Errorf("no file: exit %d, %q", code, errOut)
	}
	_, errOut, code = runChild(t, nil, "summary", filepath.Join(t.TempDir(), "missing.safetensors"))
	if code != 1 || !strings.Contains(errOut, "missing.safetensors") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
	out, _, code := runChild(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "tensorscope summary [--json] FILE") {
		t.Errorf("--help does not list summary: %q", out)
	}
}

// render --view summary draws the fingerprint; --metric belongs to it.
func TestRenderSummaryView(t *testing.T) {
	path := faultyCheckpoint(t)
	out := filepath.Join(t.TempDir(), "fp.png")
	if _, errOut, code := runChild(t, nil, "render", path, "--view", "summary", "--metric", "outlier_ratio", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no image: %v", err)
	}
	for _, args := range [][]string{
		{"render", path, "--view", "summary", "--metric", "median", "--out", out + "2.png"},
		{"render", path, "--view", "heatmap", "--metric", "std", "--out", out + "3.png"},
		{"render", path, "--view", "summary", "--tensor", "lm_head.bias", "--out", out + "4.png"},
	} {
		if _, errOut, code := runChild(t, nil, args...); code != 2 {
			t.Errorf("%v: exit %d, %q; want 2", args, code, errOut)
		}
	}
}

// The fingerprint of a deep model needs more than the default 1024x768:
// without --size the picture grows to what it needs; a --size the user
// chose is refused below it, naming the size needed.
func TestRenderDefaultSizeGrows(t *testing.T) {
	var named []safetensors.Named
	for l := range 300 {
		x, err := tensor.FromBytes(make([]byte, 16), tensor.Float32, []int{4})
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, safetensors.Named{Name: fmt.Sprintf("layers.%d.w", l), Tensor: x})
	}
	var file bytes.Buffer
	if err := safetensors.Write(context.Background(), &file, named, nil); err != nil {
		t.Fatal(err)
	}
	path := writeFixture(t, "deep.safetensors", file.Bytes())
	out := filepath.Join(t.TempDir(), "deep.png")
	if _, errOut, code := runChild(t, nil, "render", path, "--view", "summary", "--out", out); code != 0 {
		t.Fatalf("default size: exit %d: %s", code, errOut)
	}
	if w, h := pngSize(t, out); w != 1024 || h <= 768 {
		t.Errorf("default size drew %dx%d, want 1024 wide and taller than 768", w, h)
	}
	_, errOut, code := runChild(t, nil, "render", path, "--view", "summary", "--size", "1024x768", "--out", out+"2.png")
	var needW, needH int
	if i := strings.Index(errOut, "needs at least "); i >= 0 {
		fmt.Sscanf(errOut[i:], "needs at least %dx%d", &needW, &needH)
	}
	if code != 1 || needH <= 768 {
		t.Errorf("--size 1024x768: exit %d, %q; want 1 and the size needed", code, errOut)
	}
}
