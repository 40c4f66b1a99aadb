package tsm

import (
	"os"
	"path/filepath"
	"testing"

	"tensorscope/internal/samples"
)

// TestTruncationSamples cuts the frontend's two generated modules at every
// byte, and a real model (plain and wrapped) within its first 64 KiB.
func TestTruncationSamples(t *testing.T) {
	dir := samples.Dir(t, "tsm")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, name := range []string{"tennis_frontend_generated_small.tsm", "tennis_frontend_generated_packed.tsm"} {
		data := read(name)
		truncations(t, "tsm", data, len(data), len(data))
	}
	real := read("face_landmarker_pts5.tsm")
	truncations(t, "tsm", real, 64<<10, len(real))
	if testing.Short() {
		return
	}
	wrapped := read("face_landmarker_pts5.csta")
	truncations(t, "csta", wrapped, 64<<10, len(wrapped)-16)
}
