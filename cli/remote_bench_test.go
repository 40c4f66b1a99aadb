//go:build unix

package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/benchcpu"
	"tensorscope/internal/remote/remotetest"
)

// Remote reading over local HTTP (issue 27). Wall time on the shared
// machine depends on the load; cpu-ms/op is the process's CPU time.

// BenchmarkRemoteInfoShardedIndex20ms: info --json of the 100-shard,
// 30,000-tensor index over HTTP with 20 ms added to every request (target
// ≤ 1.5 s: shard headers are read 16 at a time, one request each).
func BenchmarkRemoteInfoShardedIndex20ms(b *testing.B) {
	dir := b.TempDir()
	index := sparseCheckpoint(b, dir, 100, 300, 800e9)
	s := remotetest.New(dir)
	defer s.Close()
	s.Faults.Latency = 20 * time.Millisecond
	url := s.URLOf(filepath.Base(index))
	s.ResetTraffic()
	benchcpu.Report(b, func() {
		var errs strings.Builder
		if code := Run([]string{"info", "--json", url}, io.Discard, &errs, noViewer); code != 0 {
			b.Fatalf("info exited %d: %s", code, errs.String())
		}
	})
	reqs, sent := s.Traffic()
	b.ReportMetric(float64(reqs)/float64(b.N), "requests/op")
	b.ReportMetric(float64(sent)/float64(b.N)/1e6, "MB-sent/op")
}

// BenchmarkRemoteStats256MiB: stats of one 256 MiB float32 tensor over
// HTTP; every iteration opens the file again, so every byte is fetched
// (target ≥ 500 MB/s).
func BenchmarkRemoteStats256MiB(b *testing.B) {
	dir := b.TempDir()
	writeSafetensors(b, filepath.Join(dir, "big.safetensors"), 1, 64<<20)
	s := remotetest.New(dir)
	defer s.Close()
	url := s.URLOf("big.safetensors")
	b.SetBytes(256 << 20)
	benchcpu.Report(b, func() {
		if code := Run([]string{"stats", url, "t0"}, io.Discard, io.Discard, noViewer); code != 0 {
			b.Fatalf("stats exited %d", code)
		}
	})
}

// BenchmarkRemoteStats256MiBStreamed: the same with a 64 MiB cache, so
// that the tensor is read in pieces (paged chunk by chunk, prefetched
// ahead, dropped behind).
func BenchmarkRemoteStats256MiBStreamed(b *testing.B) {
	dir := b.TempDir()
	writeSafetensors(b, filepath.Join(dir, "big.safetensors"), 1, 64<<20)
	s := remotetest.New(dir)
	defer s.Close()
	defer formats.SetRemoteCache("1G")
	url := s.URLOf("big.safetensors")
	b.SetBytes(256 << 20)
	benchcpu.Report(b, func() {
		if code := Run([]string{"stats", "--remote-cache", "64M", url, "t0"}, io.Discard, io.Discard, noViewer); code != 0 {
			b.Fatalf("stats exited %d", code)
		}
	})
}

// BenchmarkRemoteInfoSparseGGUF40GB: info --json of the sparse 40 GB GGUF
// over HTTP, which must transfer at most its metadata plus 1 MiB (checked
// on every run).
func BenchmarkRemoteInfoSparseGGUF40GB(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big-model.gguf")
	writeSparseModel(b, path)
	doc, err := formats.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	meta := doc.Size
	for _, t := range doc.Tensors {
		if t.Offset >= 0 {
			meta = min(meta, t.Offset)
		}
	}
	doc.Close()
	s := remotetest.New(dir)
	defer s.Close()
	url := s.URLOf("big-model.gguf")
	s.ResetTraffic()
	benchcpu.Report(b, func() {
		var errs strings.Builder
		if code := Run([]string{"info", "--json", url}, io.Discard, &errs, noViewer); code != 0 {
			b.Fatalf("info exited %d: %s", code, errs.String())
		}
	})
	reqs, sent := s.Traffic()
	perOp := sent / int64(b.N)
	b.ReportMetric(float64(reqs)/float64(b.N), "requests/op")
	b.ReportMetric(float64(perOp)/1e6, "MB-sent/op")
	b.ReportMetric(float64(meta)/1e6, "MB-metadata")
	if perOp > meta+1<<20 {
		b.Fatalf("info transferred %d bytes; the metadata is %d bytes (allowed: +1 MiB)", perOp, meta)
	}
}
