package viewmodel

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// Export All from the viewer writes every stored tensor (the quantised
// ones as stored, not the derived scale views) to one .safetensors file,
// with progress that ends at 1; the file reads back with the same values.
func TestDocExportAllWritesEveryStoredTensor(t *testing.T) {
	src := filepath.Join(samples.Dir(t, "gguf"), "quantized-llama.cpp", "synth-llama256-IQ4_NL.gguf")
	fd, err := formats.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	d := newDoc(q.Post, fd, Source{Path: src})
	defer fd.Close()

	out := filepath.Join(t.TempDir(), "all.safetensors")
	var fracs []float64
	done := false
	var note string
	d.ExportAll(out, func(f float64) { fracs = append(fracs, f) }, func(n string, e error) { note, err, done = n, e, true })
	if !q.Drain(func() bool { return !done }, 60*time.Second) {
		t.Fatal("export did not finish")
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(fracs) == 0 || !slices.IsSorted(fracs) || fracs[len(fracs)-1] > 1 {
		t.Errorf("progress %v", fracs)
	}
	back, err := formats.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	var want []string
	for _, e := range fd.Tensors {
		if e.Role != formats.RoleDerived && e.HasData() {
			want = append(want, e.Name)
		}
	}
	var got []string
	for _, e := range back.Tensors {
		got = append(got, e.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("exported %d tensors %v\nwant %d %v (note %q)", len(got), got, len(want), want, note)
	}
	if !strings.Contains(note, "9 block-quantised tensors are written as float32") {
		t.Errorf("note %q", note)
	}
	ctx := context.Background()
	for _, name := range want {
		a, _ := fd.Tensor(name).Load(ctx)
		b, err := back.Tensor(name).Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ca, _ := tensor.ComputeStats(ctx, a, nil)
		cb, _ := tensor.ComputeStats(ctx, b, nil)
		wantType := a.DType()
		if wantType.BlockQuantized() {
			wantType = tensor.Float32 // dequantised, exactly: every ggml value is a float32
		}
		if b.DType() != wantType || ca != cb {
			t.Errorf("%s: %v %+v became %v %+v", name, a.DType(), ca, b.DType(), cb)
		}
	}
}

// Cancelling Export All leaves no file behind.
func TestDocExportAllCancelled(t *testing.T) {
	src := filepath.Join(samples.Dir(t, "gguf"), "quantized-llama.cpp", "synth-llama256-F32.gguf")
	fd, err := formats.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	q := NewQueue()
	d := newDoc(q.Post, fd, Source{Path: src})
	out := filepath.Join(t.TempDir(), "all.safetensors")
	task := d.ExportAll(out, nil, func(string, error) { t.Error("a cancelled export reported") })
	task.Cancel()
	q.Drain(func() bool { return !task.Finished() }, 10*time.Second)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a cancelled export left %s (%v)", out, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// An export never replaces the file it reads.
func TestExportRefusesTheInputFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.safetensors")
	x, _ := tensor.FromBytes(make([]byte, 8), tensor.Float32, []int{2})
	if _, err := ExportTensorAs(context.Background(), in, "x", x, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(in)
	fd, err := formats.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	if _, err := ExportAll(context.Background(), filepath.Join(dir, ".", "in.safetensors"), fd, nil); err == nil || !strings.Contains(err.Error(), "the file being read") {
		t.Errorf("export onto the input: %v", err)
	}
	q := NewQueue()
	d := newDoc(q.Post, fd, Source{Path: in})
	drain(t, q, d.Inspector)
	if _, err := d.ExportShown(in, nil); err == nil {
		t.Error("the shown tensor was exported onto its own file")
	}
	if after, _ := os.ReadFile(in); string(after) != string(before) {
		t.Error("the input changed")
	}
}
