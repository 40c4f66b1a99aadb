package all_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/samples"
)

// TestSniffingAcrossSamples checks that content sniffing tells the new
// formats from every other sample: safetensors has no magic number, so its
// rule (a plausible header length, then '{') must accept every safetensors
// sample and nothing else, and the NumPy rules likewise.
func TestSniffingAcrossSamples(t *testing.T) {
	root := samples.Dir(t, ".")
	ours := map[string]bool{"safetensors": true, "npy": true, "npz": true}
	checked := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".txt") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		want := ""
		switch {
		case strings.HasPrefix(rel, "safetensors/"):
			want = "safetensors"
		case strings.HasSuffix(p, "pytorch_model.bin.index.json"):
			// An index sniffs as one; the safetensors codec hands it to
			// the codec of its shards' content (pytorch).
			want = "safetensors"
		case strings.HasSuffix(p, ".npy"):
			want = "npy"
		case strings.HasSuffix(p, ".npz"):
			want = "npz"
		}
		for _, f := range formats.Formats() {
			if !ours[f.ID] {
				continue
			}
			if got := f.Sniff(data); got != (f.ID == want) {
				t.Errorf("%s: %s sniffing says %v", rel, f.ID, got)
			}
		}
		if want != "" {
			// No other codec may claim our files before we do.
			if f, err := formats.Detect(data); err != nil || f.ID != want {
				t.Errorf("%s: detected as %v (%v), want %s", rel, f, err, want)
			}
		}
		checked++
		return nil
	})
	if checked < 100 {
		t.Errorf("only %d samples checked", checked)
	}
}
