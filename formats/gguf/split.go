package gguf

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// splitName matches llama.cpp's split file names: PREFIX-00001-of-00003.gguf.
var splitName = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.gguf$`)

// splitKeys are the split.* values of one file.
type splitKeys struct {
	no, count int64
	tensors   int64
	present   bool
}

func readSplitKeys(h *header) splitKeys {
	var k splitKeys
	no, ok1 := asInt(h.kv["split.no"])
	count, ok2 := asInt(h.kv["split.count"])
	k.present = ok1 && ok2
	k.no, k.count = no, count
	k.tensors, _ = asInt(h.kv["split.tensors.count"])
	return k
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case uint8:
		return int64(x), true
	case int8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case int16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case int32:
		return int64(x), true
	case uint64:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// openSplit adds the further shards of a split set when doc is its first
// file: their headers are read now (a few kilobytes each), their tensor data
// mapped on first use. Missing or inconsistent shards are warnings.
func openSplit(doc *formats.Document, path string, h *header) {
	keys := readSplitKeys(h)
	m := splitName.FindStringSubmatch(filepath.Base(path))
	if !keys.present {
		if m != nil {
			doc.Warn(-1, "the name says shard %s of %s, but the file has no split.no/split.count keys", m[2], m[3])
		}
		return
	}
	if keys.count < 1 || keys.no < 0 || keys.no >= keys.count {
		doc.Warn(-1, "split.no %d and split.count %d do not describe a shard of a split set", keys.no, keys.count)
		return
	}
	if keys.no != 0 {
		doc.Warn(-1, "this is shard %d of %d of a split set; open the first shard to see the whole model", keys.no+1, keys.count)
		return
	}
	if m == nil {
		doc.Warn(-1, "split.count is %d, but the file name does not end in -00001-of-%05d.gguf, so the other shards cannot be found", keys.count, keys.count)
		return
	}
	if n, _ := strconv.Atoi(m[3]); int64(n) != keys.count {
		doc.Warn(-1, "the name says %s shards, split.count says %d", m[3], keys.count)
	}
	if keys.count > 99999 {
		doc.Warn(-1, "split.count %d is more shards than a split set's names can number", keys.count)
		return
	}
	// The further shards' headers are read several at a time (each is a
	// request or more when the set is remote), then recorded in order, so
	// that tensors and warnings come out the same on every run.
	reads := make([]shardHeader, keys.count-1)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(formats.HeaderReaders(path), len(reads)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				no := int64(i) + 1
				reads[i] = readShard(path, fmt.Sprintf("%s-%05d-of-%05d.gguf", m[1], no+1, keys.count), no, keys.count)
			}
		}()
	}
	for i := range reads {
		next <- i
	}
	close(next)
	wg.Wait()
	total := int64(len(h.tensors))
	for i, r := range reads {
		if r.err != nil {
			doc.Warn(-1, "shard %d of %d (%s): %v", i+2, keys.count, r.name, r.err)
			continue
		}
		total += addShard(doc, r)
	}
	if keys.tensors > 0 && total != keys.tensors {
		doc.Warn(-1, "split.tensors.count says %d tensors, the shards found hold %d", keys.tensors, total)
	}
}

// shardHeader is a further shard's header, read (or why not).
type shardHeader struct {
	name, path string
	h          *header
	size       int64
	err        error
}

// readShard reads the header of one further shard and checks its split
// keys.
func readShard(docPath, name string, no, count int64) shardHeader {
	r := shardHeader{name: name}
	r.path, r.err = formats.ResolveInside(docPath, name)
	if r.err != nil {
		return r
	}
	r.h, r.size, r.err = readShardHeader(r.path)
	if os.IsNotExist(r.err) {
		r.err = fmt.Errorf("missing")
	}
	if r.err != nil {
		return r
	}
	if keys := readSplitKeys(r.h); !keys.present || keys.no != no || keys.count != count {
		r.err = fmt.Errorf("its split.no/split.count are %d/%d, expected %d/%d", keys.no, keys.count, no, count)
	}
	return r
}

// addShard lists a further shard's tensors and metadata in doc.
func addShard(doc *formats.Document, r shardHeader) int64 {
	shard := doc.AddShard(r.path)
	name, size, h := r.name, r.size, r.h
	storage := func() (*tensor.Storage, error) {
		st, err := shard.Storage()
		if err == nil && int64(st.Len()) != size {
			return nil, fmt.Errorf("%s changed size since it was opened (%d bytes, now %d)", name, size, st.Len())
		}
		return st, err
	}
	addTensors(doc, h, storage, size, name)
	node := formats.NewObject(name, h.meta.Children...)
	doc.Metadata.Add(node)
	for _, w := range h.warnings {
		doc.Warn(-1, "%s: %s", name, w)
	}
	return int64(len(h.tensors))
}

// readShardHeader reads a shard's header without mapping the file: it reads
// a prefix and doubles it until the header fits.
func readShardHeader(path string) (h *header, size int64, err error) {
	size, err = formats.ReadHeader(path, 64<<10, func(prefix []byte, size int64) (int64, error) {
		var err error
		h, err = parseHeader(prefix, size)
		if err == errPrefix {
			return min(2*int64(len(prefix)), size+1), nil // past the size: the header runs past the end
		}
		return 0, err
	})
	return h, size, err
}
