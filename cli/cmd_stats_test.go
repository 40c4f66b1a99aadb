package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tensorscope/formats/tsr"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// writeTSR4 writes tensors of float32 values to a TSR4 file in a temp dir.
func writeTSR4(t *testing.T, values ...[]float32) string {
	t.Helper()
	var ts []*tensor.Tensor
	for _, v := range values {
		b := make([]byte, 4*len(v))
		for i, f := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
		}
		x, err := tensor.FromBytes(b, tensor.Float32, []int{len(v)})
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, x)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV4(&buf, ts, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.tsr")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func statsJSON(t *testing.T, args ...string) []tensorStats {
	t.Helper()
	out, errOut, code := runCmd(append([]string{"stats", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("stats exit %d: %s", code, errOut)
	}
	var got []tensorStats
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return got
}

func TestStatsJSON(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	path := writeTSR4(t,
		[]float32{1, 2, 3, 4, 0, float32(math.Copysign(0, -1)), nan, inf, -inf},
		[]float32{nan, nan})
	got := statsJSON(t, path)
	if len(got) != 2 {
		t.Fatalf("%d tensors, want every tensor with data", len(got))
	}
	a := got[0]
	if a.Name != "#0" || a.DType != "float32" || a.Count != 9 || a.Finite != 6 || a.NaN != 1 ||
		a.PosInf != 1 || a.NegInf != 1 || a.Zeros != 2 {
		t.Errorf("counts %+v", a)
	}
	if *a.Min != 0 || *a.Max != 4 || math.Abs(*a.Mean-10.0/6) > 1e-12 {
		t.Errorf("min %v max %v mean %v", *a.Min, *a.Max, *a.Mean)
	}
	// Population std of {1,2,3,4,0,0}.
	mean := 10.0 / 6
	var ss float64
	for _, v := range []float64{1, 2, 3, 4, 0, 0} {
		ss += (v - mean) * (v - mean)
	}
	if want := math.Sqrt(ss / 6); math.Abs(*a.Std-want) > 1e-12 {
		t.Errorf("std %v, want %v", *a.Std, want)
	}
	if b := got[1]; b.Finite != 0 || b.Min != nil || b.Max != nil || b.Mean != nil || b.Std != nil {
		t.Errorf("all-NaN tensor must have null min/max/mean/std: %+v", b)
	}
	// The raw JSON spells absent values as null, not as missing keys.
	out, _, _ := runCmd("stats", "--json", path, "#1")
	if !strings.Contains(out, `"min":null`) || !strings.Contains(out, `"std":null`) {
		t.Errorf("raw JSON %s", out)
	}
}

func TestStatsNamedAndErrors(t *testing.T) {
	path := writeTSR4(t, []float32{1, 2}, []float32{5})
	got := statsJSON(t, path, "#1")
	if len(got) != 1 || got[0].Name != "#1" || *got[0].Max != 5 {
		t.Errorf("named tensor %+v", got)
	}
	if _, errOut, code := runCmd("stats", path, "nope"); code != 1 || !strings.Contains(errOut, `no tensor named "nope"`) {
		t.Errorf("unknown tensor: exit %d %q", code, errOut)
	}
	if _, _, code := runCmd("stats"); code != 2 {
		t.Errorf("missing FILE: exit %d", code)
	}
	if _, _, code := runCmd("stats", "--bogus", path); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.tsr")
	os.WriteFile(bad, []byte("TSR!garbage"), 0o644)
	if _, errOut, code := runCmd("stats", bad); code != 1 || !strings.HasPrefix(errOut, "tensorscope: "+bad+": ") {
		t.Errorf("bad file: exit %d %q", code, errOut)
	}
	out, _, code := runCmd("stats", path)
	if code != 0 || !strings.Contains(out, "#0") || !strings.Contains(out, "mean") {
		t.Errorf("table output: %q", out)
	}
}

// TestStatsSamples: the MNIST test labels hold 980 zeros (the digit 0 has
// 980 test images) and labels 0..9.
func TestStatsSamples(t *testing.T) {
	dir := samples.Dir(t, "tsr")
	got := statsJSON(t, filepath.Join(dir, "tsr1_tech-renaissance_test_labels.tsr"))
	if len(got) != 1 || got[0].Count != 10000 || got[0].Zeros != 980 || *got[0].Min != 0 || *got[0].Max != 9 {
		t.Errorf("%+v", got)
	}
}

// sparseTSR is a TSR v1 float32[rows, cols] whose data is a hole in the
// file: large enough that its statistics take a while, without writing it.
func sparseTSR(t *testing.T, rows, cols int) string {
	t.Helper()
	one, err := tensor.FromBytes(make([]byte, 4), tensor.Float32, []int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, one); err != nil {
		t.Fatal(err)
	}
	h := buf.Bytes()[:buf.Len()-4]
	le := binary.LittleEndian
	le.PutUint32(h[32:], uint32(rows))
	le.PutUint32(h[36:], uint32(cols))
	le.PutUint64(h[40:], uint64(rows*cols))
	path := filepath.Join(t.TempDir(), "sparse.tsr")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(h); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(len(h)) + 4*int64(rows*cols)); err != nil {
		t.Fatal(err)
	}
	return path
}

// Ctrl+C stops stats with status 130 (SIGTERM with 143), as --help says,
// and nothing is printed on stdout.
func TestStatsInterrupted(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("needs /proc to see when stats is at work")
	}
	in := sparseTSR(t, 16384, 16384) // 1 GiB of zeros
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "stats", in)
			cmd.Env = append(os.Environ(), "TENSORSCOPE_RUN_MAIN=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the file is mapped, then a little more: stats
			// catches signals right after selecting the tensors.
			maps := fmt.Sprintf("/proc/%d/maps", cmd.Process.Pid)
			deadline := time.Now().Add(time.Minute)
			for b, _ := os.ReadFile(maps); !bytes.Contains(b, []byte(in)); b, _ = os.ReadFile(maps) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("stats never mapped its input; stderr: %s", stderr.String())
				}
				time.Sleep(2 * time.Millisecond)
			}
			time.Sleep(100 * time.Millisecond)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("stats finished before the signal (%v): make the input larger", err)
			}
			if want := 128 + int(sig); ee.ExitCode() != want || !strings.Contains(stderr.String(), "interrupted") || stdout.Len() != 0 {
				t.Errorf("after %v: exit %d, stdout %q, stderr %q; want exit %d", sig, ee.ExitCode(), stdout.String(), stderr.String(), want)
			}
		})
	}
}

