package pytorch_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/all"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

const torchPython = "/usr/bin/python3"

// needTorch skips the test when python3-torch is missing, and fails it
// under CI=true.
func needTorch(t *testing.T) {
	t.Helper()
	if err := exec.Command(torchPython, "-c", "import torch").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot import torch (%v), and CI=true requires it: install python3-torch", torchPython, err)
		}
		t.Skipf("%s cannot import torch (%v): install python3-torch to compare with torch", torchPython, err)
	}
}

// writeReferenceFiles writes the test checkpoints with torch into dir.
const writeReferenceFiles = `
import sys, os, json, zipfile, torch
torch.manual_seed(7)
out = sys.argv[1]
p = lambda n: os.path.join(out, n)
f = torch.tensor([float('nan'), float('inf'), -float('inf'), -0.0, 1e-42, 3.4e38, -3.4e38, 0.5])
dtypes = {
  'f32': f.clone(), 'f16': torch.tensor([float('nan'), float('inf'), -0.0, 6e-8, 65504.0, 1.5], dtype=torch.float16),
  'bf16': torch.tensor([float('nan'), -float('inf'), 1e38, -2.5], dtype=torch.bfloat16),
  'f64': torch.tensor([1e300, -1e-300, float('nan'), 2.0], dtype=torch.float64).reshape(2, 2),
  'i8': torch.tensor([-128, 127, 0, -1], dtype=torch.int8), 'u8': torch.tensor([0, 255, 7], dtype=torch.uint8),
  'i16': torch.tensor([-32768, 32767], dtype=torch.int16), 'i32': torch.tensor([[-2**31, 2**31-1]], dtype=torch.int32),
  'i64': torch.tensor([-2**63, 2**63-1, 5], dtype=torch.int64), 'bool': torch.tensor([True, False, True]),
  'c64': torch.tensor([1+2j, -3.5j], dtype=torch.complex64), 'c128': torch.tensor([[1e200-1j]], dtype=torch.complex128),
  'scalar': torch.tensor(2.5), 'empty': torch.zeros(0, 3),
}
torch.save(dtypes, p('dtypes.pt'))
torch.save(dtypes, p('dtypes_legacy.pt'), _use_new_zipfile_serialization=False)
m = torch.arange(35, dtype=torch.float32).reshape(5, 7)
base = torch.randn(24)
views = {'matrix': m, 'transposed': m.t(), 'column': m[:, 3], 'stepped': m[::2, 1::3], 'narrow': m.t()[2:5, 1:4],
         'permuted': torch.randn(2, 3, 4, 5).permute(3, 1, 0, 2), 'expanded': torch.tensor([1.5, 2.5, 3.5]).expand(4, 3),
         'scalar_view': m[2, 3], 'base': base, 'second_half': base[12:], 'as_matrix': base.view(4, 6)}
emb = torch.nn.Parameter(torch.randn(10, 4))
views['embed.weight'] = emb
views['lm_head.weight'] = emb
torch.save(views, p('views.pt'))
torch.save(views, p('views_legacy.pt'), _use_new_zipfile_serialization=False)
torch.save(torch.randn(3, 2).t(), p('bare.pt'))
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4 * 4 * 4, 3)
        self.register_buffer('scale', torch.tensor([2.0, 3.0]))
        self.offset = torch.tensor([1.0, -1.0])
    def forward(self, x):
        y = self.bn(self.conv(x)).flatten(1)
        return self.fc(y) * self.scale[0] + self.offset.sum()
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for _ in range(2):
    opt.zero_grad()
    net(torch.randn(2, 1, 6, 6)).pow(2).sum().backward()
    opt.step()
import numpy as np
torch.save({'model': net.state_dict(), 'optimizer': opt.state_dict(), 'epoch': 2, 'best': np.float64(0.25),
            'steps': np.int64(9), 'hist': np.arange(4, dtype=np.int32), 'config': {'lr': 1e-3, 'layers': [1, 2], 'name': 'x'}},
           p('checkpoint.pt'))
torch.jit.save(torch.jit.script(net.eval()), p('scripted.pt'))
# Whole modules (pickled by class, with legacy source records): read inertly.
torch.save(net, p('whole_model.pt'))
torch.save(net, p('whole_model_legacy.pt'), _use_new_zipfile_serialization=False)
x = torch.randn(3, 4)
q = {'per_tensor_u8': torch.quantize_per_tensor(x, 0.05, 3, torch.quint8),
     'per_tensor_i8': torch.quantize_per_tensor(x, 0.02, -2, torch.qint8),
     'per_tensor_i32': torch.quantize_per_tensor(x, 0.001, 0, torch.qint32),
     'per_channel_i8': torch.quantize_per_channel(x, torch.tensor([0.01, 0.02, 0.03]), torch.tensor([0, 1, -1]), 0, torch.qint8),
     'per_channel_u8': torch.quantize_per_channel(x, torch.tensor([0.01, 0.02, 0.03, 0.04]), torch.tensor([0, 1, 2, 3]), 1, torch.quint8)}
torch.save(q, p('quantised.pt'))
# A renamed archive folder: torch names it after the file; re-zip under "model/".
torch.save({'w': torch.arange(6.).reshape(2, 3)}, p('tmp.pt'))
zin = zipfile.ZipFile(p('tmp.pt'))
with zipfile.ZipFile(p('renamed.pt'), 'w', zipfile.ZIP_STORED) as zout:
    for i in zin.infolist():
        zout.writestr('model/' + i.filename.split('/', 1)[1], zin.read(i.filename))
with zipfile.ZipFile(p('deflated.pt'), 'w', zipfile.ZIP_DEFLATED) as zout:
    for i in zin.infolist():
        zout.writestr('other_name/' + i.filename.split('/', 1)[1], zin.read(i.filename))
os.remove(p('tmp.pt'))
# A 3-shard Hugging Face index.
sd = {'a.weight': torch.randn(4, 4), 'b.weight': torch.randn(2, 3).to(torch.bfloat16), 'c.bias': torch.randn(5),
      'd.weight': torch.randn(3, 3).t(), 'e.bias': torch.arange(4)}
os.mkdir(p('sharded'))
shards = [['a.weight', 'b.weight'], ['c.bias'], ['d.weight', 'e.bias']]
wm = {}
for i, names in enumerate(shards):
    fn = 'pytorch_model-%05d-of-00003.bin' % (i + 1)
    torch.save({n: sd[n] for n in names}, os.path.join(out, 'sharded', fn))
    for n in names: wm[n] = fn
order = ['e.bias', 'a.weight', 'c.bias', 'b.weight', 'd.weight']
json.dump({'metadata': {'total_size': 123}, 'weight_map': {n: wm[n] for n in order}}, open(os.path.join(out, 'sharded', 'pytorch_model.bin.index.json'), 'w'), indent=2)
`

