package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// tfliteSamples lists the TFLite samples named *.tflite (the .bin ones
// carry the same magic, but their name says octet-stream to a glob-first
// MIME implementation).
func tfliteSamples(t *testing.T) []sampleCase {
	t.Helper()
	var out []sampleCase
	filepath.WalkDir(samples.Dir(t, "tflite"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tflite") {
			out = append(out, sampleCase{p, "application/x-tflite"})
		}
		return err
	})
	return out
}