// Complex tensors are summarised through a part: the magnitude by
// default, the real or imaginary part with --part.
func TestStatsComplexParts(t *testing.T) {
	header := "{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }"
	header += strings.Repeat(" ", 128-10-len(header)-1) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	binary.Write(&b, binary.LittleEndian, []float32{3, 4, 0, 1, -1, 0}) // 3+4i, 1i, −1
	path := filepath.Join(t.TempDir(), "c.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args           []string
		part           string
		min, max, mean float64
	}{
		{nil, "magnitude", 1, 5, 7.0 / 3},
		{[]string{"--part", "real"}, "real", -1, 3, 2.0 / 3},
		{[]string{"--part", "imag"}, "imag", 0, 4, 5.0 / 3},
	} {
		st := statsJSON(t, append(c.args, path)...)
		if len(st) != 1 {
			t.Fatalf("%v: %d tensors", c.args, len(st))
		}
		s := st[0]
		if s.DType != "complex64" || s.Part != c.part || s.Count != 3 || *s.Min != c.min || *s.Max != c.max || math.Abs(*s.Mean-c.mean) > 1e-12 {
			t.Errorf("%v: %+v", c.args, s)
		}
	}
	if _, errOut, code := runChild(t, nil, "stats", "--part", "phase", path); code != exitBadUsage || !strings.Contains(errOut, "magnitude, real, imag") {
		t.Errorf("--part phase: status %d, %s", code, errOut)
	}
}
