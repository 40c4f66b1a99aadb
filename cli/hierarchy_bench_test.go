//go:build unix

package cli

import (
	"path/filepath"
	"testing"

	"tensorscope/internal/gentransformer"
)

// BenchmarkProcessRenderTransformer: `tensorscope render --view graph` of
// the generated 32-layer decoder (scripts/gen-transformer.py), whole
// process, at the default depth (≤ 0.5 s, issue 25) and flat; "68layers"
// is the same decoder with about 20,000 nodes.
func BenchmarkProcessRenderTransformer(b *testing.B) {
	out := filepath.Join(b.TempDir(), "g.png")
	for _, c := range []struct {
		name string
		gen  []string
		args []string
	}{
		{"32layers/default", nil, nil},
		{"32layers/all", nil, []string{"--depth", "all"}},
		{"68layers/default", []string{"--layers", "68"}, nil},
	} {
		path := gentransformer.Path(b, c.gen...)
		args := append([]string{"render", path, "--view", "graph", "--out", out}, c.args...)
		processRun(b, args...) // the file into the page cache
		b.Run(c.name, func(b *testing.B) { benchProcess(b, 0, args...) })
	}
}

// BenchmarkRenderTransformer renders the generated transformer's graph at
// the default depth in process (the command's cost without process start),
// with 32 and 68 layers.
func BenchmarkRenderTransformer(b *testing.B) {
	out := filepath.Join(b.TempDir(), "g.png")
	for _, c := range []struct {
		name string
		gen  []string
	}{{"32layers", nil}, {"68layers", []string{"--layers", "68"}}} {
		path := gentransformer.Path(b, c.gen...)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, errOut, code := runCmd("render", path, "--view", "graph", "--out", out); code != 0 {
					b.Fatalf("exit %d: %s", code, errOut)
				}
			}
		})
	}
}
