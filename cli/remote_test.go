package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/formats/gguf"
	"tensorscope/internal/remote"
	"tensorscope/internal/remote/remotetest"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// remoteSamples are the sample files that must read the same over HTTP as
// from disk: one of each format and multi-file layout that works remotely.
var remoteSamples = []string{
	"safetensors/FluxML-SafeTensors.jl/non_sharded/model.safetensors",
	"safetensors/FluxML-SafeTensors.jl/sharded/model.safetensors.index.json",
	"gguf/models/stories260K.gguf",
	"gguf/quantized-llama.cpp/synth-llama256-Q4_K_M.gguf",
	"gguf/quantized-llama.cpp/split/synth-llama256-IQ1_S-00001-of-00002.gguf",
	"npy/npyio/data_float64_2x3x4_corder.npy",
	"npy/generated-numpy-1.24.2/bundle_stored.npz",
	"npy/generated-numpy-1.24.2/bundle_compressed.npz",
	"onnx/torchvision-export/squeezenet1_1_opset13_extdata.onnx",
	"pytorch/generated-torch-1.13/sharded/pytorch_model.bin.index.json",
	"pytorch/pickle-jl/strides.bin",
	"tmfile/tengine_mnist.tmfile",
}

func runOut(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb, noViewer)
	return out.String(), errb.String(), code
}

// sameJSON compares two JSON documents after replacing, in the remote
// one, the server's address by the samples folder.
func sameJSON(t *testing.T, name, local, remoteOut, url, dir string) {
	t.Helper()
	remoteOut = strings.ReplaceAll(remoteOut, url, dir)
	var a, b any
	if err := json.Unmarshal([]byte(local), &a); err != nil {
		t.Fatalf("%s: local JSON: %v", name, err)
	}
	if err := json.Unmarshal([]byte(remoteOut), &b); err != nil {
		t.Fatalf("%s: remote JSON: %v", name, err)
	}
	ja, _ := json.MarshalIndent(a, "", " ")
	jb, _ := json.MarshalIndent(b, "", " ")
	if !bytes.Equal(ja, jb) {
		la, lb := strings.Split(string(ja), "\n"), strings.Split(string(jb), "\n")
		for i := range min(len(la), len(lb)) {
			if la[i] != lb[i] {
				t.Errorf("%s: remote info --json differs at line %d:\nlocal  %s\nremote %s", name, i+1, la[i], lb[i])
				return
			}
		}
		t.Errorf("%s: remote info --json differs in length (%d, %d lines)", name, len(la), len(lb))
	}
}

func TestRemoteSamplesReadAsLocal(t *testing.T) {
	samples.Dir(t, "safetensors")
	dir := samples.Root()
	s := remotetest.New(dir)
	defer s.Close()
	defer formats.SetRemoteCache("1G")
	for _, name := range remoteSamples {
		t.Run(filepath.Base(name), func(t *testing.T) {
			local := filepath.Join(dir, name)
			url := s.URLOf(name)
			lout, lerr, lcode := runOut(t, "info", "--json", local)
			rout, rerr, rcode := runOut(t, "info", "--json", url)
			if lcode != 0 {
				t.Skipf("the sample does not open locally: %s", lerr)
			}
			if rcode != 0 {
				t.Fatalf("remote info: status %d: %s", rcode, rerr)
			}
			sameJSON(t, name, lout, rout, s.URL, dir)

			lout, lerr, lcode = runOut(t, "stats", "--json", local)
			rout, rerr, rcode = runOut(t, "stats", "--json", url)
			if lcode != rcode || strings.ReplaceAll(rerr, s.URL, dir) != lerr {
				t.Fatalf("stats: local %d %q, remote %d %q", lcode, lerr, rcode, rerr)
			}
			if lout != rout {
				t.Errorf("stats --json differ:\nlocal  %.300s\nremote %.300s", lout, rout)
			}
			// Through a 2 MiB cache: a tensor that does not fit beside
			// the header (squeezenet's classifier, in its external data)
			// is read in pieces.
			rout, rerr, rcode = runOut(t, "stats", "--json", "--remote-cache", "2M", url)
			formats.SetRemoteCache("1G")
			if rcode != lcode || rout != lout {
				t.Errorf("stats --json through a 2 MiB cache: status %d %s\nlocal  %.300s\nremote %.300s", rcode, rerr, lout, rout)
			}
		})
	}
}

