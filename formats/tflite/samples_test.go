package tflite_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/tflite"
	"tensorscope/internal/samples"
)

// sampleFiles lists every file under the TFLite samples folder.
func sampleFiles(tb testing.TB) []string {
	tb.Helper()
	dir := samples.Dir(tb, "tflite")
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	if len(out) == 0 {
		tb.Fatalf("no files under %s", dir)
	}
	return out
}

// negative lists the samples SOURCES.md marks as meant to be refused.
var negative = map[string]string{"0_subgraphs.bin": "no subgraphs"}

func TestEverySampleOpens(t *testing.T) {
	for _, p := range sampleFiles(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			doc, err := formats.Open(p)
			if want, neg := negative[filepath.Base(p)]; neg {
				if err == nil {
					doc.Close()
					t.Fatalf("opened; expected an error saying %q", want)
				}
				if !strings.Contains(err.Error(), want) {
					t.Fatalf("error %q does not say %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.Format != "tflite" || doc.Graph == nil {
				t.Fatalf("format %q, graph %v", doc.Format, doc.Graph != nil)
			}
			for _, e := range doc.Tensors {
				if !e.HasData() {
					if !e.HasText() {
						t.Errorf("tensor %q has no data: %s", e.Name, e.Note)
					}
					continue
				}
				x, err := e.Load(context.Background())
				if err != nil {
					t.Errorf("tensor %q: %v", e.Name, err)
					continue
				}
				vals := make([]float64, min(x.Len(), 16))
				if err := x.ReadFloat64s(0, vals); err != nil {
					t.Errorf("tensor %q: %v", e.Name, err)
				}
			}
			if _, err := json.Marshal(doc); err != nil {
				t.Fatal(err)
			}
			for _, w := range doc.Warnings {
				t.Logf("warning: %s", w)
			}
		})
	}
}
