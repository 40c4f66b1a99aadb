package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/benchcpu"
	"tensorscope/tensor"
)

// normalFloat32s returns n normally distributed float32 values as bytes.
func normalFloat32s(n int) []byte {
	raw := make([]byte, 4*n)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(r.NormFloat64())))
	}
	return raw
}

// BenchmarkStats1GiB computes the statistics of a 1 GiB float32 .npy, in C
// order and in Fortran order (a strided view), mapped and page-cached.
func BenchmarkStats1GiB(b *testing.B) {
	dir := b.TempDir()
	data := normalFloat32s(1 << 28)
	for _, order := range []string{"C", "Fortran"} {
		fortran := "False"
		if order == "Fortran" {
			fortran = "True"
		}
		path := filepath.Join(dir, order+".npy")
		if err := os.WriteFile(path, npyFile(1, "{'descr': '<f4', 'fortran_order': "+fortran+", 'shape': (16384, 16384), }", data), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(order, func(b *testing.B) {
			doc, err := formats.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer doc.Close()
			x, err := doc.Tensor("#0").Load(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			tensor.ComputeStats(context.Background(), x, nil)
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

// BenchmarkDeflatedMember256MiB inflates a 256 MiB float32 member of an
// .npz and computes its statistics, from opening the archive; bytes/s is
// of output. The member is inflated into an anonymous mapping, outside the
// Go heap: mem/member is the growth of the process's resident anonymous
// memory plus B/op, over the member's size (the bound is 1.2).
func BenchmarkDeflatedMember256MiB(b *testing.B) {
	const size = 256 << 20
	body := npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (8192, 8192), }", normalFloat32s(size/4))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "w.npy", Method: zip.Deflate})
	if err != nil {
		b.Fatal(err)
	}
	w.Write(body)
	zw.Close()
	path := filepath.Join(b.TempDir(), "w.npz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	body = nil
	buf = bytes.Buffer{}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchcpu.ProcessTime()
	defer func() { b.ReportMetric(float64((benchcpu.ProcessTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	var grown int64
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for i := 0; i < b.N; i++ {
		before := rssAnon(b)
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		x, err := doc.Tensor("w").Load(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tensor.ComputeStats(context.Background(), x, nil); err != nil {
			b.Fatal(err)
		}
		grown = max(grown, rssAnon(b)-before)
		doc.Close()
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric((float64(grown)+float64(ms.TotalAlloc-ms0.TotalAlloc)/float64(b.N))/size, "mem/member")
}

// rssAnon is the process's resident anonymous memory, from /proc.
func rssAnon(b *testing.B) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(status), "\n") {
		if kb, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(kb, "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}

// manyMembersFile writes what np.savez_compressed writes for n small
// arrays (member i is float32 [0, 1, …, i%17], deflated, with data
// descriptors) and returns its path.
func manyMembersFile(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "many.npz")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	fw, _ := flate.NewWriter(nil, flate.DefaultCompression)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		fw.Reset(w)
		return fw, nil
	})
	for i := range n {
		k := i%17 + 1
		body, err := Header("<f4", []int{k})
		if err != nil {
			b.Fatal(err)
		}
		for j := range k {
			body = binary.LittleEndian.AppendUint32(body, math.Float32bits(float32(j)))
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "m" + strconv.Itoa(1000000 + i)[1:] + ".npy", Method: zip.Deflate})
		if err != nil {
			b.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkOpenManyMembers opens an .npz of 100,000 small arrays (issue
// 28's stress file). live-MB is the Go heap that stays live while the
// document is open (after a collection), peak-MB the most the heap held
// (runtime/metrics' total heap memory at its high point is not exposed,
// so it is sampled as HeapInuse after opening, before a collection).
func BenchmarkOpenManyMembers(b *testing.B) {
	path := manyMembersFile(b, 100_000)
	b.ReportAllocs()
	var live uint64
	for b.Loop() {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = max(live, ms.HeapAlloc)
		if p := os.Getenv("TENSORSCOPE_HEAPPROFILE"); p != "" {
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			pprof.WriteHeapProfile(f)
			f.Close()
		}
		doc.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/(1<<20), "live-MB")
}
