package gguf

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

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
	total := int64(len(h.tensors))
	for no := int64(1); no < keys.count; no++ {
		name := fmt.Sprintf("%s-%05d-of-%05d.gguf", m[1], no+1, keys.count)
		n, err := addShard(doc, path, name, no, keys.count)
		if err != nil {
			doc.Warn(-1, "shard %d of %d (%s): %v", no+1, keys.count, name, err)
			continue
		}
		total += n
	}
	if keys.tensors > 0 && total != keys.tensors {
		doc.Warn(-1, "split.tensors.count says %d tensors, the shards found hold %d", keys.tensors, total)
	}
}

// addShard reads the header of one further shard and lists its tensors.
func addShard(doc *formats.Document, docPath, name string, no, count int64) (int64, error) {
	full, err := formats.ResolveInside(docPath, name)
	if err != nil {
		return 0, err
	}
	h, size, err := readShardHeader(full)
	if os.IsNotExist(err) {
		return 0, fmt.Errorf("missing")
	}
	if err != nil {
		return 0, err
	}
	keys := readSplitKeys(h)
	if !keys.present || keys.no != no || keys.count != count {
		return 0, fmt.Errorf("its split.no/split.count are %d/%d, expected %d/%d", keys.no, keys.count, no, count)
	}
	shard := doc.AddShard(full)
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
	return int64(len(h.tensors)), nil
}

// readShardHeader reads a shard's header without mapping the file: it reads
// a prefix and doubles it until the header fits.
func readShardHeader(path string) (*header, int64, error) {
	f, st, err := formats.OpenRegular(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	size := st.Size()
	for n := int64(64 << 10); ; n *= 2 {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := io.ReadFull(f, buf[:n]); err != nil {
			return nil, 0, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, 0, err
		}
		h, err := parseHeader(buf, size)
		if err == errPrefix && n < size {
			continue
		}
		if err == errPrefix {
			return nil, 0, fmt.Errorf("header runs past the end of the file")
		}
		return h, size, err
	}
}
