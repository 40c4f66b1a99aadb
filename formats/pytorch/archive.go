package pytorch

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
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

// warnErr warns of err at the byte it names, if any.
func (c *checkpoint) warnErr(err error) {
	var fe *formats.Error
	if errors.As(err, &fe) {
		c.warn(fe.Offset, "%s", fe.Msg)
		return
	}
	c.warn(-1, "%v", err)
}

// blob is a storage's bytes in the file: a stored member or a legacy
// record viewed in place, or a deflated member inflated on first use.
type blob struct {
	key     string
	at      int64 // file offset of its first byte; -1 when compressed
	size    int64 // bytes
	st      *tensor.Storage
	inf     *zipfile.Inflater
	missing string // why the file holds no bytes for it

	elemSize int // legacy: bytes per element of the storage's type
}

// storage returns the storage holding the blob's bytes (exactly them).
func (b *blob) storage(ctx context.Context) (*tensor.Storage, error) {
	if b.inf != nil {
		st, err := b.inf.Inflate(ctx)
		if err != nil && ctx.Err() == nil {
			return nil, prefixError(fmt.Sprintf("storage %q", b.key), err)
		}
		return st, err
	}
	return b.st, nil
}

// codeFile is one TorchScript source file.
type codeFile struct {
	name string // relative to the archive folder, e.g. code/__torch__.py
	text string
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
		case m.zm.Method == zipfile.Store:
			if !m.storedIn(src.Data) {
				b.missing = fmt.Sprintf("member %q of %d bytes does not fit in the file", m.name, m.size)
			} else {
				b.at, b.size = m.at, m.size
				b.st = tensor.NewStorage(src.Data[m.at : m.at+m.size])
			}
		case m.zm.Method == zipfile.Deflate:
			if inf, err := m.inflater(doc, src); err != nil {
				b.missing = err.(*formats.Error).Msg
			} else {
				b.size, b.inf = m.size, inf
			}
		default:
			b.missing = fmt.Sprintf("member %q: compression method %d (expected 0 stored or 8 deflate)", m.name, m.zm.Method)
		}
		if b.missing != "" {
			c.warn(at, "%s", b.missing)
		}
	}
	c.pending = c.pending[:0]
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
