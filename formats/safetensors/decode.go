package safetensors

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
)

var format = &formats.Format{
	ID:         "safetensors",
	Name:       "safetensors",
	Extensions: []string{".safetensors", ".safetensors.index.json"},
	Priority:   50, // no magic number: after the formats that have one
	Sniff:      func(b []byte) bool { return sniffFile(b) || sniffIndex(b) },
}

func init() {
	format.Decode = decode
	format.Encoder = encoder
	formats.Register(format)
}

// sniffFile recognises a safetensors file by a plausible header length
// followed by the JSON object's opening: '{' then '"' or '}' (possibly after
// spaces). When the whole header is present its last non-space byte must be
// '}'. A header running past the end still sniffs, so that the decoder can
// say what is wrong with it.
func sniffFile(b []byte) bool {
	if len(b) < 10 || b[8] != '{' {
		return false
	}
	n := binary.LittleEndian.Uint64(b)
	if n < 2 || n > 1<<40 {
		return false
	}
	rest := bytes.TrimLeft(b[9:min(len(b), 64)], " \n\r\t")
	if len(rest) > 0 && rest[0] != '"' && rest[0] != '}' {
		return false
	}
	if int64(n) <= int64(len(b))-8 {
		text := bytes.TrimRight(b[8:8+n], " \n\r\t")
		return len(text) > 0 && text[len(text)-1] == '}'
	}
	return true
}

// sniffIndex recognises a sharded checkpoint's index: a JSON object with a
// "weight_map" near its start.
func sniffIndex(b []byte) bool {
	head := bytes.TrimLeft(b[:min(len(b), 1<<20)], " \n\r\t\xef\xbb\xbf")
	return len(head) > 0 && head[0] == '{' && bytes.Contains(head, []byte(`"weight_map"`))
}

func decode(src *formats.Source) (*formats.Document, error) {
	if !sniffFile(src.Data) && sniffIndex(src.Data) {
		// Parsed once: 30,000 entries parsed again to find the first
		// shard cost a quarter of opening a large checkpoint.
		// Shards named .safetensors are read while the index is parsed;
		// others (a PyTorch index's) wait for shardFormat.
		// Not for a remote index: its decode runs again each time it
		// reaches bytes not fetched yet, and would read the shards named so
		// far again each time (each shard's header up to six times).
		r := newShardReader(src.Path)
		defer r.stop()
		early := !formats.IsRemote(src.Path)
		ix, err := parseIndex(src.Data, func(i int, file string) {
			if early && strings.HasSuffix(file, ".safetensors") {
				r.read(i, file)
			}
		})
		read := r.wait(len(ixFiles(ix)))
		if err != nil {
			return nil, err
		}
		if f := shardFormat(src, ix); f != nil {
			return f.Decode(src)
		}
		return decodeIndex(src, ix, read)
	}
	return decodeFile(src)
}

// ixFiles is the index's shard files, none when there is no index.
func ixFiles(ix *index) []string {
	if ix == nil {
		return nil
	}
	return ix.files
}

// decodeFile reads one safetensors file (a whole checkpoint or one shard).
func decodeFile(src *formats.Source) (*formats.Document, error) {
	size := int64(len(src.Data))
	n, err := headerSize(src.Data, size)
	if err != nil {
		return nil, err
	}
	h, err := parseHeader(src.Data[8 : 8+n])
	if err != nil {
		partial := src.NewDocument(format, "")
		partial.Header = []formats.HeaderField{{Name: "header_size", Offset: 0, Size: 8, Value: n,
			Meaning: fmt.Sprintf("JSON header in bytes 8..%d", 8+n)}}
		return partial, err
	}
	h.validate(size - h.bufferStart())
	doc := src.NewDocument(format, "")
	doc.Warnings = append(doc.Warnings, h.warnings...)
	doc.Header = h.fields("")
	doc.HeaderSpan = formats.Span{Offset: 0, Len: h.bufferStart()}
	doc.Metadata = formats.NewObject("")
	if h.metadata != nil {
		doc.Metadata.Add(h.metadata)
	}
	doc.Metadata.Add(h.tree())
	storage := func() (*tensor.Storage, error) { return src.Storage, nil }
	for _, e := range h.tensors {
		doc.Tensors = append(doc.Tensors, h.tensorEntry(e, storage, nil))
	}
	return doc, nil
}

// listing is a tensor's entry together with what its loader and
// attributes need; a header's listings are one allocation (see
// header.listings), not three per tensor. Its attributes (the dtype as
// the header spells it, and an index's shard) are made when asked for
// (formats.AttrSource): 64 bytes less for each of 30,000 tensors.
type listing struct {
	te    formats.TensorEntry
	e     *entry
	off   int64
	open  func() (*tensor.Storage, error)
	shard *shardInfo // nil for a tensor of a single file
}