// Opening reads headers only: info of a 40 MB safetensors file transfers
// its header (one or two requests), and one tensor's stats that tensor's
// bytes besides.
func TestRemoteTransfersOnlyWhatIsRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.safetensors")
	writeSafetensors(t, path, 10, 1<<20) // ten float32 tensors of 4 MiB
	s := remotetest.New(dir)
	defer s.Close()
	url := s.URLOf("big.safetensors")

	s.ResetTraffic()
	if _, errs, code := runOut(t, "info", "--json", url); code != 0 {
		t.Fatal(errs)
	}
	s.Settle()
	reqs, sent := s.Traffic()
	if reqs > 2 || sent > remote.BlockSize {
		t.Errorf("info: %d requests, %d bytes; want at most 2 requests and one block", reqs, sent)
	}

	s.ResetTraffic()
	if _, errs, code := runOut(t, "stats", url, "t3"); code != 0 {
		t.Fatal(errs)
	}
	s.Settle()
	_, sent = s.Traffic()
	if sent < 4<<20 || sent > 4<<20+3*remote.BlockSize {
		t.Errorf("stats of one 4 MiB tensor transferred %d bytes", sent)
	}
}

// A server that goes away mid-read gives a clear error, never numbers.
func TestRemoteStatsOfChangedFileFails(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "m.safetensors"), 2, 1<<20)
	s := remotetest.New(dir)
	defer s.Close()
	s.Faults.ChangeAfter = 2
	out, errs, code := runOut(t, "stats", s.URLOf("m.safetensors"), "t1")
	if code == 0 || out != "" || !strings.Contains(errs, "changed on the server") {
		t.Fatalf("status %d, stdout %q, stderr %q", code, out, errs)
	}
}

// writeSafetensors writes n float32 tensors t0…t(n-1) of elems elements
// each, of values i·0.5 + k.
func writeSafetensors(t testing.TB, path string, n, elems int) {
	t.Helper()
	hdr := map[string]any{}
	for k := range n {
		hdr[fmt.Sprintf("t%d", k)] = map[string]any{"dtype": "F32", "shape": []int{elems / 1024, 1024},
			"data_offsets": []int{k * elems * 4, (k + 1) * elems * 4}}
	}
	h, _ := json.Marshal(hdr)
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	buf := make([]byte, 8+len(h)+n*elems*4)
	binary.LittleEndian.PutUint64(buf, uint64(len(h)))
	copy(buf[8:], h)
	data := buf[8+len(h):]
	for k := range n {
		for i := range elems {
			binary.LittleEndian.PutUint32(data[(k*elems+i)*4:], math.Float32bits(float32(i)*0.5+float32(k)))
		}
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A header larger than the first block faults its way in (64 KiB, then
// 256 KiB, then 1 MiB a request) and reads as locally.
func TestRemoteLargeHeaderFaultsIn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "many.safetensors")
	writeSafetensors(t, path, 6000, 1024) // a header of about 500 KB
	s := remotetest.New(dir)
	defer s.Close()
	lout, lerr, code := runOut(t, "info", "--json", path)
	if code != 0 {
		t.Fatal(lerr)
	}
	s.ResetTraffic()
	rout, rerr, code := runOut(t, "info", "--json", s.URLOf("many.safetensors"))
	if code != 0 {
		t.Fatal(rerr)
	}
	sameJSON(t, "many.safetensors", lout, rout, s.URL, dir)
	reqs, sent := s.Traffic()
	if reqs > 5 || sent > 2<<20 {
		t.Errorf("a 500 KB header took %d requests, %d bytes", reqs, sent)
	}
}

// Every headless command takes a URL.
func TestRemoteEveryCommand(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "a.safetensors"), 2, 4096)
	s := remotetest.New(dir)
	defer s.Close()
	url := s.URLOf("a.safetensors")
	out := t.TempDir()
	for _, args := range [][]string{
		{"info", url},
		{"stats", url},
		{"summary", url},
		{"diff", url, filepath.Join(dir, "a.safetensors")},
		{"export", url, "--tensor", "t1", "--out", filepath.Join(out, "t1.npy")},
		{"render", url, "--view", "heatmap", "--tensor", "t1", "--out", filepath.Join(out, "t1.png")},
	} {
		if _, errs, code := runOut(t, args...); code != 0 {
			t.Errorf("%s: status %d: %s", args[0], code, errs)
		}
	}
}

