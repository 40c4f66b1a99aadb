//go:build unix

package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats/safetensors"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// processRun runs the command line in a fresh process (the test binary as
// tensorscope) and returns its wall time, CPU time and peak RSS.
func processRun(b *testing.B, args ...string) (wall, cpu time.Duration, maxRSS int64) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
	cmd.Stdout = io.Discard
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v", args, err)
	}
	wall = time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return wall, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024
}

// benchProcess reports the median-free means of wall, CPU and peak RSS.
func benchProcess(b *testing.B, bytes int64, args ...string) {
	var wall, cpu time.Duration
	var rss int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, c, r := processRun(b, args...)
		wall, cpu, rss = wall+w, cpu+c, max(rss, r)
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)/(float64(wall.Nanoseconds())/float64(b.N)), "GB/s")
	}
}

// sparseCheckpoint writes shards sparse safetensors files of perShard
// bfloat16 tensors each, nominal bytes in all, and their index.
func sparseCheckpoint(b *testing.B, dir string, shards, perShard int, nominal int64) string {
	weightMap := map[string]string{}
	perTensor := nominal / int64(shards*perShard) / 8192 * 8192
	one := tensor.NewStorage(make([]byte, 2))
	for s := 0; s < shards; s++ {
		file := fmt.Sprintf("model-%05d-of-%05d.safetensors", s+1, shards)
		var named []safetensors.Named
		for i := 0; i < perShard; i++ {
			name := fmt.Sprintf("model.layers.%d.block.%d.weight", s, i)
			weightMap[name] = file
			x, err := tensor.NewStrided(one, 0, tensor.BFloat16, []int{int(perTensor / 8192), 4096}, []int{0, 0})
			if err != nil {
				b.Fatal(err)
			}
			named = append(named, safetensors.Named{Name: name, Tensor: x})
		}
		h, err := safetensors.EncodeHeader(named, map[string]string{"format": "pt"})
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, file))
		if err != nil {
			b.Fatal(err)
		}
		f.Write(h)
		if err := f.Truncate(int64(len(h)) + int64(perShard)*perTensor); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	index, _ := json.Marshal(map[string]any{"metadata": map[string]any{"total_size": nominal}, "weight_map": weightMap})
	path := filepath.Join(dir, "model.safetensors.index.json")
	if err := os.WriteFile(path, index, 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkProcessInfoShardedIndex: `tensorscope info --json INDEX` of a
// 100-shard, 30,000-tensor, 800 GB (sparse) checkpoint, whole process.
func BenchmarkProcessInfoShardedIndex(b *testing.B) {
	index := sparseCheckpoint(b, b.TempDir(), 100, 300, 800e9)
	benchProcess(b, 0, "info", "--json", index)
}

// BenchmarkProcessStats256MiB: `tensorscope stats --json FILE` of a
// page-cached 256 MiB float32 tensor in each format, whole process.
func BenchmarkProcessStats256MiB(b *testing.B) {
	dir := b.TempDir()
	raw := make([]byte, 256<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < len(raw); i += 4 {
		binary.LittleEndian.PutUint32(raw[i:], math.Float32bits(float32(r.NormFloat64())))
	}
	x, err := tensor.FromBytes(raw, tensor.Float32, []int{16384, 4096})
	if err != nil {
		b.Fatal(err)
	}
	for _, ext := range []string{".npy", ".safetensors", ".tsr"} {
		path := filepath.Join(dir, "w"+ext)
		if _, err := viewmodel.ExportTensorAs(context.Background(), path, "w", x, nil); err != nil {
			b.Fatal(err)
		}
		processRun(b, "stats", "--json", path) // into the page cache
		b.Run(ext[1:], func(b *testing.B) { benchProcess(b, 256<<20, "stats", "--json", path) })
	}
}
