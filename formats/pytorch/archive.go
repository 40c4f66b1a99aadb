package pytorch

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// checkpoint is what a container yields: the unpickled object and the
// storages its tensors view.
type checkpoint struct {
	kind     string // "zip", "legacy", "torchscript"
	size     int64  // the file's size, which bounds the walks
	root     any
	folder   string // the zip's archive folder
	version  string
	bigEnd   bool
	blobs    map[string]*blob
	unknown  map[string]int
	header   []formats.HeaderField
	facts    []*formats.Meta // what the metadata pane says of the container
	consts   any             // TorchScript constants.pkl
	code     []codeFile      // TorchScript sources
	nameBuf  []byte          // a member name being looked up
	pending  []pendingStorage
	slab     slab // storages and blobs
	warnings []formats.Warning
}

func (c *checkpoint) warn(at int64, format string, args ...any) {
	c.warnings = append(c.warnings, formats.Warning{Offset: at, Message: fmt.Sprintf(format, args...)})
}

// blob is a storage's bytes in the file: a stored member or a legacy
// record viewed in place, or a deflated member inflated on first use.
type blob struct {
	key     string
	at      int64 // file offset of its first byte; -1 when compressed
	size    int64 // bytes
	st      *tensor.Storage
	inf     *inflater
	missing string // why the file holds no bytes for it

	elemSize int // legacy: bytes per element of the storage's type
}

// bytesOf returns the storage holding the blob's bytes (exactly them).
func (b *blob) storage(ctx context.Context) (*tensor.Storage, error) {
	if b.inf != nil {
		return b.inf.storage(ctx)
	}
	return b.st, nil
}

// codeFile is one TorchScript source file.
type codeFile struct {
	name string // relative to the archive folder, e.g. code/__torch__.py
	text string
}