// A tensor loaded by a holder stays fetched until the holder releases the
// document: the cache refuses what does not fit beside it rather than
// dropping it, and takes it once the holder is done.
func TestRemoteCacheKeepsWhatAHolderUses(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "m.safetensors"), 2, 1<<20) // two 4 MiB tensors
	_, doc := openServed(t, dir, "m.safetensors")
	if err := formats.SetRemoteCache("6M"); err != nil {
		t.Fatal(err)
	}
	defer formats.SetRemoteCache("1G")
	ctx, release, err := doc.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t0, err := doc.Tensor("t0").Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.Tensor("t1").Load(ctx); err == nil || !strings.Contains(err.Error(), "remote cache is full") {
		t.Fatalf("a second 4 MiB tensor in a 6 MiB cache beside a held one: %v", err)
	}
	var v float64
	if err := tensor.CatchFault(func() (err error) { v, err = t0.Float64At([]int{0, 1023}); return err }); err != nil || v != 511.5 {
		t.Fatalf("the held tensor: %v, %v", v, err)
	}
	release()
	// The release unpins on a goroutine of its own (context.AfterFunc).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		err = doc.Run(context.Background(), func(ctx context.Context) error {
			_, err := doc.Tensor("t1").Load(ctx)
			return err
		})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the release: %v", err)
		}
	}
}

// A tensor larger than the remote cache: its statistics stream it (the
// blocks behind the reader are dropped) and equal the local ones, never
// holding more than the cache; a view that needs the whole tensor at once
// says so, naming the sizes and the setting.
func TestRemoteTensorLargerThanTheCache(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "big.safetensors"), 2, 4<<20) // two 16 MiB tensors
	s := remotetest.New(dir)
	defer s.Close()
	defer formats.SetRemoteCache("1G")
	url := s.URLOf("big.safetensors")
	local, lerr, code := runOut(t, "stats", "--json", filepath.Join(dir, "big.safetensors"), "t1")
	if code != 0 {
		t.Fatal(lerr)
	}
	s.ResetTraffic()
	out, errs, code := runOut(t, "stats", "--json", "--remote-cache", "4M", url, "t1")
	if code != 0 {
		t.Fatalf("stats of a 16 MiB tensor with a 4 MiB cache: status %d: %s", code, errs)
	}
	if out != local {
		t.Fatalf("streamed stats differ:\nlocal  %s\nremote %s", local, out)
	}
	if held := remote.CachedBytes(); held > 4<<20 {
		t.Errorf("%d bytes held in a 4 MiB cache", held)
	}
	if _, sent := s.Traffic(); sent > 16<<20+(1<<20) {
		t.Errorf("streaming a 16 MiB tensor transferred %d bytes", sent)
	}

	_, errs, code = runOut(t, "render", "--remote-cache", "4M", url, "--view", "heatmap", "--tensor", "t1", "--out", filepath.Join(t.TempDir(), "t1.png"))
	if code == 0 || !strings.Contains(errs, "16.0 MiB") || !strings.Contains(errs, "4.0 MiB") || !strings.Contains(errs, "--remote-cache") {
		t.Fatalf("a heatmap of a tensor larger than the cache: status %d: %s", code, errs)
	}
}

