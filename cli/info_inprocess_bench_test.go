//go:build unix

package cli

import (
	"io"
	"path/filepath"
	"testing"
)

// The in-process halves of the whole-process info benchmarks: the same
// command on the same files, with allocations counted, so that a profile
// (-cpuprofile, -memprofile) shows the work apart from process start-up.

func BenchmarkInfoJSONInProcessSparseGGUF(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big-model.gguf")
	writeSparseModel(b, path)
	benchInfoInProcess(b, path)
}

func BenchmarkInfoJSONInProcessShardedIndex(b *testing.B) {
	benchInfoInProcess(b, sparseCheckpoint(b, b.TempDir(), 100, 300, 800e9))
}

func benchInfoInProcess(b *testing.B, path string) {
	b.ReportAllocs()
	for b.Loop() {
		if code := Run([]string{"info", "--json", path}, io.Discard, io.Discard, noViewer); code != 0 {
			b.Fatalf("info exited %d", code)
		}
	}
}

// BenchmarkInfoInProcessManyMembersNPZ: info (the text table) and info
// --json of the 100,000-member .npz of BenchmarkProcessManyMembersNPZ, in
// process, for profiles.
func BenchmarkInfoInProcessManyMembersNPZ(b *testing.B) {
	path := filepath.Join(b.TempDir(), "many.npz")
	manyMembersNPZ(b, path, 100000)
	for _, c := range []struct {
		name string
		args []string
	}{{"info", []string{"info"}}, {"info-json", []string{"info", "--json"}}, {"stats-json", []string{"stats", "--json"}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := Run(append(c.args, path), io.Discard, io.Discard, noViewer); code != 0 {
					b.Fatalf("%v exited %d", c.args, code)
				}
			}
		})
	}
}
