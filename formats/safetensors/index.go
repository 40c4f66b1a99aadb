package safetensors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// index is a parsed "*.safetensors.index.json".
type index struct {
	metadata *formats.Meta
	weights  []placement // weight_map entries in file order, each name once
	files    []string    // shard files in order of first mention
	fileAt   []int64     // offset of each shard's first mention
	mapAt    int64
}

// placement is a weight_map entry: the tensor's name, its shard (an index
// into files) and the entry's offset in the index.
type placement struct {
	name string // a view of the index's text (see readWeightMap)
	file int
	at   int64
}

// parseIndex parses the index text. onFile, when not nil, is told each
// shard file as the weight_map first names it (i counts from 0), so that
// its header can be read while the rest of the index is parsed.
func parseIndex(text []byte, onFile func(i int, file string)) (*index, error) {
	// A weight_map entry takes some 60 bytes: sized once, the map does
	// not rehash its way up to 30,000 names.
	ix := &index{mapAt: -1}
	sc := &scanner{b: text}
	err := sc.members(func(k []byte, keyAt int) error {
		if string(k) == "weight_map" {
			ix.mapAt = int64(keyAt)
			return ix.readWeightMap(sc, len(text)/64, onFile)
		}
		key := string(k)
		raw, err := sc.value(0)
		if err != nil {
			return err
		}
		tree, err := formats.JSONTree(key, raw, int64(sc.pos-len(raw)))
		if err != nil {
			return err
		}
		if ix.metadata == nil {
			ix.metadata = formats.NewObject("index")
		}
		ix.metadata.Add(tree)
		return nil
	})
	if err != nil {
		var se *scanError
		if errors.As(err, &se) {
			return nil, formats.Errorf(int64(se.pos), "index: %s", se.msg)
		}
		return nil, err
	}
	if sc.peek() != 0 {
		return nil, formats.Errorf(int64(sc.pos), "index: expected the end of the JSON after its object")
	}
	if ix.mapAt < 0 {
		return nil, formats.Errorf(0, "index: no \"weight_map\"")
	}
	return ix, nil
}

// readWeightMap reads the weight_map's entries; sizeHint guesses their
// number. Names are views of the text, as strings (unsafe.String), which
// lives as long as the decode that reads the index: nothing keeps them
// past it (a listed tensor takes its name from its shard's header, and
// one without a shard a copy). A checkpoint of 30,000 tensors needs no
// copy of each name, nor of its shard's file name.
func (ix *index) readWeightMap(sc *scanner, sizeHint int, onFile func(i int, file string)) error {
	// Sized once, neither grows its way up to 30,000 names.
	seen := newNameIndex(sizeHint)
	ix.weights = make([]placement, 0, sizeHint)
	nameAt := func(i int) string { return ix.weights[i].name }
	fileIndex := map[string]int{}
	last := -1 // the previous entry's shard: entries come grouped by shard
	return sc.members(func(key []byte, keyAt int) error {
		file, err := sc.strBytes()
		if err != nil {
			return err
		}
		var name string
		if len(key) > 0 {
			name = unsafe.String(&key[0], len(key))
		}
		if _, dup := seen.add(name, len(ix.weights), nameAt); dup {
			return nil // named before: the first entry stands
		}
		if last < 0 || ix.files[last] != string(file) {
			i, known := fileIndex[string(file)]
			if !known {
				i = len(ix.files)
				f := string(file)
				fileIndex[f] = i
				ix.files = append(ix.files, f)
				ix.fileAt = append(ix.fileAt, int64(keyAt))
				if onFile != nil {
					onFile(i, f)
				}
			}
			last = i
		}
		ix.weights = append(ix.weights, placement{name, last, int64(keyAt)})
		return nil
	})
}

// shardInfo is one shard as opening found it.
type shardInfo struct {
	file     string
	fileAttr any    // file, as the tensors' "shard" attribute (boxed once)
	path     string // resolved inside the index's folder
	problem  error  // why the header could not be read, as a warning
	header   *header
	listed   []bool         // by index into header.tensors: the weight_map puts it here
	shard    *formats.Shard // set by record, before any tensor is loaded
	note     string         // why its tensors have no data
	size     int64
}

// storage maps the shard on first use (see formats.Shard.Storage).
func (s *shardInfo) storage() (*tensor.Storage, error) { return s.shard.Storage() }

// listAll makes every tensor's entry of the shard's header (header.listings),
// each with its shard as an attribute; the weight_map then picks them.
func (s *shardInfo) listAll() {
	open := s.storage
	for _, e := range s.header.tensors {
		s.header.tensorEntry(e, open, s)
	}
}

