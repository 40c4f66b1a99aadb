package cli

import (
	"os"
	"path/filepath"
	"testing"

	"tensorscope/internal/samples"
)

// TestInfoNewFormats checks the info --json conventions on NumPy and
// safetensors files: format ids, tensor names (#0, #0.field, npz members,
// weight_map names), NumPy dtype names and row-major shapes.
func TestInfoNewFormats(t *testing.T) {
	npy := samples.Dir(t, "npy")
	st := samples.Dir(t, "safetensors")
	cases := []struct {
		path, format string
		tensors      map[string]string // name → "dtype shape"
	}{
		{filepath.Join(npy, "generated-numpy-1.24.2", "i32_fortran_3x4.npy"), "npy", map[string]string{"#0": "int32 [3 4]"}},
		{filepath.Join(npy, "generated-numpy-1.24.2", "datetime64_ns.npy"), "npy", map[string]string{"#0": "datetime64[ns] [3]"}},
		{filepath.Join(npy, "generated-numpy-1.24.2", "structured_nested.npy"), "npy",
			map[string]string{"#0": "void272 [4]", "#0.pos": "float32 [4 3]", "#0.inner.b": "float64 [4]"}},
		{filepath.Join(npy, "generated-numpy-1.24.2", "bundle_compressed.npz"), "npz",
			map[string]string{"weights": "float32 [16 8]", "labels": "<U3 [2]", "mask": "bool [4 4]"}},
		{filepath.Join(st, "FluxML-SafeTensors.jl", "sharded", "model.safetensors.index.json"), "safetensors",
			map[string]string{"bfloat16_357": "bfloat16 [3 5 7]", "float8_e4m3fn_35": "float8_e4m3fn [3 5]", "float8_e5m2_3": "float8_e5m2 [3]"}},
		{filepath.Join(st, "mlverse-safetensors", "hello.safetensors"), "safetensors", map[string]string{"world": "float32 [5 10]"}},
	}
	for _, c := range cases {
		doc := infoOf(t, c.path)
		if *doc.Format != c.format {
			t.Errorf("%s: format %q", c.path, *doc.Format)
		}
		got := map[string]string{}
		for _, e := range doc.Tensors {
			got[e.Name] = e.DType + " " + fmtInts(e.Shape)
		}
		for name, want := range c.tensors {
			if got[name] != want {
				t.Errorf("%s: %s is %q, want %q", filepath.Base(c.path), name, got[name], want)
			}
		}
	}
}

func fmtInts(s []int) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += itoa(v)
	}
	return out + "]"
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b []byte
	for ; v > 0; v /= 10 {
		b = append([]byte{byte('0' + v%10)}, b...)
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// TestStatsAndExportNewFormats: a Fortran-order array has the statistics
// of its C-order twin; a deflated member those of its stored twin; a
// sharded checkpoint exported whole as one safetensors file keeps every
// tensor's statistics; single tensors export to every format.
func TestStatsAndExportNewFormats(t *testing.T) {
	npy := samples.Dir(t, "npy")
	st := samples.Dir(t, "safetensors")
	same := func(a, b []tensorStats) {
		t.Helper()
		if len(a) != len(b) || len(a) == 0 {
			t.Fatalf("%d and %d tensors", len(a), len(b))
		}
		for i := range a {
			x, y := a[i], b[i]
			if x.Name != y.Name || x.DType != y.DType || x.Count != y.Count || *x.Min != *y.Min || *x.Max != *y.Max || *x.Mean != *y.Mean {
				t.Errorf("%+v differs from %+v", x, y)
			}
		}
	}
	same(statsJSON(t, filepath.Join(npy, "npyz", "c-order.npy")), statsJSON(t, filepath.Join(npy, "npyz", "f-order.npy")))
	same(statsJSON(t, filepath.Join(npy, "generated-numpy-1.24.2", "bundle_compressed.npz")),
		statsJSON(t, filepath.Join(npy, "generated-numpy-1.24.2", "bundle_stored.npz")))

	index := filepath.Join(st, "FluxML-SafeTensors.jl", "sharded", "model.safetensors.index.json")
	out := filepath.Join(t.TempDir(), "all.safetensors")
	if _, errOut, code := runCmd("export", index, "--all", "--out", out); code != 0 {
		t.Fatalf("export --all: %d %s", code, errOut)
	}
	same(statsJSON(t, index), statsJSON(t, out))

	dir := t.TempDir()
	for _, ext := range []string{".npy", ".safetensors", ".csv"} { // float64 fits no TSR generation
		o := filepath.Join(dir, "w"+ext)
		_, errOut, code := runCmd("export", filepath.Join(npy, "npyio", "data_float64_2x3_forder.npy"), "--tensor", "#0", "--out", o)
		if code != 0 {
			t.Errorf("export to %s: %d %s", ext, code, errOut)
			continue
		}
		if ext == ".csv" {
			b, _ := os.ReadFile(o)
			if string(b) != "0,2,4\n1,3,5\n" { // as numpy.load reads it
				t.Errorf("csv of the Fortran-order array: %q", b)
			}
			continue
		}
		same(statsJSON(t, filepath.Join(npy, "npyio", "data_float64_2x3_forder.npy"))[:1], renamed(statsJSON(t, o), "#0"))
	}
	for _, args := range [][]string{
		{"render", filepath.Join(npy, "npyz", "f-order.npy"), "--view", "heatmap", "--axes", "1,2", "--index", "0=1"},
		{"render", index, "--view", "histogram", "--tensor", "bfloat16_357"},
		{"render", filepath.Join(npy, "generated-numpy-1.24.2", "bundle_compressed.npz"), "--view", "heatmap", "--tensor", "weights"},
	} {
		png := filepath.Join(dir, "r.png")
		if _, errOut, code := runCmd(append(args, "--size", "320x240", "--out", png)...); code != 0 {
			t.Errorf("%v: %d %s", args, code, errOut)
		} else if w, h := pngSize(t, png); w != 320 || h != 240 {
			t.Errorf("%v: %d×%d", args, w, h)
		}
	}
}

func renamed(s []tensorStats, name string) []tensorStats {
	for i := range s {
		s[i].Name = name
	}
	return s
}