func (l *listing) AppendAttrs(dst []formats.Attr) []formats.Attr {
	dst = append(dst, formats.Attr{Name: "safetensors dtype", Value: dtypeValue(l.e.dtypeName)})
	if l.shard != nil {
		dst = append(dst, formats.Attr{Name: "shard", Value: l.shard.fileAttr})
	}
	return dst
}

func (l *listing) load(context.Context) (*tensor.Tensor, error) {
	st, err := l.open()
	if err != nil {
		return nil, err
	}
	return tensor.New(st, l.off, l.e.dtype, l.e.shape)
}

// tensorEntry lists e, loading its data from the storage that open returns
// (the mapped file, or a shard mapped on first use); shard is the index's
// shard holding it, or nil. It is e's one entry.
func (h *header) tensorEntry(e *entry, open func() (*tensor.Storage, error), shard *shardInfo) *formats.TensorEntry {
	if h.listings == nil {
		h.listings = make([]listing, len(h.tensors))
	}
	l := &h.listings[e.index]
	l.e, l.shard = e, shard
	te := &l.te // zero: fields set one by one (a whole TensorEntry copied in is a bulk write barrier)
	te.Name, te.DType, te.Shape = e.name, e.dtype, e.shape
	te.Offset, te.NBytes, te.Role = h.bufferStart()+e.start, e.end-e.start, formats.RoleWeight
	te.SetAttrSource(l)
	switch {
	case e.problem != "":
		te.Note = e.problem
		if e.dtype == tensor.Invalid {
			te.TypeName = e.dtypeName
		}
	case !viewable(e.dtype):
		te.Note = fmt.Sprintf("%s data is listed, but the tensor core cannot view packed %s elements yet", e.dtypeName, e.dtype)
	default:
		l.off, l.open = h.bufferStart()+e.start, open
		te.SetLoader(l.load)
	}
	return te
}

// fields lists the header for the Header pane: the length, the JSON, and
// each entry of the JSON at its offset. prefix names the shard for an index.
func (h *header) fields(prefix string) []formats.HeaderField {
	text := fmt.Sprintf("%d tensors", len(h.tensors))
	out := []formats.HeaderField{
		{Name: prefix + "header_size", Offset: 0, Size: 8, Value: h.size, Meaning: fmt.Sprintf("data buffer starts at byte %d", h.bufferStart())},
		{Name: prefix + "header", Offset: 8, Size: int(h.size), Value: "JSON", Meaning: text},
	}
	if h.metaSpan > 0 {
		out = append(out, formats.HeaderField{Name: prefix + "__metadata__", Offset: h.metaAt, Size: int(h.metaSpan),
			Value: h.metadataSummary(), Meaning: h.metadataMeaning()})
	}
	for _, e := range h.tensors {
		shape := strings.ReplaceAll(fmt.Sprint(e.shape), " ", ",")
		out = append(out, formats.HeaderField{Name: prefix + e.name, Offset: e.at, Size: int(e.span),
			Value:   fmt.Sprintf("%s %s [%d, %d]", e.dtypeName, shape, e.start, e.end),
			Meaning: fmt.Sprintf("data at bytes %d–%d", h.bufferStart()+e.start, h.bufferStart()+e.end)})
	}
	return out
}

// metadataSummary says what __metadata__ holds: "null" or "{}" (no
// metadata: the key is there, empty), or how many entries.
func (h *header) metadataSummary() string {
	switch {
	case h.metadata == nil:
		return "null (no metadata)"
	case h.metadata.IsLeaf():
		return fmt.Sprint(h.metadata.Value)
	case len(h.metadata.Children) == 0:
		return "{} (no metadata)"
	case len(h.metadata.Children) == 1:
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", len(h.metadata.Children))
}

// metadataMeaning says where the metadata is seen, or that there is none.
func (h *header) metadataMeaning() string {
	if h.metadata == nil || !h.metadata.IsLeaf() && len(h.metadata.Children) == 0 {
		return "the file holds no metadata"
	}
	return "the Metadata pane lists it"
}

// tree is the header's tensor entries as a metadata tree, as the JSON has them.
func (h *header) tree() *formats.Meta {
	root := formats.NewObject("tensors")
	for _, e := range h.tensors {
		shape := make([]int64, len(e.shape))
		for i, d := range e.shape {
			shape[i] = int64(d)
		}
		root.Add(formats.NewObject(e.name,
			formats.Leaf("dtype", e.dtypeName),
			formats.Leaf("shape", shape),
			formats.Leaf("data_offsets", []int64{e.start, e.end})))
	}
	return root
}
