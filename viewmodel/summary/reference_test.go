package summary

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/samples"
	"tensorscope/internal/summaryref"
	"tensorscope/tensor"
)

// sampleFormats are the samples' folders of the formats registered.
var sampleFormats = []string{"gguf", "nn", "npy", "onnx", "safetensors", "tmfile", "tsm", "tsr"}

// maxSampleBytes bounds the samples compared, to keep the test short: the
// values of every tensor are dumped for NumPy.
const maxSampleBytes = 8 << 20

// Every figure, flag and block of the summary agrees with the NumPy
// reference on the samples of every format that open.
func TestReferenceOnSamples(t *testing.T) {
	summaryref.Require(t)
	type sample struct {
		name, dump string
		got        []byte
	}
	var all []sample
	for _, sub := range sampleFormats {
		dir := samples.Dir(t, sub)
		compared := 0
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if info, err := d.Info(); err != nil || info.Size() > maxSampleBytes {
				return nil
			}
			doc, err := formats.Open(path)
			if err != nil {
				return nil // not a model file, or a broken one kept on purpose
			}
			defer doc.Close()
			if len(Selected(doc)) == 0 {
				return nil
			}
			rel, _ := filepath.Rel(samples.Root(), path)
			m := New(doc)
			if err := m.Compute(context.Background(), doc, nil, nil); err != nil {
				t.Errorf("%s: %v", rel, err)
				return nil
			}
			got, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			dump := filepath.Join(t.TempDir(), "dump")
			os.Mkdir(dump, 0o755)
			dumpValues(t, doc, m, dump)
			all = append(all, sample{rel, dump, got})
			compared++
			return nil
		})
		if compared == 0 {
			t.Errorf("%s: no sample with tensors compared", sub)
		}
	}
	dumps := make([]string, len(all))
	for i, s := range all {
		dumps[i] = s.dump
	}
	for i, want := range summaryref.Run(t, dumps...) {
		summaryref.Compare(t, all[i].name, all[i].got, want)
	}
}

// dumpValues writes, for the reference script, a manifest and every
// summarised tensor's values as a flat .npy: float32 where the values are
// float32s (narrow floats, quantised blocks), float64 otherwise, complex
// tensors as magnitudes, as stats takes them.
func dumpValues(t *testing.T, doc *formats.Document, m *Model, dir string) {
	type entry struct {
		Name  string `json:"name"`
		DType string `json:"dtype"`
		Shape []int  `json:"shape"`
		Bytes int64  `json:"bytes"`
		File  string `json:"file"`
	}
	man := struct {
		Path    string  `json:"path"`
		Format  string  `json:"format"`
		Tensors []entry `json:"tensors"`
	}{Path: doc.Path, Format: doc.Format}
	ctx := context.Background()
	for i, st := range m.Tensors {
		e := doc.Tensor(st.Name)
		x, err := e.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		dt, shape := x.DType().String(), x.Shape()
		if x.DType().IsComplex() {
			if x, err = x.ComplexPart(tensor.Magnitude); err != nil {
				t.Fatal(err)
			}
		}
		file := fmt.Sprintf("t%d.npy", i)
		var data []byte
		descr := "<f4"
		switch {
		case x.DType() != tensor.Float32 && x.DType().Size() >= 4:
			descr = "<f8"
			data = make([]byte, 0, 8*x.Len())
			index := make([]int, x.Rank())
			for range x.Len() {
				v, err := x.Float64At(index)
				if err != nil {
					t.Fatal(err)
				}
				data = binary.LittleEndian.AppendUint64(data, math.Float64bits(v))
				for k := len(index) - 1; k >= 0; k-- {
					if index[k]++; index[k] < shape[k] {
						break
					}
					index[k] = 0
				}
			}
		default:
			f, err := x.ToFloat32(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if data, err = f.ContiguousBytes(ctx); err != nil {
				t.Fatal(err)
			}
		}
		writeNpy(t, filepath.Join(dir, file), descr, x.Len(), data)
		if shape == nil {
			shape = []int{}
		}
		man.Tensors = append(man.Tensors, entry{Name: st.Name, DType: dt, Shape: shape, Bytes: e.NBytes, File: file})
	}
	b, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeNpy writes a flat little-endian .npy (format 1.0).
func writeNpy(t *testing.T, path, descr string, n int, data []byte) {
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }", descr, n)
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	b = append(append(b, header...), data...)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
