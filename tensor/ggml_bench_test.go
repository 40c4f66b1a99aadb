package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"tensorscope/internal/benchcpu"
)

// Issue 15's targets for ggml block types (numbers in docs/PERFORMANCE.md):
//
//	go test -run '^$' -bench 'GGML' -benchtime 3x ./tensor/
//	GGUF_PY=/path/to/llama.cpp/gguf-py go test -run '^$' -bench 'GGMLStatsVsNumPy' -benchtime 3x ./tensor/

// saneBlocks returns n random blocks of dt whose block scales are sane
// float16 values (any other bit pattern is valid data).
func saneBlocks(dt DType, n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	ub := dt.UnitBytes()
	b := make([]byte, n*ub)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
	f := ggmlScaleFields[dt]
	for i := 0; i < n; i++ {
		blk := b[i*ub : (i+1)*ub]
		setScale := func(off int) {
			if off < 0 {
				return
			}
			v := float32(1e-4 + rng.Float64()*1e-3)
			switch dt {
			case GGMLQ8_K:
				binary.LittleEndian.PutUint32(blk[off:], math.Float32bits(v))
			case GGMLMXFP4:
				blk[off] = byte(118 + rng.IntN(8))
			default:
				binary.LittleEndian.PutUint16(blk[off:], Float32ToFloat16(v))
			}
		}
		setScale(f.scale)
		setScale(f.min)
		if dt == GGMLIQ1_M {
			// Scale 0x1c00 (2^-8) in the top nibbles of the four words.
			blk[49] &= 0x0f
			blk[51] &= 0x0f
			blk[53] = blk[53]&0x0f | 0xc0
			blk[55] = blk[55]&0x0f | 0x10
		}
	}
	return b
}

func blockTensor(b *testing.B, dt DType, rows, cols int) *Tensor {
	n := rows * cols / dt.UnitElems()
	x, err := FromBytes(saneBlocks(dt, n, 15), dt, []int{rows, cols})
	if err != nil {
		b.Fatal(err)
	}
	return x
}

// BenchmarkGGMLStats: statistics of a 64M-element tensor of every block
// type (16M for the slowest ones would hide nothing: all run the same kernel).
func BenchmarkGGMLStats(b *testing.B) {
	for dt := GGMLQ4_0; dt <= GGMLMXFP4; dt++ {
		b.Run(dt.String(), func(b *testing.B) {
			const rows, cols = 4096, 16384
			x := blockTensor(b, dt, rows, cols)
			st, err := ComputeStats(context.Background(), x, nil)
			if err != nil || st.Finite != rows*cols {
				b.Fatalf("%v: %d finite of %d", err, st.Finite, rows*cols)
			}
			b.ResetTimer()
			start, cpu := time.Now(), benchcpu.ProcessTime()
			for b.Loop() {
				if _, err := ComputeStats(context.Background(), x, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportRates(b, float64(rows*cols)*float64(b.N), time.Since(start), benchcpu.ProcessTime()-cpu)
		})
	}
}

// BenchmarkGGMLDecode: the bare decoders, one goroutine.
func BenchmarkGGMLDecode(b *testing.B) {
	for dt := GGMLQ4_0; dt <= GGMLMXFP4; dt++ {
		b.Run(dt.String(), func(b *testing.B) {
			n := (1 << 20) / dt.UnitElems()
			src := saneBlocks(dt, n, 3)
			dst := make([]float32, n*dt.UnitElems())
			b.SetBytes(int64(len(src)))
			start, cpu := time.Now(), benchcpu.ProcessTime()
			for b.Loop() {
				DecodeUnits(dt, dst, src)
			}
			reportRates(b, float64(len(dst))*float64(b.N), time.Since(start), benchcpu.ProcessTime()-cpu)
		})
	}
}

// BenchmarkGGMLDownsampleQ4K: a 4096×14336 Q4_K plane to 1024×1024.
func BenchmarkGGMLDownsampleQ4K(b *testing.B) {
	x := blockTensor(b, GGMLQ4_K, 4096, 14336)
	b.ResetTimer()
	benchcpu.Report(b, func() {
		if _, err := Downsample(context.Background(), x, 1024, 1024, ReduceMean, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// reportRates reports elements per second of wall time and per second of
// CPU time. The machine is shared: when other work takes the cores, wall
// time grows while CPU time per element stays what the code costs, and
// Gelem/cpu-s × cores is what a quiet machine gives.
func reportRates(b *testing.B, elems float64, wall, cpu time.Duration) {
	b.ReportMetric(elems/wall.Seconds()/1e9, "Gelem/s")
	if cpu > 0 {
		b.ReportMetric(elems/cpu.Seconds()/1e9, "Gelem/cpu-s")
	}
}

// BenchmarkGGMLStatsVsNumPy runs, in one process run, the statistics of a
// 64M-element Q4_K tensor here and gguf-py's quants.dequantize followed by
// NumPy's min/max/mean/std on the same bytes, and reports the ratio. It
// needs GGUF_PY (llama.cpp's gguf-py folder) and /usr/bin/python3 with NumPy.
func BenchmarkGGMLStatsVsNumPy(b *testing.B) {
	ggufPy := os.Getenv("GGUF_PY")
	if ggufPy == "" {
		b.Skip("set GGUF_PY to llama.cpp's gguf-py folder to compare with NumPy")
	}
	const rows, cols = 4096, 16384
	x := blockTensor(b, GGMLQ4_K, rows, cols)
	path := filepath.Join(b.TempDir(), "q4k.bin")
	if err := os.WriteFile(path, x.Storage().Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	script := fmt.Sprintf(`
import importlib, os, sys, time, types
import numpy as np
pkg = types.ModuleType("gguf"); pkg.__path__ = [os.path.join(%q, "gguf")]; sys.modules["gguf"] = pkg
q = importlib.import_module("gguf.quants"); c = importlib.import_module("gguf.constants")
raw = np.fromfile(%q, dtype=np.uint8).reshape(%d, -1)
best = 1e9
for _ in range(3):
    t = time.perf_counter()
    v = q.dequantize(raw, c.GGMLQuantizationType.Q4_K)
    s = (v.min(), v.max(), v.mean(dtype=np.float64), v.std(dtype=np.float64))
    best = min(best, time.perf_counter() - t)
print(best)
`, ggufPy, path, rows)
	out, err := exec.Command("/usr/bin/python3", "-c", script).Output()
	if err != nil {
		b.Fatalf("python: %v", err)
	}
	var numpySec float64
	fmt.Sscan(string(out), &numpySec)
	best := math.Inf(1)
	for b.Loop() {
		start := time.Now()
		if _, err := ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(start).Seconds())
	}
	b.ReportMetric(numpySec*1e3, "numpy-ms")
	b.ReportMetric(best*1e3, "go-ms")
	b.ReportMetric(numpySec/best, "speedup")
}
