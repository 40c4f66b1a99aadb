package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/npy"
	"tensorscope/formats/tsr"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

func TestExportTensorFormats(t *testing.T) {
	wave := waveFile(t)
	before, _ := os.ReadFile(wave)
	doc, err := formats.Open(wave)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	x, err := doc.Tensors[0].Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := x.ContiguousBytes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	// .npy: the header NumPy writes for float32[2,30,40] and the bytes.
	npyPath := filepath.Join(dir, "w.npy")
	if _, errOut, code := runCmd("export", wave, "--tensor", "#0", "--out", npyPath); code != 0 || errOut != "" {
		t.Fatalf("npy: exit %d: %s", code, errOut)
	}
	h, _ := npy.Header("<f4", []int{2, 30, 40})
	if got, _ := os.ReadFile(npyPath); !bytes.Equal(got, append(h, raw...)) {
		t.Errorf(".npy differs from header + data (%d bytes)", len(got))
	}

	// --expr: the view's elements, in its order (plane 1, transposed).
	viewed := filepath.Join(dir, "v.npy")
	if _, errOut, code := runCmd("export", wave, "--tensor", "#0", "--expr", "w[1].transpose(0,1)", "--out", viewed); code != 0 || errOut != "" {
		t.Fatalf("--expr: exit %d: %s", code, errOut)
	}
	p1, _ := x.Select(0, 1)
	tr, _ := p1.Permute([]int{1, 0})
	trBytes, err := tr.ContiguousBytes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	h, _ = npy.Header("<f4", []int{40, 30})
	if got, _ := os.ReadFile(viewed); !bytes.Equal(got, append(h, trBytes...)) {
		t.Errorf("--expr: .npy differs from the transposed plane (%d bytes)", len(got))
	}
	os.Remove(viewed)

	// .tsr: a TSR v1 input comes back as the same file.
	out := filepath.Join(dir, "w.tsr")
	if _, errOut, code := runCmd("export", wave, "--tensor", "#0", "--out", out); code != 0 || !strings.Contains(errOut, "TSR v1") {
		t.Fatalf("tsr: exit %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, before) {
		t.Error("TSR v1 export differs from the TSR v1 input")
	}

	// .csv: plane 1 with rows and columns swapped, said on stderr.
	csv := filepath.Join(dir, "w.csv")
	_, errOut, code := runCmd("export", wave, "--tensor", "#0", "--axes", "2,1", "--index", "0=1", "--out", csv)
	if code != 0 || !strings.Contains(errOut, "plane [1, cols, rows]") {
		t.Fatalf("csv: exit %d: %s", code, errOut)
	}
	text, _ := os.ReadFile(csv)
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) != 40 || len(strings.Split(lines[0], ",")) != 30 {
		t.Fatalf("csv: %d lines of %d fields, want 40 of 30", len(lines), len(strings.Split(lines[0], ",")))
	}
	for _, rc := range [][2]int{{0, 0}, {39, 29}, {7, 22}} {
		want, _ := x.ElementString([]int{1, rc[1], rc[0]})
		if got := strings.Split(lines[rc[0]], ",")[rc[1]]; got != want {
			t.Errorf("csv row %d col %d: %q, want %q", rc[0], rc[1], got, want)
		}
	}

	if after, _ := os.ReadFile(wave); !bytes.Equal(before, after) {
		t.Error("the input file changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("output directory holds %d files, want 3", len(entries))
	}
}

// bfloat16 (TSR3) has no NumPy dtype: float32, and stderr says so; float16
// goes to TSR4 as 4 dims.
func TestExportNotes(t *testing.T) {
	b := make([]byte, 2*6)
	for i := range 6 {
		binary.LittleEndian.PutUint16(b[2*i:], tensor.Float32ToBFloat16(float32(i)-2.5))
	}
	x, _ := tensor.FromBytes(b, tensor.BFloat16, []int{2, 3})
	var buf bytes.Buffer
	if err := tsr.EncodeV3(&buf, x, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	in := writeFixture(t, "bf16.tsr", buf.Bytes())
	dir := t.TempDir()
	_, errOut, code := runCmd("export", in, "--tensor", "#0", "--out", filepath.Join(dir, "x.npy"))
	if code != 0 || !strings.Contains(errOut, "bfloat16") || !strings.Contains(errOut, "float32") {
		t.Errorf("bfloat16 .npy: exit %d, stderr %q", code, errOut)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "x.npy"))
	if !bytes.Contains(got, []byte("'descr': '<f4'")) {
		t.Errorf("bfloat16 .npy header: %q", got[:min(len(got), 80)])
	}
	_, errOut, code = runCmd("export", in, "--tensor", "#0", "--out", filepath.Join(dir, "x.tsr"))
	if code != 1 || !strings.Contains(errOut, "fits no TSR generation") {
		t.Errorf("bfloat16 .tsr: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.tsr")); err == nil {
		t.Error("a refused .tsr export left a file")
	}

	h := make([]byte, 2*4)
	x16, _ := tensor.FromBytes(h, tensor.Float16, []int{4})
	buf.Reset()
	if err := tsr.EncodeV4(&buf, []*tensor.Tensor{x16}, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	in16 := writeFixture(t, "f16.tsr", buf.Bytes())
	_, errOut, code = runCmd("export", in16, "--tensor", "#0", "--out", filepath.Join(dir, "y.tsr"))
	if code != 0 || !strings.Contains(errOut, "TSR4") {
		t.Errorf("float16 .tsr: exit %d, stderr %q", code, errOut)
	}
}

func TestExportGraph(t *testing.T) {
	cnn := cnnFile(t, 60, false)
	dir := t.TempDir()
	for _, c := range []struct {
		name, head string
		dark       bool
	}{{"g.svg", "<svg", false}, {"g.png", "\x89PNG", false}, {"d.svg", "<svg", true}} {
		args := []string{"export", cnn, "--view", "graph", "--out", filepath.Join(dir, c.name)}
		if c.dark {
			args = append(args, "--dark")
		}
		if _, errOut, code := runCmd(args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		b, _ := os.ReadFile(filepath.Join(dir, c.name))
		if !bytes.HasPrefix(bytes.TrimLeft(b, " \n"), []byte(c.head)) && !bytes.Contains(b[:min(len(b), 200)], []byte(c.head)) {
			t.Errorf("%s starts %q", c.name, b[:min(len(b), 40)])
		}
	}
	light, _ := os.ReadFile(filepath.Join(dir, "g.svg"))
	dark, _ := os.ReadFile(filepath.Join(dir, "d.svg"))
	if bytes.Equal(light, dark) {
		t.Error("--dark changed nothing")
	}
}

func TestExportUsageAndErrors(t *testing.T) {
	wave := waveFile(t)
	cnn := cnnFile(t, 60, false)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.npy")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export"}, 2, "expected one FILE"},
		{[]string{"export", wave, "--tensor", "#0"}, 2, "--out is required"},
		{[]string{"export", wave, "--out", out}, 2, "choose --tensor NAME or --view graph"},
		{[]string{"export", wave, "--tensor", "#0", "--out", filepath.Join(dir, "x.txt")}, 2, ".npy, .tsr, .safetensors, .csv"},
		{[]string{"export", wave, "--tensor", "#0", "--axes", "0,1", "--out", out}, 2, "plane of a .csv"},
		{[]string{"export", wave, "--tensor", "#0", "--expr", "w[", "--out", out}, 2, "col 3: expected an index"},
		{[]string{"export", wave, "--all", "--expr", "w", "--out", filepath.Join(dir, "a.safetensors")}, 2, "--expr"},
		{[]string{"export", wave, "--tensor", "#0", "--expr", "w.merge(0,3)", "--out", out}, 1, "col 3: merge(0,3): axis 3 is out of range for rank 3"},
		{[]string{"export", cnn, "--view", "graph", "--tensor", "data", "--out", filepath.Join(dir, "g.svg")}, 2, "do not apply"},
		{[]string{"export", cnn, "--view", "graph", "--out", filepath.Join(dir, "g.pdf")}, 2, ".svg or .png"},
		{[]string{"export", cnn, "--view", "heatmap", "--out", out}, 2, "--view must be graph"},
		{[]string{"export", wave, "--tensor", "#0", "--depth", "1", "--out", out}, 2, "--depth applies to --view graph"},
		{[]string{"export", cnn, "--view", "graph", "--depth", "0", "--out", filepath.Join(dir, "g.svg")}, 2, "a depth is auto, all or a scope level"},
		{[]string{"export", wave, "--tensor", "#0", "--out", wave}, 2, "is the input file"},
		{[]string{"export", wave + ".missing", "--tensor", "#0", "--out", out}, 1, "tensorscope: " + wave + ".missing"},
		{[]string{"export", wave, "--tensor", "w", "--out", out}, 1, `no tensor named "w"`},
		{[]string{"export", cnn, "--tensor", "data", "--out", out}, 1, "no data"},
		{[]string{"export", wave, "--view", "graph", "--out", filepath.Join(dir, "g.svg")}, 1, "no graph"},
		{[]string{"export", wave, "--tensor", "#0", "--index", "0=5", "--out", filepath.Join(dir, "x.csv")}, 1, "outside axis 0"},
		{[]string{"export", wave, "--tensor", "#0", "--out", filepath.Join(wave, "x.npy")}, 1, "cannot write"},
	} {
		_, errOut, code := runCmd(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.want)
		}
		if code == 1 && strings.Count(strings.TrimSuffix(errOut, "\n"), "\n") > 0 {
			t.Errorf("%v: the error takes more than one line:\n%s", c.args, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed exports left %d files", len(entries))
	}
}

// largeTSR is a TSR v1 float32[4096,4096] (64 MiB): its CSV export takes
// seconds, time enough to interrupt it.
func largeTSR(t *testing.T) string {
	t.Helper()
	const n = 4096
	b := make([]byte, 4*n*n)
	for i := 0; i < n*n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i%977)*0.123456789-31.7))
	}
	x, err := tensor.FromBytes(b, tensor.Float32, []int{n, n})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "large.tsr")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tsr.EncodeV1(f, x); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// An export killed midway leaves no partial file: SIGINT and SIGTERM stop