// A long fetch reports its progress in bytes through the holder's
// progress function, and Cancel stops it at once; the tensor loads
// afterwards as if nothing had happened.
func TestRemoteLoadReportsBytesAndCancels(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "m.safetensors"), 2, 4<<20) // two 16 MiB tensors
	s, doc := openServed(t, dir, "m.safetensors")
	var mu sync.Mutex
	var calls int
	var last, total int64
	err := doc.Run(context.Background(), func(ctx context.Context) error {
		ctx = formats.WithProgress(ctx, func(done, all int64) {
			mu.Lock()
			calls++
			last, total = max(last, done), all
			mu.Unlock()
		})
		_, err := doc.Tensor("t0").Load(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || total < 16<<20 || last != total {
		t.Fatalf("progress: %d calls, last %d of %d bytes", calls, last, total)
	}

	s.Mu.Lock()
	s.Faults.Latency = 2 * time.Second
	s.Mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	err = doc.Run(ctx, func(ctx context.Context) error {
		_, err := doc.Tensor("t1").Load(ctx)
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled load: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("the cancel took %v", d)
	}
	s.Mu.Lock()
	s.Faults.Latency = 0
	s.Mu.Unlock()
	err = doc.Run(context.Background(), func(ctx context.Context) error {
		x, err := doc.Tensor("t1").Load(ctx)
		if err != nil {
			return err
		}
		return tensor.CatchFault(func() error {
			v, err := x.Float64At([]int{4095, 1023})
			if err == nil && v != float64(float32(4<<20-1)*0.5+1) {
				err = fmt.Errorf("the last value is %v", v)
			}
			return err
		})
	})
	if err != nil {
		t.Fatalf("after the cancel: %v", err)
	}
}

// A view of a large remote tensor that reads all of it says so first; a
// small one, or one already fetched, does not.
func TestRemoteRenderSaysItReadsTheWholeTensor(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "big.safetensors"), 2, 4<<20) // two 16 MiB tensors
	writeSafetensors(t, filepath.Join(dir, "small.safetensors"), 2, 4096)
	s := remotetest.New(dir)
	defer s.Close()
	out := t.TempDir()
	_, errs, code := runOut(t, "render", s.URLOf("big.safetensors"), "--view", "heatmap", "--tensor", "t1", "--out", filepath.Join(out, "a.png"))
	if code != 0 || !strings.Contains(errs, `Reading all 16.0 MiB of tensor "t1" from the server`) {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	_, errs, code = runOut(t, "render", s.URLOf("big.safetensors"), "--view", "histogram", "--out", filepath.Join(out, "b.png"))
	if code != 0 || !strings.Contains(errs, `tensor "t0"`) {
		t.Fatalf("the default tensor: status %d, stderr %q", code, errs)
	}
	_, errs, code = runOut(t, "render", s.URLOf("small.safetensors"), "--view", "heatmap", "--out", filepath.Join(out, "c.png"))
	if code != 0 || errs != "" {
		t.Fatalf("a small tensor: status %d, stderr %q", code, errs)
	}

	doc, err := formats.Open(s.URLOf("big.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	e := doc.Tensor("t0")
	if e.RemoteReadNote() == "" {
		t.Fatal("no note before the tensor is fetched")
	}
	err = doc.Run(context.Background(), func(ctx context.Context) error {
		if _, err := e.Load(ctx); err != nil {
			return err
		}
		if n := e.RemoteReadNote(); n != "" {
			return fmt.Errorf("a fetched tensor's note: %s", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The further shards of a remote GGUF split set are read several at a
// time, and the set reads as it does locally.
func TestRemoteGGUFSplitShardsInParallel(t *testing.T) {
	dir := t.TempDir()
	const count = 6
	for no := range count {
		var buf bytes.Buffer
		kvs := []gguf.KV{{Key: "general.architecture", Value: "llama"}, {Key: "split.no", Value: uint16(no)},
			{Key: "split.count", Value: uint16(count)}, {Key: "split.tensors.count", Value: int32(count)}}
		name := fmt.Sprintf("w%d", no)
		start, _, err := gguf.WriteHeader(&buf, kvs, []gguf.TensorSpec{{Name: name, GGMLType: 0, Shape: []int{4, 8}}}, 32)
		if err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()[:start]
		for i := range 32 {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(no*100+i)))
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m-%05d-of-%05d.gguf", no+1, count)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := fmt.Sprintf("m-00001-of-%05d.gguf", count)
	local, lerr, code := runOut(t, "info", "--json", filepath.Join(dir, first))
	if code != 0 {
		t.Fatal(lerr)
	}
	s := remotetest.New(dir)
	defer s.Close()
	s.Faults.Latency = 100 * time.Millisecond
	s.ResetTraffic()
	out, errs, code := runOut(t, "info", "--json", s.URLOf(first))
	if code != 0 {
		t.Fatal(errs)
	}
	sameJSON(t, first, local, out, s.URL, dir)
	if p := s.Peak(); p < 2 {
		t.Fatalf("the %d further shards' headers were read one at a time", count-1)
	}
	lout, _, _ := runOut(t, "stats", "--json", filepath.Join(dir, first), "w5")
	rout, errs, code := runOut(t, "stats", "--json", s.URLOf(first), "w5")
	if code != 0 || lout != rout {
		t.Fatalf("stats of the last shard's tensor: status %d %s\nlocal  %s\nremote %s", code, errs, lout, rout)
	}
}

// The statistics and the summary of every tensor of a remote file larger
// than the cache: a tensor done with is not held while the next is read.
func TestRemoteStatsOfAFileLargerThanTheCache(t *testing.T) {
	dir := t.TempDir()
	writeSafetensors(t, filepath.Join(dir, "m.safetensors"), 5, 1<<20) // five 4 MiB tensors
	s := remotetest.New(dir)
	defer s.Close()
	defer formats.SetRemoteCache("1G")
	local, lerr, code := runOut(t, "stats", "--json", filepath.Join(dir, "m.safetensors"))
	if code != 0 {
		t.Fatal(lerr)
	}
	out, errs, code := runOut(t, "stats", "--json", "--remote-cache", "9M", s.URLOf("m.safetensors"))
	if code != 0 || out != local {
		t.Fatalf("20 MiB of tensors through a 9 MiB cache: status %d: %s\nlocal  %s\nremote %s", code, errs, local, out)
	}
	local, lerr, code = runOut(t, "summary", "--json", filepath.Join(dir, "m.safetensors"))
	if code != 0 {
		t.Fatal(lerr)
	}
	out, errs, code = runOut(t, "summary", "--json", "--remote-cache", "9M", s.URLOf("m.safetensors"))
	out = strings.ReplaceAll(out, s.URL, dir)
	if code != 0 || out != local {
		t.Fatalf("summary of 20 MiB of tensors through a 9 MiB cache: status %d: %s\nlocal  %.300s\nremote %.300s", code, errs, local, out)
	}
}

// A remote index reads each shard's header once: its decode runs again
// each time it reaches index bytes not fetched yet, and the shards named
// so far were read again each time (206 requests for 100 shards).
func TestRemoteIndexReadsEachShardOnce(t *testing.T) {
	dir := t.TempDir()
	const shards, perShard = 20, 300
	weightMap := map[string]string{}
	for s := range shards {
		file := fmt.Sprintf("model-%05d-of-%05d.safetensors", s+1, shards)
		hdr := map[string]any{}
		for j := range perShard {
			name := fmt.Sprintf("model.layers.%d.attention.block_%d.a_long_name_so_that_the_index_spans_blocks.weight", s, j)
			hdr[name] = map[string]any{"dtype": "F32", "shape": []int{1}, "data_offsets": []int{4 * j, 4*j + 4}}
			weightMap[name] = file
		}
		h, _ := json.Marshal(hdr)
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
		b = append(append(b, h...), make([]byte, 4*perShard)...)
		if err := os.WriteFile(filepath.Join(dir, file), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, _ := json.Marshal(map[string]any{"metadata": map[string]any{}, "weight_map": weightMap})
	if len(ix) < 4*remote.BlockSize {
		t.Fatalf("the index is %d bytes: too small to need several fetches", len(ix))
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), ix, 0o644); err != nil {
		t.Fatal(err)
	}
	s := remotetest.New(dir)
	defer s.Close()
	s.ResetTraffic()
	if _, errOut, code := runOut(t, "info", "--json", s.URLOf("model.safetensors.index.json")); code != 0 {
		t.Fatalf("info: status %d: %s", code, errOut)
	}
	if reqs, _ := s.Traffic(); reqs > shards+8 {
		t.Errorf("info of a %d-shard index made %d requests; want one per shard and a few for the index", shards, reqs)
	}
}

// openServed serves dir and opens its file name through the server; both
// are closed when the test ends.
func openServed(t *testing.T, dir, name string) (*remotetest.Server, *formats.Document) {
	t.Helper()
	s := remotetest.New(dir)
	t.Cleanup(s.Close)
	doc, err := formats.Open(s.URLOf(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return s, doc
}
