package pytorch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// sampleFiles lists every sample checkpoint (not the index's shards).
func sampleFiles(t testing.TB) []string {
	var out []string
	for _, sub := range sampleDirs {
		out = append(out, samples.Files(t, sub)...)
	}
	return out
}

// TestSamplesOpen: every sample opens and every tensor loads; broken.pt
// (three bytes of text) fails cleanly.
func TestSamplesOpen(t *testing.T) {
	for _, p := range sampleFiles(t) {
		t.Run(strings.TrimPrefix(p, samples.Root()+"/"), func(t *testing.T) {
			doc, err := formats.Open(p)
			if strings.HasSuffix(p, "broken.pt") {
				if !errors.Is(err, formats.ErrUnknownFormat) {
					t.Fatalf("broken.pt: %v; want it refused as an unknown format", err)
				}
				// Read as a checkpoint regardless, it names the offset.
				b, _ := os.ReadFile(p)
				_, err = formats.DecodeAs("pytorch", p, b)
				var fe *formats.Error
				if !errors.As(err, &fe) || fe.Offset != 0 {
					t.Fatalf("broken.pt read as pytorch: %v; want an error at byte 0", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if want := "pytorch"; strings.Contains(p, "tch-rs") || strings.Contains(p, "djl") || strings.Contains(p, "torchscript") {
				if doc.Format != "torchscript" {
					t.Errorf("format %s, want torchscript", doc.Format)
				}
			} else if doc.Format != want {
				t.Errorf("format %s, want %s", doc.Format, want)
			}
			for _, e := range doc.Tensors {
				if _, err := e.Load(context.Background()); err != nil {
					t.Errorf("%s: %v", e.Name, err)
				}
			}
			if len(doc.Warnings) > 0 {
				t.Errorf("warnings: %v", doc.Warnings)
			}
		})
	}
}

// TestSharedStorage: tied weights both open, and each says which other
// names view its storage.
func TestSharedStorage(t *testing.T) {
	p := filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "shared_storage.pt")
	doc, err := formats.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	shares := func(name string) string {
		for _, a := range doc.Tensor(name).Attrs {
			if a.Name == "shares storage with" {
				return a.Value.(string)
			}
		}
		return ""
	}
	if got := shares("lm_head.weight"); got != "embed.weight" {
		t.Errorf("lm_head.weight shares storage with %q, want embed.weight", got)
	}
	if got := shares("embed.weight"); got != "lm_head.weight" {
		t.Errorf("embed.weight shares storage with %q, want lm_head.weight", got)
	}
	if got := shares("middle"); !strings.Contains(got, "base") {
		t.Errorf("middle shares storage with %q, want base among them", got)
	}
	a, _ := doc.Tensor("embed.weight").Load(context.Background())
	b, _ := doc.Tensor("lm_head.weight").Load(context.Background())
	if a == nil || b == nil || a.Storage() != b.Storage() || a.Offset() != b.Offset() {
		t.Error("tied weights are not one view of one storage")
	}
	if a.Storage().Bytes() == nil || &a.Storage().Bytes()[0] != &doc.Bytes()[doc.Tensor("embed.weight").Offset] {
		t.Error("a stored member is not viewed in place over the mapped file")
	}
}

// TestTruncated: every prefix of the small samples opens or fails with an
// error naming an offset, never panics, and allocates about the file.
func TestTruncated(t *testing.T) {
	for _, p := range sampleFiles(t) {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 16<<10 || strings.HasSuffix(p, ".json") {
			continue
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			for n := 1; n < len(b); n++ {
				checkDecode(t, "pytorch", b[:n])
			}
		})
	}
}

// checkDecode decodes b as id: no input may panic, every failure names a
// byte offset, decoding allocates at most a small multiple of the input,
// and whatever opens loads, or fails to load, cleanly.
func checkDecode(t *testing.T, id string, b []byte) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	doc, err := formats.DecodeAs(id, "fuzz", b)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(256*len(b))+8<<20 {
		t.Fatalf("decoding %d bytes allocated %d", len(b), grew)
	}
	if err != nil {
		var fe *formats.Error
		if !errors.As(err, &fe) {
			t.Fatalf("error without a byte offset: %v", err)
		}
		return
	}
	for _, e := range doc.Tensors {
		e.Load(context.Background())
	}
	if _, err := doc.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	doc.Close()
}

func FuzzDecode(f *testing.F) {
	for _, sub := range sampleDirs {
		samples.Seed(f, sub)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, "pytorch", b)
		checkDecode(t, "torchscript", b)
	})
}

