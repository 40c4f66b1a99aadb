package desktop

import (
	"bytes"
	"os"

	"testing"

	"tensorscope/internal/samples"
)

// pytorchSamples lists the PyTorch samples whose content the MIME
// database types: legacy checkpoints pickled with protocol 0, 1 or 2 (the
// magic rules' cases). Zip checkpoints and protocol 4/5 legacy files are
// known by name only (*.pt, *.pth, *.ckpt), which these tests, made for
// types that are either, do not check.
func pytorchSamples(t *testing.T) []sampleCase {
	t.Helper()
	var out []sampleCase
	for _, sub := range []string{"pytorch/burn", "pytorch/gopickle", "pytorch/pickle-jl", "pytorch/generated-torch-1.13"} {
		for _, p := range samples.Files(t, sub) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case bytes.HasPrefix(b, []byte("\x80\x02\x8a\x0a")), bytes.HasPrefix(b, []byte("L119547037146038801333356L\n")):
				out = append(out, sampleCase{p, "application/x-pytorch"})
			}
		}
	}
	return out
}