// readWithTorch prints, for each file, its tensors as torch reads them:
// name (key paths joined with "."), dtype, shape and the bytes of the
// values in row-major order (quantised tensors: the integers, and their
// quantisation parameters).
const readWithTorch = `
import sys, json, torch
def walk(v, path, out):
    if isinstance(v, torch.Tensor):
        out.append((path if path else '#0', v)); return
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, (path + '.' if path else '') + str(k), out)
    elif isinstance(v, (list, tuple)):
        for i, x in enumerate(v): walk(x, (path + '.' if path else '') + str(i), out)
names = {torch.float32: 'float32', torch.float16: 'float16', torch.bfloat16: 'bfloat16', torch.float64: 'float64',
         torch.int8: 'int8', torch.uint8: 'uint8', torch.int16: 'int16', torch.int32: 'int32', torch.int64: 'int64',
         torch.bool: 'bool', torch.complex64: 'complex64', torch.complex128: 'complex128',
         torch.qint8: 'qint8', torch.quint8: 'quint8', torch.qint32: 'qint32'}
res = {}
for path in sys.argv[1:]:
    tensors = []
    if path.endswith('.json'):
        import os
        ix = json.load(open(path))
        loaded = {}
        for n, f in ix['weight_map'].items():
            if f not in loaded: loaded[f] = torch.load(os.path.join(os.path.dirname(path), f), map_location='cpu')
            tensors.append((n, loaded[f][n]))
    else:
        try:
            obj = torch.jit.load(path, map_location='cpu').state_dict()
        except Exception:
            obj = torch.load(path, map_location='cpu')
        walk(obj, '', tensors)
    rows = []
    for n, t in tensors:
        row = {'name': n, 'dtype': names[t.dtype], 'shape': list(t.shape)}
        if t.is_quantized:
            row['quant'] = str(t.qscheme())
            if t.qscheme() == torch.per_tensor_affine:
                row['scales'] = [t.q_scale()]; row['zero_points'] = [t.q_zero_point()]
            else:
                row['scales'] = t.q_per_channel_scales().tolist(); row['zero_points'] = t.q_per_channel_zero_points().tolist()
                row['axis'] = t.q_per_channel_axis()
            row['dequantised'] = t.dequantize().flatten().tolist()
            t = t.int_repr()
        c = t.detach().contiguous()
        if c.dtype in (torch.bfloat16, torch.float16): c = c.view(torch.int16)
        if c.dtype == torch.bool: c = c.to(torch.uint8)
        if c.is_complex(): c = torch.view_as_real(c)
        row['hex'] = c.numpy().tobytes().hex()
        rows.append(row)
    res[path] = rows
print(json.dumps(res))
`

