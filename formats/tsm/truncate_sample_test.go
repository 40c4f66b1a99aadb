package tsm

import (
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
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
}

// TestTruncationSampleCSTA cuts a real .csta at every byte of its first
// 4 KiB and then every 61st byte up to 64 KiB: each cut decrypts the
// whole prefix, so every byte would cost quadratic time (a minute under
// the race detector) for no new coverage.
func TestTruncationSampleCSTA(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(samples.Dir(t, "tsm"), "face_landmarker_pts5.csta"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 64<<10; n++ {
		if n >= 4<<10 && n%61 != 0 {
			continue
		}
		if _, err := formats.DecodeAs("csta", "cut", data[:n]); err == nil {
			t.Fatalf("prefix of %d bytes decoded", n)
		}
	}
}
