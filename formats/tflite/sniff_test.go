package tflite_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/formats/tflite"
	"tensorscope/internal/samples"
)

// TestSniffingAcrossSamples checks that the TFLite rule (TFL3 at byte 4, a
// root offset inside the file) accepts every TFLite sample and no sample
// of another format, and that no codec claims a TFLite file first.
func TestSniffingAcrossSamples(t *testing.T) {
	root := samples.Dir(t, ".")
	checked := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return err
		}
		if st, err := d.Info(); err != nil || st.Size() > 64<<20 {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		want := strings.HasPrefix(rel, "tflite/")
		if got := tflite.Sniff(data); got != want {
			t.Errorf("%s: TFLite sniffing says %v", rel, got)
		}
		if want {
			if f, err := formats.Detect(data); err != nil || f.ID != "tflite" {
				t.Errorf("%s: detected as %v (%v), want tflite", rel, f, err)
			}
		}
		checked++
		return nil
	})
	if checked < 100 {
		t.Errorf("only %d samples checked", checked)
	}
}
