//go:build unix

package cli

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"tensorscope/formats/npy"
	"testing"
	"time"
)

// interruptChild runs the command line args in a child process, waits
// until started(pid) holds and then a little more, sends sig, and checks
// that the child exits 128+sig saying it was interrupted, and that dir
// holds nothing afterwards (no output, no temporary file).
func interruptChild(t *testing.T, sig syscall.Signal, dir string, started func(pid int) bool, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !started(cmd.Process.Pid) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%v never started its work; stderr: %s", args, stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: %v ignored for 30 s; stderr: %s", args, sig, stderr.String())
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("%v finished before the signal (%v): make the input larger", args, err)
	}
	if want := 128 + int(sig); ee.ExitCode() != want || !strings.Contains(stderr.String(), "interrupted") || stdout.Len() != 0 {
		t.Errorf("%v after %v: exit %d, stdout %q, stderr %q; want exit %d", args, sig, ee.ExitCode(), stdout.String(), stderr.String(), want)
	}
	if left := names(dir); len(left) != 0 {
		t.Errorf("%v after %v: the output folder holds %v", args, sig, left)
	}
	t.Logf("%v: exited %v after %v", args[0], time.Since(sent).Round(time.Millisecond), sig)
}

// mapped reports whether process pid has mapped path.
func mapped(path string) func(pid int) bool {
	return func(pid int) bool {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
		return bytes.Contains(b, []byte(path))
	}
}

// render stops on SIGINT and SIGTERM while it computes a heatmap (and
// export while it writes, see TestExportInterrupted) with 130 and 143,
// leaving no file.
func TestRenderInterrupted(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("needs /proc to see when render is at work")
	}
	in := sparseTSR(t, 16384, 16384) // 1 GiB of zeros
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, view := range []string{"heatmap", "histogram"} {
			t.Run(sig.String()+"/"+view, func(t *testing.T) {
				dir := t.TempDir()
				interruptChild(t, sig, dir, mapped(in), "render", in, "--view", view, "--out", filepath.Join(dir, "out.png"))
			})
		}
	}
}

// render and export stop on SIGINT and SIGTERM while they inflate a large
// .npz member (into a temporary file, above 512 MiB), leaving no file.
func TestInterruptedWhileInflating(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("needs /proc to see when the commands are at work")
	}
	if raceEnabled || testing.Short() {
		t.Skip("deflating 768 MiB takes minutes under the race detector")
	}
	in := filepath.Join(t.TempDir(), "zeros.npz")
	writeZerosNPZ(t, in, 96<<20) // 768 MiB of float64 zeros in a 750 KB file
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String()+"/render", func(t *testing.T) {
			dir := t.TempDir()
			interruptChild(t, sig, dir, mapped(in), "render", in, "--view", "heatmap", "--out", filepath.Join(dir, "out.png"))
		})
		t.Run(sig.String()+"/export", func(t *testing.T) {
			dir := t.TempDir()
			interruptChild(t, sig, dir, mapped(in), "export", in, "--tensor", "z", "--out", filepath.Join(dir, "out.npy"))
		})
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
	header, err := npy.Header("<f8", []int{n})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(header); err != nil {
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

// A view's memory is bounded by what it draws: rendering the heatmap of a
// vector of 4M values (16 MB) stays under 500 MB (120–290 MB here, depending on the load; a separator per column is gigabytes). Before, the Values
// table, never shown by the render, took every one of its columns as
// visible and made a separator for each (24 GB for 134M values).
func TestRenderLongVectorMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory swamps the measure")
	}
	in := sparseTSR(t, 1, 4<<20)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "render", in, "--view", "heatmap", "--out", filepath.Join(dir, "out.png"))
	cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, out)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("peak resident memory %d MB", peak>>20)
	if peak > 500<<20 {
		t.Errorf("rendering a vector of 4M values took %d MB, want at most 500 MB", peak>>20)
	}
}
