//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// PyTorch checkpoints against python3-torch (issue 22): both benchmarks
// write their checkpoint with torch, run the whole tensorscope process on
// it, and report beside it what torch itself takes for the same work,
// timed inside Python (torch's import, about a second, left out).

const torchBenchPython = "/usr/bin/python3"

func needTorchBench(b *testing.B) {
	if err := exec.Command(torchBenchPython, "-c", "import torch").Run(); err != nil {
		b.Skipf("%s cannot import torch (%v): install python3-torch", torchBenchPython, err)
	}
}

// torchSeconds runs a Python program printing one number of seconds.
func torchSeconds(b *testing.B, prog string, args ...string) float64 {
	out, err := exec.Command(torchBenchPython, append([]string{"-c", prog}, args...)...).Output()
	if err != nil {
		b.Fatalf("python: %v", err)
	}
	s, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatalf("python printed %q", out)
	}
	return s
}

const writeManyTensors = `
import sys, torch
torch.manual_seed(0)
sd = {}
for i in range(250):
    for j, shape in enumerate([(64, 64), (64,), (128, 64), (64, 128), (64,), (32, 3, 3, 3), (32,), (16, 16)]):
        sd['model.layers.%d.block%d.weight' % (i, j)] = torch.randn(*shape)
torch.save({'model': sd, 'epoch': 3}, sys.argv[1])
`

const torchLoadAndList = `
import sys, time, torch
t0 = time.perf_counter()
ck = torch.load(sys.argv[1], weights_only=True)
rows = []
def walk(v, p):
    if isinstance(v, torch.Tensor):
        rows.append((p, str(v.dtype), tuple(v.shape))); return
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, p + '.' + str(k) if p else str(k))
walk(ck, '')
assert len(rows) == 2000
print(time.perf_counter() - t0)
`

// BenchmarkProcessInfoPyTorch2000: `tensorscope info --json` of a
// 2,000-tensor checkpoint (32 MB), whole process; torch-s is
// torch.load(weights_only=True) plus listing names, dtypes and shapes.
func BenchmarkProcessInfoPyTorch2000(b *testing.B) {
	needTorchBench(b)
	path := filepath.Join(b.TempDir(), "many.pt")
	if out, err := exec.Command(torchBenchPython, "-c", writeManyTensors, path).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	readBackFromDisk(b, path)
	processRun(b, "info", "--json", path) // into the page cache
	torch := torchSeconds(b, torchLoadAndList, path)
	benchProcess(b, 0, "info", "--json", path)
	b.ReportMetric(torch*1000, "torch-ms")
}

const writeGiB = `
import sys, torch
torch.manual_seed(0)
torch.save({'layer%d.weight' % i: torch.randn(4096, 4096) for i in range(16)}, sys.argv[1])
`

const torchLoadAndStats = `
import sys, time, torch
t0 = time.perf_counter()
ck = torch.load(sys.argv[1], weights_only=True)
for k, v in ck.items():
    s = (v.min().item(), v.max().item(), v.mean().item(), v.std().item())
print(time.perf_counter() - t0)
`

// BenchmarkProcessStatsPyTorch1GiB: `tensorscope stats --json` of a
// page-cached 1 GiB float32 checkpoint (16 tensors of 64 MiB), whole
// process; torch-s is torch.load plus min/max/mean/std of each tensor.
func BenchmarkProcessStatsPyTorch1GiB(b *testing.B) {
	needTorchBench(b)
	path := filepath.Join(b.TempDir(), "gib.pt")
	if out, err := exec.Command(torchBenchPython, "-c", writeGiB, path).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	readBackFromDisk(b, path)
	processRun(b, "stats", "--json", path) // into the page cache
	torch := torchSeconds(b, torchLoadAndStats, path)
	benchProcess(b, 1<<30, "stats", "--json", path)
	b.ReportMetric(torch*1000, "torch-ms")
}

// readBackFromDisk drops a file the benchmark just wrote from the page
// cache, so that it is read back as a checkpoint on disk is: torch.save
// writes in small pieces, and Linux keeps a freshly written file in small
// page-cache folios, which cost several times more to map than the large
// ones readahead makes (see "How a file was written changes how fast it
// is read" in docs/PERFORMANCE.md): `info --json` of the 2,000-tensor
// checkpoint the moment torch has written it takes about 15% longer.
func readBackFromDisk(b *testing.B, path string) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		b.Fatal(err)
	}
}