// decodeIndex opens a sharded checkpoint, whose index ix is: the index
// names every tensor's shard; each shard's header is read now (without
// mapping the shard), its data mapped on first use.
// read holds the shards already read (by index into ix.files); the others
// are read now.
func decodeIndex(src *formats.Source, ix *index, read []*shardInfo) (*formats.Document, error) {
	doc := src.NewDocument(format, "index")
	doc.HeaderSpan = formats.Span{Offset: 0, Len: int64(len(src.Data))}
	doc.Header = []formats.HeaderField{{Name: "weight_map", Offset: ix.mapAt, Size: int(int64(len(src.Data)) - ix.mapAt),
		Value: fmt.Sprintf("%d tensors", len(ix.weights)), Meaning: fmt.Sprintf("in %d shards", len(ix.files))}}
	doc.Metadata = formats.NewObject("")
	if ix.metadata != nil {
		doc.Metadata.Add(ix.metadata)
	}
	shards := openShards(doc, src.Path, ix.files, ix.fileAt, read)
	shardList := formats.NewList("shards")
	for i, s := range shards {
		file := s.file
		shardList.Add(s.meta())
		if s.header != nil {
			doc.Header = append(doc.Header, formats.HeaderField{Name: file, Offset: ix.fileAt[i], Size: 0,
				Value:   fmt.Sprintf("header of %d bytes, %d %s", s.header.size, len(s.header.tensors), plural(len(s.header.tensors), "tensor")),
				Meaning: fmt.Sprintf("shard file of %d bytes, data buffer at byte %d", s.size, s.header.bufferStart())})
		}
	}
	doc.Metadata.Add(shardList)
	doc.Tensors = make([]*formats.TensorEntry, len(ix.weights))
	for i, p := range ix.weights {
		doc.Tensors[i] = shards[p.file].tensor(doc, p.name, p.at)
	}
	for i, s := range shards {
		if s.header == nil {
			continue
		}
		for k, e := range s.header.tensors {
			if !s.listed[k] {
				doc.Warn(ix.fileAt[i], "shard %s holds tensor %q, which the weight_map does not name there: not listed", s.file, e.name)
			}
		}
	}
	return doc, nil
}

// openShards reads the headers of the shards not read yet, several at a
// time (a checkpoint has a hundred), and then records each in doc in the
// index's order, so that warnings come out the same on every run.
func openShards(doc *formats.Document, indexPath string, files []string, fileAt []int64, read []*shardInfo) []*shardInfo {
	r := newShardReader(indexPath)
	for i, file := range files {
		if i >= len(read) || read[i] == nil {
			r.read(i, file)
		}
	}
	out := r.wait(len(files))
	for i := range out {
		if i < len(read) && read[i] != nil {
			out[i] = read[i]
		}
		out[i].record(doc, fileAt[i])
	}
	return out
}

// shardReader reads shards' headers on a few goroutines (HeaderReaders),
// started with the first shard: decode hands it each shard as parsing the
// index first names it, so that reading the headers (and making their
// tensors' entries) runs beside the rest of the parse.
type shardReader struct {
	indexPath string
	resolver  *formats.InsideResolver
	jobs      chan shardJob
	wg        sync.WaitGroup
	mu        sync.Mutex
	out       []*shardInfo // by index; grown under mu
	stopped   bool
}

type shardJob struct {
	i    int
	file string
}

func newShardReader(indexPath string) *shardReader {
	return &shardReader{indexPath: indexPath, resolver: formats.NewInsideResolver(indexPath)}
}

// read queues shard i.
func (r *shardReader) read(i int, file string) {
	if r.jobs == nil {
		r.jobs = make(chan shardJob, 64)
		for range formats.HeaderReaders(r.indexPath) {
			r.wg.Add(1)
			go r.work()
		}
	}
	r.jobs <- shardJob{i, file}
}

func (r *shardReader) work() {
	defer r.wg.Done()
	var buf []byte // one header's text at a time: parseHeader keeps none of it
	for j := range r.jobs {
		s := readShard(r.resolver, j.file, &buf)
		if s.header != nil {
			s.listAll()
		}
		r.mu.Lock()
		if j.i >= len(r.out) {
			r.out = append(r.out, make([]*shardInfo, j.i+1-len(r.out))...)
		}
		r.out[j.i] = s
		r.mu.Unlock()
	}
}

// stop lets the goroutines finish what was queued and waits for them; it
// may be called again. A decode that fails (or faults) midway stops them
// with it, so that none outlives the decode.
func (r *shardReader) stop() {
	if r.jobs != nil && !r.stopped {
		r.stopped = true
		close(r.jobs)
		r.wg.Wait()
	}
}

// wait waits for every queued shard and returns them by index, n long
// (nil for those not queued).
func (r *shardReader) wait(n int) []*shardInfo {
	r.stop()
	out := make([]*shardInfo, n)
	copy(out, r.out)
	return out
}

