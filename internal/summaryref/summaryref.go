// Package summaryref runs the NumPy reference of `tensorscope summary`
// (scripts/summary_reference.py) and compares its JSON with the Go
// summary's, for the tests and benchmarks of several packages.
package summaryref

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Python is Debian's python3, which has python3-numpy; the pyenv shim
// first on PATH may not.
const Python = "/usr/bin/python3"

// Script returns the path of the reference script, found from the working
// directory up to the module root.
func Script(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "scripts", "summary_reference.py")
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatal("summaryref: no go.mod above the working directory")
		}
		dir = up
	}
}

// Require skips the test when NumPy is missing, and fails it when CI=true.
func Require(tb testing.TB) {
	tb.Helper()
	if err := exec.Command(Python, "-c", "import numpy").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s cannot import numpy (%v); CI=true requires python3-numpy", Python, err)
		}
		tb.Skipf("%s cannot import numpy (%v): install python3-numpy to compare with the reference", Python, err)
	}
}

// Run runs the script on each source (a .safetensors file or a dump
// directory) in one process and returns one JSON object per source.
func Run(tb testing.TB, srcs ...string) [][]byte {
	tb.Helper()
	cmd := exec.Command(Python, append([]string{Script(tb)}, srcs...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		tb.Fatalf("summary_reference.py: %v\n%s", err, errb.String())
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != len(srcs) {
		tb.Fatalf("summary_reference.py: %d results for %d sources", len(lines), len(srcs))
	}
	return lines
}

// Compare reports every difference between the Go summary's JSON and the
// reference's: integers, strings, flags and blocks exactly, figures within
// a relative tolerance (the sums are in float64 on both sides, in
// different orders), nulls as nulls. Tensors are matched by name.
func Compare(tb testing.TB, what string, got, want []byte) {
	tb.Helper()
	var g, w model
	if err := json.Unmarshal(got, &g); err != nil {
		tb.Fatalf("%s: summary JSON: %v", what, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		tb.Fatalf("%s: reference JSON: %v", what, err)
	}
	if g.Format != w.Format {
		tb.Errorf("%s: format %q, reference %q", what, g.Format, w.Format)
	}
	if fmt.Sprint(g.Totals) != fmt.Sprint(w.Totals) {
		tb.Errorf("%s: totals %v, reference %v", what, g.Totals, w.Totals)
	}
	if len(g.Tensors) != len(w.Tensors) {
		tb.Errorf("%s: %d tensors, reference %d", what, len(g.Tensors), len(w.Tensors))
	}
	ref := map[string]map[string]any{}
	for _, t := range w.Tensors {
		ref[t["name"].(string)] = t
	}
	for _, t := range g.Tensors {
		name := t["name"].(string)
		r, ok := ref[name]
		if !ok {
			tb.Errorf("%s: tensor %q is not in the reference", what, name)
			continue
		}
		compareTensor(tb, what+": "+name, t, r)
	}
	if !slices.EqualFunc(g.Blocks, w.Blocks, func(a, b block) bool {
		return a.Prefix == b.Prefix && slices.Equal(a.Indices, b.Indices) && sameSet(a.Roles, b.Roles)
	}) {
		tb.Errorf("%s: blocks %v, reference %v", what, g.Blocks, w.Blocks)
	}
}

type model struct {
	Format  string           `json:"format"`
	Totals  any              `json:"totals"`
	Tensors []map[string]any `json:"tensors"`
	Blocks  []block          `json:"blocks"`
}

type block struct {
	Prefix  string   `json:"prefix"`
	Indices []int    `json:"indices"`
	Roles   []string `json:"roles"`
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// figures are compared within a tolerance; everything else exactly.
var figures = map[string]bool{"min": true, "max": true, "mean": true, "std": true, "absmax": true,
	"l2": true, "kurtosis": true, "outlier_ratio": true}

func compareTensor(tb testing.TB, what string, got, want map[string]any) {
	tb.Helper()
	for k, wv := range want {
		gv, ok := got[k]
		if !ok {
			tb.Errorf("%s: no %q", what, k)
			continue
		}
		if !figures[k] {
			if fmt.Sprint(gv) != fmt.Sprint(wv) {
				tb.Errorf("%s: %s = %v, reference %v", what, k, gv, wv)
			}
			continue
		}
		if (gv == nil) != (wv == nil) {
			tb.Errorf("%s: %s = %v, reference %v", what, k, gv, wv)
			continue
		}
		if gv == nil {
			continue
		}
		g, w := gv.(float64), wv.(float64)
		// Figures that are differences of nearly equal sums (a mean near
		// zero, a kurtosis near zero) are compared on the scale of the
		// data they come from.
		scale := math.Abs(w)
		switch k {
		case "mean":
			if a, ok := want["absmax"].(float64); ok {
				scale = max(scale, a)
			}
		case "kurtosis", "outlier_ratio":
			scale = max(scale, 1)
		}
		if math.Abs(g-w) > 1e-9*scale {
			tb.Errorf("%s: %s = %v, reference %v", what, k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			tb.Errorf("%s: %q is not in the reference", what, k)
		}
	}
}
