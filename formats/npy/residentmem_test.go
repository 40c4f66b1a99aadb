//go:build unix

package npy

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/tensor"
)

// residentMember is the size of the member TestInflatedMemberStaysOutOfMemory
// inflates, and residentBound the peak resident memory it allows the whole
// child process (the test binary alone takes about 20 MB).
const (
	residentMember = 256 << 20
	residentBound  = 100 << 20
)

// TestInflatedMemberStaysOutOfMemory: a member inflated into a temporary
// file (above zipfile.InMemoryLimit) keeps the resident memory of statistics, a
// histogram, a heatmap and a write of all its bytes bounded by a few
// chunks, not by the member: a child process does all four over a 256 MiB
// member and its peak resident set must stay under 100 MB. Before, every
// page read stayed mapped: 1.09 GB for a 1 GiB member.
func TestInflatedMemberStaysOutOfMemory(t *testing.T) {
	if path := os.Getenv("TENSORSCOPE_NPZ_CHILD"); path != "" {
		passesOverMember(t, path)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("pages are released on Linux only")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory swamps the measure")
	}
	path := filepath.Join(t.TempDir(), "zeros.npz")
	writeZerosNPZ(t, path, residentMember/8)
	cmd := exec.Command(os.Args[0], "-test.run=^TestInflatedMemberStaysOutOfMemory$")
	cmd.Env = append(os.Environ(), "TENSORSCOPE_NPZ_CHILD="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("peak resident memory %d MB for a %d MB member", peak>>20, residentMember>>20)
	if peak > residentBound {
		t.Errorf("peak resident memory %d MB over a %d MB member, want at most %d MB", peak>>20, residentMember>>20, residentBound>>20)
	}
}

// passesOverMember is the child's work: every pass a command makes over
// a tensor.
func passesOverMember(t *testing.T, path string) {
	zipfile.InMemoryLimit = 1 << 20
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	ctx := context.Background()
	x, err := doc.Tensor("z").Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tensor.ComputeStats(ctx, x, nil)
	if err != nil || st.Zeros != int64(x.Len()) {
		t.Fatalf("stats %+v, %v", st, err)
	}
	if _, err := tensor.ComputeHistogram(ctx, x, 64, -1, 1, nil); err != nil {
		t.Fatal(err)
	}
	row, err := tensor.Plane(x, -1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tensor.Downsample(ctx, row, 1, 1024, tensor.ReduceMean, nil); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := formats.TensorChunks(x, func(c []byte) error { n += int64(len(c)); return nil }); err != nil || n != 8*int64(x.Len()) {
		t.Fatalf("wrote %d bytes: %v", n, err)
	}
}

// writeZerosNPZ writes an .npz of one deflated float64 member "z" of n
// zeros, streaming.
func writeZerosNPZ(t *testing.T, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	zw := zip.NewWriter(bw)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "z.npy", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	header := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }", n)
	if _, err := w.Write(npyFile(1, header, nil)); err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	for left := 8 * n; left > 0; left -= len(zeros) {
		if _, err := w.Write(zeros[:min(left, len(zeros))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}