// it and remove its temporary file; after SIGKILL, which cannot be caught,
// only the hidden temporary file may remain, never OUT.
func TestExportInterrupted(t *testing.T) {
	in := largeTSR(t)
	sum := func() [32]byte { b, _ := os.ReadFile(in); return sha256.Sum256(b) }
	inSum := sum()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.csv")
			cmd := exec.Command(os.Args[0], "export", in, "--tensor", "#0", "--out", out)
			cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the export has written into its temporary file.
			deadline := time.Now().Add(time.Minute)
			for !writing(dir) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no temporary file appeared; stderr: %s", stderr.String())
				}
				time.Sleep(2 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("the export finished before the signal (%v): make the input larger", err)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%v left %s", sig, out)
			}
			left := names(dir)
			if sig == syscall.SIGKILL {
				if len(left) > 1 || (len(left) == 1 && !strings.HasPrefix(left[0], ".out.csv.tmp-")) {
					t.Errorf("after SIGKILL the directory holds %v", left)
				}
				return
			}
			if len(left) != 0 {
				t.Errorf("after %v the directory holds %v", sig, left)
			}
			if want := 128 + int(sig); ee.ExitCode() != want || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("after %v: exit %d, stderr %q; want exit %d", sig, ee.ExitCode(), stderr.String(), want)
			}
		})
	}
	if sum() != inSum {
		t.Error("the input file changed")
	}
}