// dataOffsets finds where each member's bytes start, reading its local
// header. A checkpoint of 2,000 tensors has 2,000 of them, each a system
// call (a quarter of the open), so the larger archives share them out
// among the CPUs.
func dataOffsets(files []*zip.File) ([]int64, []error) {
	offsets, errs := make([]int64, len(files)), make([]error, len(files))
	workers := min(runtime.GOMAXPROCS(0), 4, len(files)/256+1)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(files)/workers, (w+1)*len(files)/workers
		wg.Go(func() {
			i := lo
			// The reads fall back to the mapping: under the fault guard,
			// as every read of the file on any goroutine.
			if err := tensor.CatchFault(func() error {
				for ; i < hi; i++ {
					offsets[i], errs[i] = files[i].DataOffset()
				}
				return nil
			}); err != nil {
				for ; i < hi; i++ {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	return offsets, errs
}

// zipDirectory is archive/zip's reading of the archive: its members, the
// archive folder, and where each member's data starts.
type zipDirectory struct {
	zr      *zip.Reader
	folder  string
	offsets []int64 // by zr.File
	errs    []error
	err     error
}

// offsetOf is where member f's data starts.
func (d *zipDirectory) offsetOf(f *zip.File) (int64, error) {
	for i, g := range d.zr.File {
		if g == f {
			return d.offsets[i], d.errs[i]
		}
	}
	return f.DataOffset()
}

// readZipDirectory reads the directory and every local header, under the
// fault guard (its reads may fall back to the mapping).
func readZipDirectory(src *formats.Source, zreader *zipReaderAt) (d zipDirectory) {
	d.err = tensor.CatchFault(func() error {
		zr, err := zip.NewReader(zreader, int64(len(src.Data)))
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			// Member names are never used as paths: "insecure" ones are
			// only refused below.
			return formats.Errorf(-1, "zip: %v", err)
		}
		zr.RegisterDecompressor(zip.Deflate, fastInflate(src.Data, zreader))
		folder, err := archiveFolder(zr)
		if err != nil {
			return err
		}
		d.zr, d.folder = zr, folder
		d.offsets, d.errs = dataOffsets(zr.File)
		return nil
	})
	return d
}

// quickPickle finds the first <folder>/data.pkl of the central directory
// when it is stored (as torch writes it), and where its bytes are, from
// the directory and its local header alone. ok is false for anything
// else (zip64 fields, a deflated pickle, a header that does not fit):
// the caller then waits for archive/zip.
func quickPickle(b []byte) (folder string, at, size int64, ok bool) {
	le := binary.LittleEndian
	centralRecords(centralDirectory(b), func(rec, name []byte) bool {
		dir, isPickle := pickleFolder(name)
		if !isPickle || !cleanName(string(name)) {
			return false
		}
		// The first data.pkl decides, as in archiveFolder.
		method, packed, unpacked, lh := le.Uint16(rec[10:]), le.Uint32(rec[20:]), le.Uint32(rec[24:]), int64(le.Uint32(rec[42:]))
		if method != 0 || packed != unpacked || packed == 0xffffffff || lh == 0xffffffff || lh+30 > int64(len(b)) || string(b[lh:lh+4]) != "PK\x03\x04" {
			return true
		}
		at = lh + 30 + int64(le.Uint16(b[lh+26:])) + int64(le.Uint16(b[lh+28:]))
		if at+int64(packed) <= int64(len(b)) {
			folder, size, ok = string(dir), int64(packed), true
		}
		return true
	})
	if !ok {
		return "", 0, 0, false
	}
	return folder, at, size, true
}

// zipArchive reads the zip format of torch.save (PyTorch ≥ 1.6) and
// torch.jit.save: <folder>/data.pkl, <folder>/data/<key>, <folder>/version...
func readZip(src *formats.Source, doc *formats.Document) (*checkpoint, error) {
	zreader := newZipReaderAt(src)
	defer zreader.release()
	// archive/zip reads the directory and then every member's local header
	// (one system call each) on other goroutines, while data.pkl is
	// unpickled: found straight from the directory when it is stored
	// (quickPickle), and checked against archive/zip's reading after. The
	// unpickler only records the storages it meets; they are matched with
	// their members once both are done.
	dirRead := make(chan zipDirectory, 1)
	go func() { dirRead <- readZipDirectory(src, zreader) }()

	c := &checkpoint{kind: "zip", blobs: map[string]*blob{}}
	dataDirs := []string{"data/"}
	unpickle := func(b []byte, base int64, deflated bool) error {
		var err error
		c.root, c.unknown, err = unpickleData(b, base, deflated, func(pid any, at int64) (any, error) {
			return c.zipStorage(pid, at, dataDirs)
		})
		return err
	}
	var pickleErr error
	qFolder, qAt, qSize, quick := quickPickle(src.Data)
	if quick {
		pickleErr = unpickle(src.Data[qAt:qAt+qSize], qAt, false)
	}
	d := <-dirRead
	if d.err != nil {
		return nil, d.err
	}
	zr, folder := d.zr, d.folder
	c.folder = folder
	pklFile := findFile(zr.File, folder+"/data.pkl")
	if pklFile == nil {
		return nil, formats.Errorf(-1, "zip: member %s/data.pkl cannot be read", folder)
	}
	pklAt, err := d.offsetOf(pklFile)
	if err != nil {
		return nil, formats.Errorf(-1, "zip: member %s/data.pkl cannot be read: local header: %v", folder, err)
	}
	if findFile(zr.File, folder+"/constants.pkl") != nil {
		c.kind = "torchscript"
	}
	if !quick || qFolder != folder || qAt != pklAt || pklFile.Method != zip.Store || int64(pklFile.UncompressedSize64) != qSize {
		// No quick start, or one archive/zip reads otherwise: unpickle
		// the member it found, from scratch.
		c.root, c.unknown, c.blobs, c.pending, c.warnings = nil, nil, map[string]*blob{}, nil, nil
		pkl := &member{f: pklFile, at: pklAt, size: int64(pklFile.UncompressedSize64)}
		b, err := pkl.readAll(src.Data, maxPickleBytes)
		if err == nil {
			err = unpickle(b, pkl.unpickleBase(), pklFile.Method != zip.Store)
		}
		pickleErr = err
	}
	offsets, errs := d.offsets, d.errs

	members := make(map[string]*member, len(zr.File))
	var names []string
	prefix := folder + "/"
	for i, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		at, derr := offsets[i], errs[i]
		if derr != nil {
			c.warn(-1, "member %q: local header: %v", f.Name, derr)
			continue
		}
		if !ok || !cleanName(rel) {
			c.warn(at, "member %q is outside the archive folder %q or has an unsafe name: ignored", f.Name, folder)
			continue
		}
		if strings.HasSuffix(rel, "/") {
			continue
		}
		if _, dup := members[rel]; dup {
			c.warn(at, "member %q appears again: the first is read", f.Name)
			continue
		}
		members[rel] = &member{f: f, at: at, size: int64(f.UncompressedSize64)}
		names = append(names, rel)
	}
	pkl := members["data.pkl"]
	if pkl == nil {
		return nil, formats.Errorf(-1, "zip: member %s/data.pkl cannot be read", folder)
	}
	if lh := localHeader(src.Data, pkl.at); lh >= 0 {
		c.header = append(c.header, formats.HeaderField{Name: "archive folder", Offset: lh,
			Size: int(pkl.at - lh), Value: folder, Meaning: fmt.Sprintf("%d members; data.pkl's local header", len(names))})
	}
	for _, name := range []string{"version", ".data/version", "byteorder"} {
		m := members[name]
		if m == nil || m.size > 64 {
			continue
		}
		b, err := m.readAll(src.Data, 64)
		if err != nil {
			c.warn(m.at, "%v", err)
			continue
		}
		v := strings.TrimSpace(string(b))
		c.header = append(c.header, formats.HeaderField{Name: name, Offset: m.at, Size: int(m.size), Value: v})
		switch name {
		case "version", ".data/version":
			if c.version == "" {
				c.version = v
			}
		case "byteorder":
			if v == "big" {
				c.bigEnd = true
			} else if v != "little" {
				c.warn(m.at, "byteorder %q: expected little or big; read as little", v)
			}
		}
	}
	c.header = append(c.header, formats.HeaderField{Name: "data.pkl", Offset: pkl.at, Size: int(min(pkl.size, 1<<30)),
		Value: fmt.Sprintf("pickle of %d bytes", pkl.size), Meaning: methodName(pkl.f.Method)})

	c.resolveStorages(doc, src, members)
	if pickleErr != nil {
		return c, pickleErr
	}
	if m := members["constants.pkl"]; m != nil {
		constDirs := []string{"constants/", "data/"}
		consts, unknown, err := unpickleMember(src, m, func(pid any, at int64) (any, error) {
			return c.zipStorage(pid, at, constDirs)
		})
		c.resolveStorages(doc, src, members)
		if err != nil {
			c.warn(m.at, "constants.pkl: %v", err)
		} else {
			c.consts = consts
			for k, v := range unknown {
				c.unknown[k] += v
			}
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.HasPrefix(name, "code/") || strings.HasSuffix(name, ".debug_pkl") {
			continue
		}
		m := members[name]
		b, err := m.readAll(src.Data, maxPickleBytes)
		if err != nil {
			c.warn(m.at, "%v", err)
			continue
		}
		c.code = append(c.code, codeFile{name: name, text: decodeUTF8(b)})
	}
	stored, deflated := 0, 0
	for _, m := range members {
		if m.f.Method == zip.Store {
			stored++
		} else {
			deflated++
		}
	}
	c.facts = append(c.facts,
		formats.Leaf("container", "zip"),
		formats.Leaf("archive folder", folder),
		formats.Leaf("members", int64(len(names))),
		formats.Leaf("stored members", int64(stored)),
		formats.Leaf("deflated members", int64(deflated)))
	if c.version != "" {
		c.facts = append(c.facts, formats.Leaf("version", c.version))
	}
	return c, nil
}

// localHeader finds the local file header whose data starts at at: its
// name and extra field (torch pads it to align the data) lie between.
func localHeader(data []byte, at int64) int64 {
	for lh := at - 30; lh >= 0 && lh >= at-30-2*65535; lh-- {
		if data[lh] != 'P' || string(data[lh:lh+4]) != "PK\x03\x04" {
			continue
		}
		n := int64(binary.LittleEndian.Uint16(data[lh+26:]))
		x := int64(binary.LittleEndian.Uint16(data[lh+28:]))
		if lh+30+n+x == at {
			return lh
		}
	}
	return -1
}

func methodName(m uint16) string {
	switch m {
	case zip.Store:
		return "stored"
	case zip.Deflate:
		return "deflated"
	}
	return fmt.Sprintf("compression method %d", m)
}

// archiveFolder finds the folder holding data.pkl: torch.save names it
// after the file ("archive" before 1.13), and a renamed file keeps the
// old name, so any single-level folder is accepted.
func archiveFolder(zr *zip.Reader) (string, error) {
	var found []string
	for _, f := range zr.File {
		dir, base := path.Split(f.Name)
		if base == "data.pkl" && strings.Count(dir, "/") == 1 && cleanName(f.Name) {
			found = append(found, strings.TrimSuffix(dir, "/"))
		}
	}
	if len(found) == 0 {
		return "", formats.Errorf(-1, "zip: no <folder>/data.pkl member: not a PyTorch checkpoint")
	}
	return found[0], nil
}

// cleanName refuses member names that would leave a folder if they were
// ever used as paths: absolute, "..", backslashes, NUL.
func cleanName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for rest := name; ; {
		seg, more, found := strings.Cut(rest, "/")
		if seg == ".." || seg == "." {
			return false
		}
		if !found {
			return true
		}
		rest = more
	}
}

// unpickleMember runs a pickle member of the archive.
func unpickleMember(src *formats.Source, m *member, persistent func(any, int64) (any, error)) (any, map[string]int, error) {
	b, err := m.readAll(src.Data, maxPickleBytes)
	if err != nil {
		return nil, nil, err
	}
	return unpickleData(b, m.unpickleBase(), m.f.Method != zip.Store, persistent)
}

// unpickleBase is the file offset of a member's first byte as the
// unpickler's messages count it: 0 in an inflated member.
func (m *member) unpickleBase() int64 {
	if m.f.Method != zip.Store {
		return 0 // offsets inside an inflated member are not file offsets
	}
	return m.at
}

// unpickleData runs the pickle b, whose first byte is at file offset base.
func unpickleData(b []byte, base int64, inflated bool, persistent func(any, int64) (any, error)) (any, map[string]int, error) {
	u := newUnpickler(b, base)
	u.persistent = persistent
	v, err := u.load()
	if err != nil && inflated {
		err = fmt.Errorf("%s (offsets within the inflated member)", err)
	}
	return v, u.unknown, err
}

// zipStorage resolves a persistent id ('storage', type, key, location,
// numel) to its member data/<key>.
func (c *checkpoint) zipStorage(pid any, at int64, dirs []string) (any, error) {
	its, ok := pid.(*pyTuple)
	if !ok || len(its.items) < 5 {
		return nil, formats.Errorf(at, "pickle: persistent id is a %s, expected ('storage', type, key, location, numel)", typeName(pid))
	}
	if tag, _ := its.items[0].(string); tag != "storage" {
		return nil, formats.Errorf(at, "pickle: persistent id of kind %q, expected \"storage\"", tag)
	}
	st, ok := its.items[1].(*pyStorageType)
	if !ok {
		if dt, ok := its.items[1].(*pyDType); ok {
			st = &pyStorageType{name: "torch." + dt.name, elem: dt.elem}
		} else {
			return nil, formats.Errorf(at, "pickle: storage type is a %s, expected a torch storage class", typeName(its.items[1]))
		}
	}
	key, ok := its.items[2].(string)
	if !ok {
		return nil, formats.Errorf(at, "pickle: storage key is a %s, expected a str", typeName(its.items[2]))
	}
	location, _ := its.items[3].(string)
	numel, ok := asInt(its.items[4])
	if !ok || numel < 0 {
		return nil, formats.Errorf(at, "pickle: storage %q: its length is %v", key, its.items[4])
	}
	b := c.blobs[key]
	if b == nil {
		b = c.slab.blob(blob{key: key, at: -1})
		c.blobs[key] = b
		c.pending = append(c.pending, pendingStorage{b: b, dirs: dirs, at: at})
	}
	return c.slab.storage(pyStorage{key: key, elem: st.elem, location: location, numel: numel, at: at, blob: b}), nil
}

// pendingStorage is a storage a pickle named, to be matched with its
// member (see readZip).
type pendingStorage struct {
	b    *blob
	dirs []string // the folders its member may be in, in order
	at   int64    // where the pickle named it, for messages
}

// resolveStorages finds the members of the storages met since the last
// call: a stored one is viewed in place, a deflated one inflates when
// read; a missing or unreadable one says why.
func (c *checkpoint) resolveStorages(doc *formats.Document, src *formats.Source, members map[string]*member) {
	for _, p := range c.pending {
		b, dirs, at, key := p.b, p.dirs, p.at, p.b.key
		var m *member
		if cleanName(key) {
			for _, d := range dirs {
				c.nameBuf = append(append(c.nameBuf[:0], d...), key...)
				if m = members[string(c.nameBuf)]; m != nil { // no string made for the lookup
					break
				}
			}
		}
		switch {
		case !cleanName(key):
			b.missing = fmt.Sprintf("storage key %q is not a member name", key)
		case m == nil:
			b.missing = fmt.Sprintf("storage %q is missing from the archive (no member %s/%s%s)", key, c.folder, dirs[0], key)
		case m.f.Method == zip.Store:
			if m.at+m.size > int64(len(src.Data)) || int64(m.f.CompressedSize64) != m.size {
				b.missing = fmt.Sprintf("member %q of %d bytes does not fit in the file", m.f.Name, m.size)
			} else {
				b.at, b.size = m.at, m.size
				b.st = tensor.NewStorage(src.Data[m.at : m.at+m.size])
			}
		case m.f.Method == zip.Deflate:
			if err := m.checkRatio(); err != nil {
				b.missing = err.(*formats.Error).Msg
			} else {
				b.size = m.size
				b.inf = &inflater{doc: doc, m: m}
			}
		default:
			b.missing = fmt.Sprintf("member %q: compression method %d (expected 0 stored or 8 deflate)", m.f.Name, m.f.Method)
		}
		if b.missing != "" {
			c.warn(at, "%s", b.missing)
		}
	}
	c.pending = c.pending[:0]
}

// findFile returns the first member named name, or nil.
func findFile(files []*zip.File, name string) *zip.File {
	for _, f := range files {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Legacy format: five pickles and the raw storages, in one stream.

// legacyMagic is torch's magic number, the first pickle of a legacy file.
var legacyMagic = func() []byte {
	// 0x1950a86a20f9469cfc6c, little-endian as LONG1 stores it
	return []byte{0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19}
}()

const legacyMagicDecimal = "119547037146038801333356"

func readLegacy(src *formats.Source, doc *formats.Document) (*checkpoint, error) {
	c := &checkpoint{kind: "legacy", blobs: map[string]*blob{}}
	u := newUnpickler(src.Data, 0)
	next := func(what string) (any, int, error) {
		start := u.pos
		u.memo = memo{}
		v, err := u.load()
		if err != nil {
			return nil, start, fmt.Errorf("%s: %w", what, err)
		}
		return v, start, nil
	}
	magic, _, err := next("magic number")
	if err != nil {
		return nil, err
	}
	if mi, ok := magic.(interface{ String() string }); !ok || mi.String() != legacyMagicDecimal {
		return nil, formats.Errorf(0, "magic number %v: expected %s", magic, legacyMagicDecimal)
	}
	c.header = append(c.header, formats.HeaderField{Name: "magic", Offset: 0, Size: u.pos, Value: legacyMagicDecimal, Meaning: "0x1950a86a20f9469cfc6c"})
	protoAt := u.pos
	proto, _, err := next("protocol version")
	if err != nil {
		return c, err
	}
	pv, ok := proto.(int64)
	if !ok || pv != 1001 {
		return c, formats.Errorf(int64(protoAt), "protocol version %v: expected 1001", proto)
	}
	c.version = "1001"
	c.header = append(c.header, formats.HeaderField{Name: "protocol_version", Offset: int64(protoAt), Size: u.pos - protoAt, Value: pv})
	infoAt := u.pos
	info, _, err := next("sys_info")
	if err != nil {
		return c, err
	}
	c.header = append(c.header, formats.HeaderField{Name: "sys_info", Offset: int64(infoAt), Size: u.pos - infoAt, Value: "dict"})
	if d, ok := info.(*pyDict); ok {
		if le, ok := d.get("little_endian"); ok && le == false {
			c.bigEnd = true
		}
		c.facts = append(c.facts, metaOf("sys_info", info, newMetaBuilder(int64(len(src.Data))), 0))
	}
	objAt := u.pos
	u.persistent = func(pid any, at int64) (any, error) {
		if t, ok := pid.(*pyTuple); ok && len(t.items) > 1 && t.items[0] == "module" {
			// torch.save(model) in the legacy format records each module
			// class with its source: shown, never loaded.
			o := &pyObject{class: "module class " + typeName(t.items[1]), args: t.items[2:], depth: 1}
			return o, nil
		}
		return legacyStorage(c, pid, at)
	}
	root, _, err := next("object")
	if err != nil {
		return c, err
	}
	c.root, c.unknown = root, u.unknown
	c.header = append(c.header, formats.HeaderField{Name: "object pickle", Offset: int64(objAt), Size: u.pos - objAt,
		Value: fmt.Sprintf("%d bytes", u.pos-objAt)})
	u.persistent = nil
	keysAt := u.pos
	keys, _, err := next("storage keys")
	if err != nil {
		return c, err
	}
	keyList, ok := items(keys)
	if !ok {
		return c, formats.Errorf(int64(keysAt), "storage keys are a %s, expected a list", typeName(keys))
	}
	c.header = append(c.header, formats.HeaderField{Name: "storage keys", Offset: int64(keysAt), Size: u.pos - keysAt,
		Value: fmt.Sprintf("%d storages", len(keyList))})
	var order binary.ByteOrder = binary.LittleEndian
	if c.bigEnd {
		order = binary.BigEndian
	}
	pos := int64(u.pos)
	for _, k := range keyList {
		key, _ := k.(string)
		b := c.blobs[key]
		if b == nil {
			return c, formats.Errorf(pos, "storage key %v is not one the object pickle names: its size is unknown", k)
		}
		if pos+8 > int64(len(src.Data)) {
			b.missing = "the file ends before this storage"
			return c, formats.Errorf(pos, "storage %q: the file ends before its length (8 bytes)", key)
		}
		n := int64(order.Uint64(src.Data[pos:]))
		es := int64(b.elemSize)
		if n < 0 || es == 0 || n > (int64(len(src.Data))-pos-8)/es {
			return c, formats.Errorf(pos, "storage %q: %d elements of %d bytes do not fit in the %d bytes left", key, n, es, int64(len(src.Data))-pos-8)
		}
		b.at, b.size = pos+8, n*es
		b.st = tensor.NewStorage(src.Data[b.at : b.at+b.size])
		pos = b.at + b.size
	}
	for _, b := range c.blobs {
		if b.st == nil && b.missing == "" {
			b.missing = fmt.Sprintf("storage %q is not in the file's storage list", b.key)
			c.warn(-1, "%s", b.missing)
		}
	}
	if pos < int64(len(src.Data)) {
		c.warn(pos, "%d bytes after the last storage are not read", int64(len(src.Data))-pos)
	}
	c.facts = append([]*formats.Meta{formats.Leaf("container", "legacy (torch.save with _use_new_zipfile_serialization=False)")}, c.facts...)
	return c, nil
}

// legacyStorage resolves ('storage', type, root_key, location, numel,
// view_metadata). view_metadata (very old files) is (view_key, offset,
// size): a view of the root storage.
func legacyStorage(c *checkpoint, pid any, at int64) (*pyStorage, error) {
	its, ok := pid.(*pyTuple)
	if !ok || len(its.items) < 5 {
		return nil, formats.Errorf(at, "pickle: persistent id is a %s, expected ('storage', type, key, location, numel, view)", typeName(pid))
	}
	if tag, _ := its.items[0].(string); tag != "storage" {
		return nil, formats.Errorf(at, "pickle: persistent id of kind %q, expected \"storage\"", tag)
	}
	st, ok := its.items[1].(*pyStorageType)
	if !ok {
		return nil, formats.Errorf(at, "pickle: storage type is a %s, expected a torch storage class", typeName(its.items[1]))
	}
	key, ok := its.items[2].(string)
	if !ok {
		return nil, formats.Errorf(at, "pickle: storage key is a %s, expected a str", typeName(its.items[2]))
	}
	location, _ := its.items[3].(string)
	numel, ok := asInt(its.items[4])
	if !ok || numel < 0 {
		return nil, formats.Errorf(at, "pickle: storage %q: its length is %v", key, its.items[4])
	}
	b := c.blobs[key]
	if b == nil {
		b = &blob{key: key, at: -1, elemSize: st.elem.size}
		c.blobs[key] = b
	}
	s := &pyStorage{key: key, elem: st.elem, location: location, numel: numel, at: at, blob: b}
	if len(its.items) > 5 && its.items[5] != nil {
		vm, ok := items(its.items[5])
		if !ok || len(vm) < 3 {
			return nil, formats.Errorf(at, "pickle: storage %q: view metadata is a %s", key, typeName(its.items[5]))
		}
		off, ok1 := asInt(vm[1])
		n, ok2 := asInt(vm[2])
		if !ok1 || !ok2 || off < 0 || n < 0 {
			return nil, formats.Errorf(at, "pickle: storage %q: view metadata (%v, %v)", key, vm[1], vm[2])
		}
		s.root, s.elemOffset, s.numel = &pyStorage{key: key, elem: st.elem, numel: numel, blob: b}, off, n
	}
	return s, nil
}
