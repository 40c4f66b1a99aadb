//go:build unix

package cli

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
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/formats/safetensors"
	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// processUse is what one run of a command cost.
type processUse struct {
	wall, cpu time.Duration
	maxRSS    int64 // peak resident set (VmHWM): mapped files, libraries and heap
	anon      int64 // anonymous memory as the command ended: heap and stacks
}

// statusKB reads a "Name:   123 kB" line of /proc/PID/status as bytes.
func statusKB(status, name string) int64 {
	for _, line := range strings.Split(status, "\n") {
		if kb, ok := strings.CutPrefix(line, name+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(kb, "kB")), 10, 64)
			return n << 10
		}
	}
	return -1
}

// processRun runs the command line in a fresh process, as users run it:
// info, stats and summary by the lite build (make's tensorscope; see
// liteBinary), the rest by the test binary as tensorscope (see TestMain).
//
// Memory: Linux carries the parent's peak RSS into a child's ru_maxrss
// across fork and exec, so rusage would report this benchmark's memory.
// The test binary writes its own /proc status as it ends; the lite build's
// peak RSS is measured in one more run under /usr/bin/time (liteMaxRSS),
// its times without it. Peak RSS counts every mapped page (the binary, the
// input's header); the anonymous memory at the end, known only for the
// test binary, is the rest, which Go does not give back in the fraction of
// a second a command runs.
func processRun(b *testing.B, args ...string) processUse {
	if len(args) > 0 && liteCommands[args[0]] {
		return liteRun(b, args...)
	}
	status := filepath.Join(b.TempDir(), "status")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1", "TENSORSCOPE_STATUS_OUT="+status)
	cmd.Stdout = io.Discard
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v", args, err)
	}
	u := processUse{wall: time.Since(start)}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	text, err := os.ReadFile(status)
	if err != nil {
		b.Fatal(err)
	}
	u.maxRSS, u.anon = statusKB(string(text), "VmHWM"), statusKB(string(text), "RssAnon")
	return u
}

// liteCommands are the commands the lite build runs itself.
var liteCommands = map[string]bool{"info": true, "stats": true, "summary": true}

// liteBinary builds the lite tensorscope once per test process.
var liteBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tensorscope-lite-")
	if err != nil {
		return "", err
	}
	removeAfterTests = append(removeAfterTests, dir)
	bin := filepath.Join(dir, "tensorscope")
	build := exec.Command("go", "build", "-tags", "lite", "-o", bin, "tensorscope")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make builds it
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build -tags lite: %v\n%s", err, out)
	}
	return bin, nil
})

// liteRun runs args in the lite build itself, for its times; its peak
// RSS comes from liteMaxRSS (see processRun).
func liteRun(b *testing.B, args ...string) processUse {
	bin, err := liteBinary()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	cmd.Stdout = devNull // as `> /dev/null`: no pipe for this benchmark to drain
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v", args, err)
	}
	u := processUse{wall: time.Since(start), anon: -1, maxRSS: -1}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return u
}

// liteMaxRSS runs args in the lite build under /usr/bin/time, a small
// process that forks it, and returns the command's own peak RSS as time
// reports it (%M): a child of this benchmark would carry the benchmark's
// peak, inherited across the exec.
func liteMaxRSS(b *testing.B, args ...string) int64 {
	bin, err := liteBinary()
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "maxrss")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out, bin}, args...)...)
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v", args, err)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	kb, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	if err != nil {
		b.Fatalf("/usr/bin/time wrote %q: %v", text, err)
	}
	return kb << 10
}

// benchProcess reports the means of wall and CPU time, the best wall time,
// and the largest peak RSS and anonymous memory.
func benchProcess(b *testing.B, bytes int64, args ...string) {
	var wall, cpu, best time.Duration
	var rss, anon int64 = 0, -1 // -1: not known (the lite build)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u := processRun(b, args...)
		wall, cpu, rss, anon = wall+u.wall, cpu+u.cpu, max(rss, u.maxRSS), max(anon, u.anon)
		if best == 0 || u.wall < best {
			best = u.wall
		}
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms/op")
	b.ReportMetric(float64(best.Milliseconds()), "best-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	if len(args) > 0 && liteCommands[args[0]] {
		rss = liteMaxRSS(b, args...) // one more run, for its memory
	}
	b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
	if anon >= 0 {
		b.ReportMetric(float64(anon)/(1<<20), "anon-MB")
	}
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

// BenchmarkProcessInfoONNX2GiB: `tensorscope info --json` of a generated
// 2 GiB ONNX model whose eight 256 MiB initializers are inline raw_data,
// whole process (issue 16: ≤ 50 ms, ≤ 60 MB apart from mapped pages).
func BenchmarkProcessInfoONNX2GiB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.onnx")
	if err := onnxtest.WriteLargeFile(path, 8, 8192, 8192); err != nil {
		b.Fatal(err)
	}
	processRun(b, "info", "--json", path) // the header pages into the page cache
	benchProcess(b, 0, "info", "--json", path)
}
