package pytorch_test

import (
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"tensorscope/formats"
)

// BenchmarkOpen2000: open a 2,000-tensor checkpoint written by torch and
// write its info --json, in process (the whole-process numbers are in
// the root package's BenchmarkProcessInfoPyTorch2000).
func BenchmarkOpen2000(b *testing.B) {
	if err := exec.Command(torchPython, "-c", "import torch").Run(); err != nil {
		b.Skipf("python3-torch is missing: %v", err)
	}
	path := filepath.Join(b.TempDir(), "many.pt")
	prog := `
import sys, torch
sd = {}
for i in range(250):
    for j, shape in enumerate([(64, 64), (64,), (128, 64), (64, 128), (64,), (32, 3, 3, 3), (32,), (16, 16)]):
        sd['model.layers.%d.block%d.weight' % (i, j)] = torch.zeros(*shape)
torch.save({'model': sd, 'epoch': 3}, sys.argv[1])
`
	if out, err := exec.Command(torchPython, "-c", prog, path).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		doc, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := doc.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
		doc.Close()
	}
}
