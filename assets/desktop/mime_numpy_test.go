package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// globOnly are the types known by name alone: their files have no magic a
// fixed-offset rule can match, so a renamed copy is nobody's.
var globOnly = map[string]bool{
	"application/x-tengine-tmfile":    true,
	"application/x-onnx":              true,
	"application/x-npz":               true,
	"application/x-safetensors":       true,
	"application/x-safetensors-index": true,
}

// numpyAndSafetensorsSamples lists the NumPy and safetensors samples with
// their types, by extension (object arrays and the header that lies about
// its length included: the type is the file's, readable or not).
func numpyAndSafetensorsSamples(t *testing.T) []sampleCase {
	t.Helper()
	var out []sampleCase
	for _, sub := range []string{"npy", "safetensors"} {
		filepath.WalkDir(samples.Dir(t, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch {
			case strings.HasSuffix(p, ".npy"):
				out = append(out, sampleCase{p, "application/x-npy"})
			case strings.HasSuffix(p, ".npz"):
				out = append(out, sampleCase{p, "application/x-npz"})
			case strings.HasSuffix(p, ".safetensors"):
				out = append(out, sampleCase{p, "application/x-safetensors"})
			case strings.HasSuffix(p, ".safetensors.index.json"):
				out = append(out, sampleCase{p, "application/x-safetensors-index"})
			}
			return nil
		})
	}
	return out
}