type torchRow struct {
	Name       string    `json:"name"`
	DType      string    `json:"dtype"`
	Shape      []int     `json:"shape"`
	Hex        string    `json:"hex"`
	Quant      string    `json:"quant"`
	Scales     []float64 `json:"scales"`
	ZeroPoints []int64   `json:"zero_points"`
	Axis       int       `json:"axis"`
	Deq        []float64 `json:"dequantised"`
}

// referenceDir writes the reference checkpoints once per test binary.
func referenceDir(t *testing.T) string {
	t.Helper()
	needTorch(t)
	dir := t.TempDir()
	// torch.jit.script reads the module's source: the script is a file.
	script := filepath.Join(t.TempDir(), "write_reference.py")
	if err := os.WriteFile(script, []byte(writeReferenceFiles), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(torchPython, script, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing the reference files with torch: %v\n%s", err, out)
	}
	return dir
}

func torchRows(t *testing.T, files []string) map[string][]torchRow {
	t.Helper()
	cmd := exec.Command(torchPython, append([]string{"-c", readWithTorch}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reading with torch: %v\n%s", err, stderr.String())
	}
	var res map[string][]torchRow
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// storedBytes are the tensor's elements in row-major order, as stored.
func storedBytes(t *testing.T, e *formats.TensorEntry) []byte {
	t.Helper()
	v, err := e.Load(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	var buf bytes.Buffer
	if err := formats.TensorChunks(v, func(c []byte) error { buf.Write(c); return nil }); err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	return buf.Bytes()
}

// compareWithTorch checks that the document lists the tensors torch
// gives, in its order, with the same dtypes, shapes and bytes.
func compareWithTorch(t *testing.T, path string, rows []torchRow) {
	t.Helper()
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer doc.Close()
	if len(doc.Tensors) < len(rows) {
		t.Fatalf("%s: %d tensors, torch lists %d", path, len(doc.Tensors), len(rows))
	}
	for i, r := range rows {
		e := doc.Tensors[i]
		if e.Name != r.Name {
			t.Errorf("%s: tensor %d is %q, torch says %q", filepath.Base(path), i, e.Name, r.Name)
			continue
		}
		if e.TypeString() != r.DType {
			t.Errorf("%s: %s: dtype %s, torch %s", filepath.Base(path), r.Name, e.TypeString(), r.DType)
		}
		if !equalInts(e.Shape, r.Shape) {
			t.Errorf("%s: %s: shape %v, torch %v", filepath.Base(path), r.Name, e.Shape, r.Shape)
		}
		if got := hex.EncodeToString(storedBytes(t, e)); got != r.Hex {
			t.Errorf("%s: %s: values differ from torch's\n got %.120s\nwant %.120s", filepath.Base(path), r.Name, got, r.Hex)
		}
		if r.Quant != "" {
			q := e.Quant
			if q == nil {
				t.Errorf("%s: %s: no quantisation, torch says %s", filepath.Base(path), r.Name, r.Quant)
				continue
			}
			if !closeFloats(q.Scales, r.Scales) || !equalInt64s(q.ZeroPoints, r.ZeroPoints) || (len(r.Scales) > 1 && q.Axis != r.Axis) {
				t.Errorf("%s: %s: quantisation %v %v axis %d, torch %v %v axis %d", filepath.Base(path), r.Name, q.Scales, q.ZeroPoints, q.Axis, r.Scales, r.ZeroPoints, r.Axis)
			}
			// The inspector's Dequantised toggle: tensor.Dequantize with
			// these parameters gives torch's dequantize().
			raw, err := e.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			deq, err := tensor.Dequantize(context.Background(), raw, q.Scales, q.ZeroPoints, q.Axis)
			if err != nil {
				t.Fatalf("%s: dequantise: %v", r.Name, err)
			}
			got := make([]float64, deq.Len())
			if err := deq.ReadFloat64s(0, got); err != nil {
				t.Fatal(err)
			}
			if !closeFloatsTol(got, r.Deq, 1e-6) {
				t.Errorf("%s: %s: dequantised %v, torch %v", filepath.Base(path), r.Name, got, r.Deq)
			}
		}
	}
	for _, e := range doc.Tensors[len(rows):] {
		if e.Role != formats.RoleConstant {
			t.Errorf("%s: %s is listed beyond torch's tensors without being marked a constant", filepath.Base(path), e.Name)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalInt64s(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func closeFloatsTol(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

func closeFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestAgreesWithTorch writes checkpoints with torch (every dtype, both
// containers, TorchScript, shared and strided storages, an Adam
// checkpoint, quantised tensors, a renamed and a deflated archive, a
// 3-shard index) and reads them back both ways.
func TestAgreesWithTorch(t *testing.T) {
	dir := referenceDir(t)
	files := []string{"dtypes.pt", "dtypes_legacy.pt", "views.pt", "views_legacy.pt", "bare.pt", "checkpoint.pt",
		"scripted.pt", "quantised.pt", "renamed.pt", "deflated.pt", "sharded/pytorch_model.bin.index.json"}
	for i := range files {
		files[i] = filepath.Join(dir, files[i])
	}
	ref := torchRows(t, files)
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, dir+"/"), func(t *testing.T) { compareWithTorch(t, f, ref[f]) })
	}
	// A whole nn.Module (its class never imported): the tensors are found
	// under their attribute paths and hold what the state_dict holds.
	for _, name := range []string{"whole_model.pt", "whole_model_legacy.pt"} {
		doc, err := formats.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e := doc.Tensor("_modules.fc._parameters.weight")
		if e == nil || !equalInts(e.Shape, []int{3, 64}) || len(doc.Warnings) > 0 {
			t.Errorf("%s: tensors %v, warnings %v", name, doc.Tensors, doc.Warnings)
		} else if !bytes.Equal(storedBytes(t, e), storedBytes(t, mustOpen(t, filepath.Join(dir, "checkpoint.pt")).Tensor("model.fc.weight"))) {
			t.Errorf("%s: fc.weight differs from the state_dict's", name)
		}
		if meta, _ := doc.Metadata.MarshalJSON(); !strings.Contains(string(meta), "object of class") {
			t.Errorf("%s: the module is not shown as an inert object", name)
		}
		doc.Close()
	}
}

func mustOpen(t *testing.T, path string) *formats.Document {
	t.Helper()
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

// TestSamplesAgreeWithTorch reads every sample checkpoint both ways.
func TestSamplesAgreeWithTorch(t *testing.T) {
	needTorch(t)
	var files []string
	for _, sub := range sampleDirs {
		for _, p := range samples.Files(t, sub) {
			if strings.HasSuffix(p, "broken.pt") || strings.Contains(p, "-of-") {
				continue
			}
			files = append(files, p)
		}
	}
	sort.Strings(files)
	ref := torchRows(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { compareWithTorch(t, f, ref[f]) })
	}
}

var sampleDirs = []string{"pytorch/burn", "pytorch/candle", "pytorch/djl", "pytorch/generated-torch-1.13",
	"pytorch/generated-torch-1.13/sharded", "pytorch/gopickle", "pytorch/pickle-jl", "pytorch/tch-rs"}