// writing reports whether dir holds a temporary file with data in it.
func writing(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".out.csv.tmp-") {
			if fi, err := e.Info(); err == nil && fi.Size() > 0 {
				return true
			}
		}
	}
	return false
}

func names(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestExportGraphTooLargeForAPNG: swin_t's whole graph cannot be a
// readable PNG: the export says so, its size and the caps, suggests .svg
// and --depth, and writes nothing; with --depth 2 it is written at 1:1.
func TestExportGraphTooLargeForAPNG(t *testing.T) {
	swin := filepath.Join(samples.Dir(t, "onnx"), "torchvision-export", "swin_t_topology_w24_opset16.onnx")
	out := filepath.Join(t.TempDir(), "swin.png")
	_, errOut, code := runCmd("export", swin, "--view", "graph", "--out", out)
	if code != 1 || !strings.Contains(errOut, "more than a PNG can hold") || !strings.Contains(errOut, "--depth N") || !strings.Contains(errOut, ".svg") {
		t.Errorf("whole graph: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused PNG exists: %v", err)
	}
	_, errOut, code = runCmd("export", swin, "--view", "graph", "--depth", "2", "--out", out)
	if code != 0 || !strings.Contains(errOut, "at the graph's 1:1 size") {
		t.Errorf("--depth 2: exit %d, stderr %q", code, errOut)
	}
}
