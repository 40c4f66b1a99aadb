package safetensors_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/safetensors"
	"tensorscope/internal/benchcpu"
	"tensorscope/tensor"
)

// WriteShardedCheckpoint makes a checkpoint of shards sparse files holding
// perShard tensors each, of nominal bytes in all, and its index; it returns
// the index's path. Only the headers are written: the data is a hole.
func WriteShardedCheckpoint(tb testing.TB, dir string, shards, perShard int, nominal int64) string {
	weightMap := map[string]string{}
	perTensor := nominal / int64(shards*perShard) / 8192 * 8192 // whole rows of 4096 bfloat16s
	for s := 0; s < shards; s++ {
		file := fmt.Sprintf("model-%05d-of-%05d.safetensors", s+1, shards)
		var named []safetensors.Named
		for i := 0; i < perShard; i++ {
			name := fmt.Sprintf("model.layers.%d.block.%d.weight", s, i)
			weightMap[name] = file
			named = append(named, safetensors.Named{Name: name, Tensor: sparseTensor(tb, perTensor/2)})
		}
		h, err := safetensors.EncodeHeader(named, map[string]string{"format": "pt"})
		if err != nil {
			tb.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, file))
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := f.Write(h); err != nil {
			tb.Fatal(err)
		}
		if err := f.Truncate(int64(len(h)) + int64(perShard)*perTensor); err != nil {
			tb.Fatal(err)
		}
		f.Close()
	}
	index, _ := json.Marshal(map[string]any{"metadata": map[string]any{"total_size": nominal}, "weight_map": weightMap})
	path := filepath.Join(dir, "model.safetensors.index.json")
	if err := os.WriteFile(path, index, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// sparseTensor is a bfloat16 tensor of n elements whose header can be
// written without its data: a view of one element broadcast by a zero
// stride is all EncodeHeader needs (dtype, shape).
func sparseTensor(tb testing.TB, n int64) *tensor.Tensor {
	x, err := tensor.NewStrided(tensor.NewStorage(make([]byte, 2)), 0, tensor.BFloat16, []int{int(n / 4096), 4096}, []int{0, 0})
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

// BenchmarkOpenShardedCheckpoint opens a 100-shard, 30,000-tensor, 800 GB
// checkpoint through its index and marshals info --json, in process.
func BenchmarkOpenShardedCheckpoint(b *testing.B) {
	index := WriteShardedCheckpoint(b, b.TempDir(), 100, 300, 800e9)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchcpu.ProcessTime()
	defer func() { b.ReportMetric(float64((benchcpu.ProcessTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		doc, err := formats.Open(index)
		if err != nil {
			b.Fatal(err)
		}
		if len(doc.Tensors) != 30000 || len(doc.Warnings) != 0 {
			b.Fatalf("%d tensors, warnings %v", len(doc.Tensors), doc.Warnings[:min(2, len(doc.Warnings))])
		}
		if _, err := json.Marshal(doc); err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}

// writeGiB writes a safetensors file of one tensor of dt holding size bytes
// of normally distributed values.
func writeTensorFile(tb testing.TB, dir string, dt tensor.DType, size int64) string {
	n := size / int64(dt.Size())
	raw := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := int64(0); i < n; i++ {
		v := float32(r.NormFloat64())
		switch dt {
		case tensor.Float32:
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
		case tensor.Float16:
			binary.LittleEndian.PutUint16(raw[2*i:], tensor.Float32ToFloat16(v))
		case tensor.BFloat16:
			binary.LittleEndian.PutUint16(raw[2*i:], tensor.Float32ToBFloat16(v))
		}
	}
	x, err := tensor.FromBytes(raw, dt, []int{int(n / 4096), 4096})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, dt.String()+".safetensors")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := safetensors.Write(context.Background(), f, []safetensors.Named{{Name: "w", Tensor: x}}, nil); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkStats1GiB computes the statistics of a 1 GiB tensor of a
// safetensors file, mapped and page-cached (bytes/s is the file's data).
func BenchmarkStats1GiB(b *testing.B) {
	dir := b.TempDir()
	for _, dt := range []tensor.DType{tensor.Float32, tensor.BFloat16, tensor.Float16} {
		path := writeTensorFile(b, dir, dt, 1<<30)
		b.Run(dt.String(), func(b *testing.B) {
			doc, err := formats.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer doc.Close()
			x, err := doc.Tensor("w").Load(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			tensor.ComputeStats(context.Background(), x, nil) // fault the pages in once
			b.SetBytes(1 << 30)
			b.ResetTimer()
			cpu := benchcpu.ProcessTime()
			for i := 0; i < b.N; i++ {
				if _, err := tensor.ComputeStats(context.Background(), x, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((benchcpu.ProcessTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
		os.Remove(path)
	}
}