// TestSniffClaimsNoOtherSample: no sample of another format sniffs as a
// PyTorch checkpoint or a TorchScript archive.
func TestSniffClaimsNoOtherSample(t *testing.T) {
	root := samples.Dir(t, ".")
	checked := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasPrefix(rel, "pytorch/") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, id := range []string{"pytorch", "torchscript"} {
			if formats.Lookup(id).Sniff(data) {
				t.Errorf("%s: %s sniffing claims it", rel, id)
			}
		}
		checked++
		return nil
	})
	if checked < 100 {
		t.Errorf("only %d samples checked", checked)
	}
}

// TestIndexMissingShard: an index whose shard is gone lists that shard's
// tensors without data, saying why, and the others with theirs; the
// first shard missing too, it is still told from a safetensors index by
// the next one's content.
func TestIndexMissingShard(t *testing.T) {
	for _, gone := range []string{"00002-of", "00001-of"} {
		t.Run(gone, func(t *testing.T) { indexMissingShard(t, gone) })
	}
}

func indexMissingShard(t *testing.T, gone string) {
	src := samples.Dir(t, "pytorch/generated-torch-1.13/sharded")
	dir := t.TempDir()
	entries, _ := os.ReadDir(src)
	for _, e := range entries {
		if strings.Contains(e.Name(), gone) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
	}
	doc, err := formats.Open(filepath.Join(dir, "pytorch_model.bin.index.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if doc.Format != "pytorch" || len(doc.Tensors) != 8 {
		t.Fatalf("format %s, %d tensors", doc.Format, len(doc.Tensors))
	}
	missing := 0
	for _, e := range doc.Tensors {
		shard := ""
		for _, a := range e.Attrs {
			if a.Name == "shard" {
				shard = a.Value.(string)
			}
		}
		if strings.Contains(shard, gone) {
			missing++
			if e.HasData() || !strings.Contains(e.Note, "missing") {
				t.Errorf("%s: has data %v, note %q", e.Name, e.HasData(), e.Note)
			}
		} else if _, err := e.Load(context.Background()); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
	if missing == 0 {
		t.Errorf("no tensor of the missing shard %s", gone)
	}
}

// TestMetadataLinksTensors: tensor leaves of the object tree name the
// document tensor they show.
func TestMetadataLinksTensors(t *testing.T) {
	cases := map[string][][2]string{
		"pytorch/generated-torch-1.13/checkpoint_adam.pt": {
			{"object/optimizer/state/0/exp_avg", "optimizer.state.0.exp_avg"},
			{"object/model/fc.weight", "model.fc.weight"},
		},
		"pytorch/generated-torch-1.13/torchscript_module.pt": {{"object/conv/weight", "conv.weight"}, {"object/offset", "offset"}},
		"pytorch/generated-torch-1.13/shared_storage.pt":     {{"object/lm_head.weight", "lm_head.weight"}},
		"pytorch/gopickle/tensor_float32_proto1.pt":          {{"object", "#0"}},
	}
	root := filepath.Dir(samples.Dir(t, "pytorch")) // skips (fails under CI=true) without the samples
	for file, want := range cases {
		doc, err := formats.Open(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			n := doc.Metadata
			for _, part := range strings.Split(w[0], "/") {
				n = n.Child(part)
				if n == nil {
					t.Fatalf("%s: no node %s", file, w[0])
				}
			}
			if n.Tensor != w[1] || doc.Tensor(w[1]) == nil {
				t.Errorf("%s: %s links to %q, want %q", file, w[0], n.Tensor, w[1])
			}
		}
		doc.Close()
	}
}

// TestTorchScriptCode: the code/ sources are shown as text, a table per
// file, and kept whole in the metadata tree.
func TestTorchScriptCode(t *testing.T) {
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "torchscript_module.pt"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if doc.Format != "torchscript" || len(doc.Tables) != 5 || doc.Tables[0].Title != "code/__torch__.py" {
		t.Fatalf("format %s, %d tables", doc.Format, len(doc.Tables))
	}
	if r := doc.Tables[0].Rows[0]; r[0] != "1" || r[1] != "class Scripted(Module):" {
		t.Errorf("first line %v", r)
	}
	code := doc.Metadata.Child("code").Child("__torch__.py")
	if s, _ := code.Value.(string); !strings.Contains(s, `__buffers__ = ["scale", ]`) {
		t.Errorf("the tree's code node holds %q", s)
	}
}
