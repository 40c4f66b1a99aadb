//go:build unix

package cli

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats/npy"
	"tensorscope/internal/pyref"
)

// manyMembersNPZ writes what np.savez_compressed writes for n small
// arrays: member i is float32 [0, 1, …, i%17], deflated.
func manyMembersNPZ(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	zw := zip.NewWriter(bw)
	// One compressor, reset for each member: a new one allocates about
	// 600 KB, 60 GB for the archive, which made the archive slower to
	// write than to read and buried the reader in profiles.
	var fw *flate.Writer
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		if fw == nil {
			var err error
			fw, err = flate.NewWriter(w, flate.DefaultCompression)
			return fw, err
		}
		fw.Reset(w)
		return fw, nil
	})
	for i := range n {
		k := i%17 + 1
		body, err := npy.Header("<f4", []int{k})
		if err != nil {
			b.Fatal(err)
		}
		for j := range k {
			body = binary.LittleEndian.AppendUint32(body, math.Float32bits(float32(j)))
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("m%06d.npy", i), Method: zip.Deflate})
		if err != nil {
			b.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkProcessManyMembersNPZ: info, info --json and stats --json of an
// .npz of 100,000 small arrays (23 MB), whole process, beside NumPy
// listing the names of the same archive (issue 28: info ≤ 1 s and
// ≤ 150 MB, stats ≤ 300 MB).
func BenchmarkProcessManyMembersNPZ(b *testing.B) {
	path := filepath.Join(b.TempDir(), "many.npz")
	manyMembersNPZ(b, path, 100000)
	for _, c := range []struct {
		name string
		args []string
	}{{"info", []string{"info"}}, {"info-json", []string{"info", "--json"}}, {"stats-json", []string{"stats", "--json"}}} {
		b.Run(c.name, func(b *testing.B) { benchProcess(b, 0, append(c.args, path)...) })
	}
	b.Run("numpy-names", func(b *testing.B) {
		py := pyref.NumPy(b)
		var wall time.Duration
		var rss int64
		for range b.N {
			cmd := exec.Command(py, "-c", "import numpy, sys; print(len(numpy.load(sys.argv[1]).files))", path)
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			wall += time.Since(start)
			rss = max(rss, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss<<10)
		}
		b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms/op")
		b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
	})
}
