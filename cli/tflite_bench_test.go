//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats/tflite/tflitetest"
)

// BenchmarkProcessInfoTFLite1G: `tensorscope info --json` of a 1 GB TFLite
// model with inline buffers (gentflite -weights 960), whole process, as
// users run it (issue 26: ≤ 50 ms, no tensor data read).
func BenchmarkProcessInfoTFLite1G(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big1g.tflite")
	if err := os.WriteFile(path, tflitetest.Heavy(960).Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	processRun(b, "info", "--json", path) // the header pages into the page cache
	benchProcess(b, 0, "info", "--json", path)
}
