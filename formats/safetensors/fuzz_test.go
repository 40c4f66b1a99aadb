package safetensors_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
)

// FuzzDecodeSafetensors decodes arbitrary bytes as safetensors: no input may
// panic, every failure is an error naming a byte offset, and decoding
// allocates no more than a small multiple of the input.
func FuzzDecodeSafetensors(f *testing.F) {
	if dir := samples.Root() + "/safetensors"; dirExists(dir) {
		for _, p := range walk(dir) {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 { // small seeds mutate and run fast
				f.Add(b)
			}
		}
	}
	f.Add(file(`{"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}`, make([]byte, 2)))
	f.Add(file(`{"__metadata__":{"k":"v"},"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}}`, make([]byte, 4)))
	f.Fuzz(fuzzBody)
}

// fuzzBody is one fuzzing run over b.
func fuzzBody(t *testing.T, b []byte) {
	{
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		doc, err := formats.DecodeAs("safetensors", "fuzz", b)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(64*len(b))+1<<20 {
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
			if x, err := e.Load(context.Background()); err == nil && int64(x.Len()*x.DType().Size()) != e.NBytes {
				t.Fatalf("%s: loaded %s for %d bytes", e.Name, x, e.NBytes)
			}
		}
		if _, err := doc.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func walk(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := dir + "/" + e.Name()
		if e.IsDir() {
			out = append(out, walk(p)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}
