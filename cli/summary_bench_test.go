//go:build unix

package cli

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/formats/safetensors"
	"tensorscope/internal/samples"
	"tensorscope/internal/summaryref"
	"tensorscope/tensor"
)

// The numbers of issue 24, whole process, beside the NumPy reference:
//
//	go test -run '^$' -bench 'ProcessSummary' -benchtime 3x ./cli/

// summaryCheckpoint writes a 1 GiB float32 safetensors checkpoint of 64
// tensors of 1024×4096 normal values, eight roles in eight layers, without
// holding more than a tensor's worth of it in memory.
func summaryCheckpoint(b *testing.B, path string) {
	const rows, cols = 1024, 4096
	zero := tensor.NewStorage(make([]byte, 4))
	var named []safetensors.Named
	for i := range 64 {
		x, err := tensor.NewStrided(zero, 0, tensor.Float32, []int{rows, cols}, []int{0, 0})
		if err != nil {
			b.Fatal(err)
		}
		named = append(named, safetensors.Named{Name: fmt.Sprintf("model.layers.%d.role%d.weight", i/8, i%8), Tensor: x})
	}
	h, err := safetensors.EncodeHeader(named, nil)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	// Written in 16 MiB pieces, as NumPy, torch.save and downloads write:
	// the page cache keeps a file written in small pieces in 4 KiB pages,
	// which take 2.5× as long to map in (0.47 s here against 0.15 s for
	// the same bytes; see docs/PERFORMANCE.md).
	w := bufio.NewWriterSize(f, 16<<20)
	w.Write(h)
	r := rand.New(rand.NewPCG(24, 1))
	var buf [4]byte
	for i := range 64 * rows * cols {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(float32(r.NormFloat64()*0.02+float64(i>>22)*1e-3)))
		w.Write(buf[:])
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkProcessSummary1GiB: `tensorscope summary --json` of a
// page-cached 1 GiB float32 checkpoint with 64 tensors, whole process, and
// the NumPy reference script over the same file (issue 24: ≥ 2.5 GB/s,
// ≥ 10× NumPy, at most one chunk per worker beyond the mapped file).
func BenchmarkProcessSummary1GiB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "ckpt.safetensors")
	summaryCheckpoint(b, path)
	processRun(b, "summary", "--json", path) // into the page cache
	b.Run("tensorscope", func(b *testing.B) { benchProcess(b, 1<<30, "summary", "--json", path) })
	b.Run("stats", func(b *testing.B) { benchProcess(b, 1<<30, "stats", "--json", path) })
	b.Run("numpy", func(b *testing.B) {
		summaryref.Require(b)
		script := summaryref.Script(b)
		var wall time.Duration
		for b.Loop() {
			start := time.Now()
			if out, err := exec.Command(summaryref.Python, script, path).CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
			wall += time.Since(start)
		}
		b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms/op")
		b.ReportMetric(float64(1<<30)/(float64(wall.Nanoseconds())/float64(b.N)), "GB/s")
	})
}

// BenchmarkProcessSummaryGGUF: the whole summary of the Q4_K_M sample
// beside `stats` of every tensor (issue 24: at least as fast).
func BenchmarkProcessSummaryGGUF(b *testing.B) {
	path := filepath.Join(samples.Dir(b, "gguf/quantized-llama.cpp"), "synth-llama256-Q4_K_M.gguf")
	for _, cmd := range []string{"summary", "stats"} {
		b.Run(cmd, func(b *testing.B) { benchProcess(b, 0, cmd, "--json", path) })
	}
}
