package pytorch

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tensorscope/formats"
)

// Hugging Face's pytorch_model.bin.index.json names the shard of each
// tensor; it opens as one document over its shards. Each shard is mapped
// and its pickle read at open (that is where dtypes and shapes are); no
// tensor data is read.

// looksLikeIndex: a JSON object with a "weight_map" near its start.
func looksLikeIndex(b []byte) bool {
	head := bytes.TrimLeft(b[:min(len(b), 1<<20)], " \n\r\t\xef\xbb\xbf")
	return len(head) > 0 && head[0] == '{' && bytes.Contains(head, []byte(`"weight_map"`))
}

// ptIndex is the parsed index: names in weight_map order.
type ptIndex struct {
	names    []string
	files    map[string]string
	order    []string // shard files in order of first mention
	metadata *formats.Meta
}

func parsePTIndex(data []byte) (*ptIndex, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	ix := &ptIndex{files: map[string]string{}}
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return nil, err
		}
		if key != "weight_map" {
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, formats.Errorf(dec.InputOffset(), "index: %q: %v", key, err)
			}
			if ix.metadata == nil {
				ix.metadata = formats.NewObject("index")
			}
			ix.metadata.Add(jsonMeta(key, v))
			continue
		}
		if err := expectDelim(dec, '{'); err != nil {
			return nil, err
		}
		for dec.More() {
			name, err := stringToken(dec)
			if err != nil {
				return nil, err
			}
			file, err := stringToken(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := ix.files[name]; dup {
				continue
			}
			ix.files[name] = file
			ix.names = append(ix.names, name)
			if !seen[file] {
				seen[file] = true
				ix.order = append(ix.order, file)
			}
		}
		if err := expectDelim(dec, '}'); err != nil {
			return nil, err
		}
	}
	if ix.names == nil && len(ix.files) == 0 {
		if !bytes.Contains(data, []byte(`"weight_map"`)) {
			return nil, formats.Errorf(0, "index: no \"weight_map\"")
		}
	}
	return ix, nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return formats.Errorf(dec.InputOffset(), "index: %v", err)
	}
	if t != d {
		return formats.Errorf(dec.InputOffset(), "index: expected %q, found %v", d, t)
	}
	return nil
}

func stringToken(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", formats.Errorf(dec.InputOffset(), "index: %v", err)
	}
	s, ok := t.(string)
	if !ok {
		return "", formats.Errorf(dec.InputOffset(), "index: expected a string, found %v", t)
	}
	return s, nil
}

func jsonMeta(name string, v any) *formats.Meta {
	switch x := v.(type) {
	case map[string]any:
		m := formats.NewObject(name)
		for k, c := range x {
			m.Add(jsonMeta(k, c))
		}
		return m
	case []any:
		m := formats.NewList(name)
		for i, c := range x {
			m.Add(jsonMeta(fmt.Sprint(i), c))
		}
		return m
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return formats.Leaf(name, i)
		}
		f, _ := x.Float64()
		return formats.Leaf(name, f)
	case nil:
		return formats.Leaf(name, "null")
	}
	return formats.Leaf(name, v)
}

// shardCheckpoint is one shard as opening found it.
type shardCheckpoint struct {
	file   string
	note   string // why its tensors have no data
	b      *builder
	byName map[string]namedTensor
}

func decodeIndex(src *formats.Source) (*formats.Document, error) {
	ix, err := parsePTIndex(src.Data)
	if err != nil {
		return nil, err
	}
	doc := src.NewDocument(format, "index")
	doc.HeaderSpan = formats.Span{Offset: 0, Len: int64(len(src.Data))}
	doc.Header = []formats.HeaderField{{Name: "weight_map", Offset: 0, Size: len(src.Data),
		Value: fmt.Sprintf("%d tensors", len(ix.names)), Meaning: fmt.Sprintf("in %d shards", len(ix.order))}}
	doc.Metadata = formats.NewObject("")
	if ix.metadata != nil {
		doc.Metadata.Add(ix.metadata)
	}
	shards := map[string]*shardCheckpoint{}
	shardList := formats.NewList("shards")
	for _, file := range ix.order {
		s := openPTShard(doc, src.Path, file)
		shards[file] = s
		m := formats.NewObject(file, formats.Leaf("file", file))
		if s.note != "" {
			m.Add(formats.Leaf("problem", s.note))
			doc.Warn(-1, "shard %s: %s", file, s.note)
		} else {
			m.Add(formats.Leaf("tensors", int64(len(s.byName))))
			var named []namedTensor
			for _, name := range ix.names {
				if nt, ok := s.byName[name]; ok && ix.files[name] == file {
					named = append(named, nt)
				}
			}
			m.Add(metaOf("object", s.b.c.root, newMetaBuilder(s.b.c.size).link(named), 0))
		}
		shardList.Add(m)
	}
	doc.Metadata.Add(shardList)
	var blobs []*blob
	for _, name := range ix.names {
		file := ix.files[name]
		s := shards[file]
		var e *formats.TensorEntry
		var bl *blob
		if nt, ok := s.byName[name]; ok && s.note == "" {
			e = s.b.entry(nt)
			if nt.t.storage != nil {
				bl = nt.t.storage.blob
			}
		} else {
			note := s.note
			if note == "" {
				note = fmt.Sprintf("not in shard %s", file)
				doc.Warn(-1, "tensor %q: the weight_map puts it in %s, which does not hold it", name, file)
			}
			e = &formats.TensorEntry{Name: name, Offset: -1, Role: formats.RoleWeight, Note: note}
		}
		e.Attrs = append(e.Attrs, formats.Attr{Name: "shard", Value: file})
		doc.Tensors = append(doc.Tensors, e)
		blobs = append(blobs, bl)
	}
	markShared(doc.Tensors, blobs)
	for _, file := range ix.order {
		s := shards[file]
		for name := range s.byName {
			if ix.files[name] != file {
				doc.Warn(-1, "shard %s holds tensor %q, which the weight_map does not put there: not listed", file, name)
			}
		}
	}
	return doc, nil
}

// openPTShard maps one shard and reads its pickle.
func openPTShard(doc *formats.Document, indexPath, file string) *shardCheckpoint {
	s := &shardCheckpoint{file: file}
	path, err := formats.ResolveInside(indexPath, file)
	if err != nil {
		s.note = fmt.Sprintf("shard path refused: %v", err)
		return s
	}
	if _, err := formats.StatRegular(path); err != nil {
		s.note = fmt.Sprintf("shard %s is missing", file)
		return s
	}
	st, err := doc.AddShard(path).Storage()
	if err != nil {
		s.note = err.Error()
		return s
	}
	ssrc := &formats.Source{Path: path, Data: st.Bytes(), Storage: st}
	var c *checkpoint
	switch {
	case sniffZip(ssrc.Data):
		c, err = readZip(ssrc, doc)
	case sniffLegacy(ssrc.Data):
		c, err = readLegacy(ssrc, doc)
	default:
		s.note = "not a PyTorch checkpoint"
		return s
	}
	if err != nil {
		s.note = formats.Describe(path, err)
		return s
	}
	for _, w := range c.warnings {
		doc.Warn(-1, "shard %s: %s", file, w)
	}
	c.warnings = nil
	c.size = int64(len(ssrc.Data))
	s.b = &builder{doc: doc, c: c}
	s.byName = map[string]namedTensor{}
	for _, nt := range nameTensors(c, c.root) {
		if _, dup := s.byName[nt.name]; !dup {
			s.byName[nt.name] = nt
		}
	}
	for _, w := range c.warnings {
		doc.Warn(-1, "shard %s: %s", file, w)
	}
	return s
}