// readShard resolves and reads one shard's header. A shard that escapes
// the index's folder, is missing or unreadable keeps why in problem: its
// tensors are listed without data.
func readShard(resolver *formats.InsideResolver, file string, buf *[]byte) *shardInfo {
	s := &shardInfo{file: file, fileAttr: file}
	path, err := resolver.Resolve(file)
	if err != nil {
		s.problem = fmt.Errorf("shard %q refused: %v", file, err)
		s.note = fmt.Sprintf("shard path refused: %v", err)
		return s
	}
	s.path = path
	h, size, err := readShardHeader(path, buf)
	switch {
	case os.IsNotExist(err):
		s.problem = fmt.Errorf("shard %s is missing: its tensors are listed without data", file)
		s.note = fmt.Sprintf("shard %s is missing", file)
		return s
	case err != nil:
		s.problem = fmt.Errorf("shard %s: %s", file, formats.Describe(path, err))
		s.note = s.problem.Error()
		return s
	}
	s.header, s.size = h, size
	s.listed = make([]bool, len(h.tensors))
	return s
}

// record puts the shard's warnings in doc and registers its file for
// lazy mapping; at is the shard's first mention in the index.
func (s *shardInfo) record(doc *formats.Document, at int64) {
	if s.problem != nil {
		doc.Warn(at, "%s", s.problem)
		return
	}
	for _, w := range s.header.warnings {
		doc.Warn(-1, "shard %s: %s", s.file, w)
	}
	s.shard = doc.AddShard(s.path)
}

// firstRead is how much of a shard readShardHeader reads at once: the
// length and, in one read, the header of a few hundred tensors (a
// checkpoint's shards hold some 300 in 30 KB).
const firstRead = 64 << 10

// readShardHeader reads a shard's header into *buf (reused from shard to
// shard), usually with one read, without mapping the shard: opening a
// checkpoint of a hundred shards maps none of them.
func readShardHeader(path string, buf *[]byte) (h *header, size int64, err error) {
	size, err = formats.ReadHeaderInto(buf, path, firstRead, func(prefix []byte, size int64) (int64, error) {
		n, err := headerSize(prefix, size)
		if err != nil || int64(len(prefix)) < 8+n {
			return 8 + n, err
		}
		h, err = parseHeader(prefix[8 : 8+n])
		return 0, err
	})
	if err != nil {
		return nil, 0, err
	}
	h.validate(size - h.bufferStart())
	return h, size, nil
}

// tensor lists name as the shard's header describes it.
func (s *shardInfo) tensor(doc *formats.Document, name string, at int64) *formats.TensorEntry {
	if s.header == nil {
		return &formats.TensorEntry{Name: strings.Clone(name), Offset: -1, Role: formats.RoleWeight, Note: s.note,
			Attrs: []formats.Attr{{Name: "shard", Value: s.fileAttr}}}
	}
	e := s.header.lookup(name)
	if e == nil {
		doc.Warn(at, "tensor %q: the weight_map puts it in %s, whose header does not list it", name, s.file)
		return &formats.TensorEntry{Name: strings.Clone(name), Offset: -1, Role: formats.RoleWeight,
			Note: fmt.Sprintf("not in shard %s", s.file), Attrs: []formats.Attr{{Name: "shard", Value: s.fileAttr}}}
	}
	s.listed[e.index] = true
	return &s.header.listings[e.index].te // made by listAll
}

func (s *shardInfo) meta() *formats.Meta {
	m := formats.NewObject(filepath.ToSlash(s.file), formats.Leaf("file", s.file))
	if s.header == nil {
		return m.Add(formats.Leaf("problem", s.note))
	}
	m.Add(formats.Leaf("size", s.size),
		formats.Leaf("header_size", s.header.size),
		formats.Leaf("tensors", int64(len(s.header.tensors))))
	if s.header.metadata != nil {
		m.Add(s.header.metadata)
	}
	return m
}

// plural is noun for one, nouns otherwise.
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// shardFormat returns the codec of the index's shards when that is
// another format's (a pytorch_model.bin.index.json has the same shape as
// ours): such an index is that codec's to open. The first shard that
// exists is mapped only to sniff it. Nil when it is safetensors, or no
// shard can be read, or its format is unknown.
func shardFormat(src *formats.Source, ix *index) *formats.Format {
	resolver := formats.NewInsideResolver(src.Path)
	for _, file := range ix.files {
		path, err := resolver.Resolve(file)
		if err != nil {
			continue
		}
		st, err := formats.MapFile(path)
		if err != nil {
			continue
		}
		var f *formats.Format
		_ = tensor.CatchFault(func() error {
			if !sniffFile(st.Bytes()) {
				f, _ = formats.Detect(st.Bytes())
			}
			return nil
		})
		st.Close()
		if f == format {
			return nil
		}
		return f
	}
	return nil
}
