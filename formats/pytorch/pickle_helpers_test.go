package pytorch

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// pk writes pickle programs by hand, for files torch would never write.
type pk struct{ bytes.Buffer }

func (p *pk) op(b ...byte) *pk { p.Write(b); return p }

func (p *pk) proto(n byte) *pk { return p.op(opProto, n) }

func (p *pk) global(mod, name string) *pk {
	p.WriteByte(opGlobal)
	p.WriteString(mod + "\n" + name + "\n")
	return p
}

func (p *pk) str(s string) *pk {
	p.WriteByte(opBinUnicode)
	binary.Write(p, binary.LittleEndian, uint32(len(s)))
	p.WriteString(s)
	return p
}

func (p *pk) int(n int32) *pk {
	p.WriteByte(opBinInt)
	binary.Write(p, binary.LittleEndian, n)
	return p
}

func (p *pk) long(n int64) *pk {
	p.op(opLong1, 8)
	binary.Write(p, binary.LittleEndian, n)
	return p
}

// ints pushes a tuple of ints.
func (p *pk) ints(ns ...int64) *pk {
	p.op(opMark)
	for _, n := range ns {
		p.long(n)
	}
	return p.op(opTuple)
}

// tensor pushes _rebuild_tensor_v2(('storage', cls, key, 'cpu', numel),
// offset, size, stride, False, OrderedDict()).
func (p *pk) tensor(cls, key string, numel, offset int64, size, stride []int64) *pk {
	p.global("torch._utils", "_rebuild_tensor_v2")
	p.op(opMark)
	p.op(opMark).str("storage").global("torch", cls).str(key).str("cpu").long(numel).op(opTuple, opBinPersID)
	p.long(offset)
	p.ints(size...)
	p.ints(stride...)
	p.op(opNewFalse)
	p.global("collections", "OrderedDict").op(opEmptyTuple, opReduce)
	return p.op(opTuple, opReduce)
}

// dict1 pushes {key: <what push writes>}.
func (p *pk) dict1(key string, push func(*pk)) *pk {
	p.op(opEmptyDict).str(key)
	push(p)
	return p.op(opSetItem)
}

func (p *pk) stop() []byte { p.WriteByte(opStop); return p.Bytes() }

// zipMember is one member of a test archive.
type zipMember struct {
	name string
	data []byte
	// raw, when set, is written as the member's compressed bytes with
	// the sizes below (a lying or bomb member).
	raw          []byte
	deflate      bool
	declaredSize uint64
}

// zipFile builds an archive of members, stored unless deflate is set.
func zipFile(t testing.TB, members ...zipMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		if m.raw != nil {
			h := &zip.FileHeader{Name: m.name, Method: zip.Deflate, CompressedSize64: uint64(len(m.raw)),
				UncompressedSize64: m.declaredSize, CRC32: crc32.ChecksumIEEE(m.data)}
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(m.raw)
			continue
		}
		method := zip.Store
		if m.deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkpointZip wraps a data.pkl and storages in torch's zip layout.
func checkpointZip(t testing.TB, pickle []byte, storages map[string][]byte) []byte {
	t.Helper()
	ms := []zipMember{{name: "archive/data.pkl", data: pickle}}
	for k, v := range storages {
		ms = append(ms, zipMember{name: "archive/data/" + k, data: v})
	}
	ms = append(ms, zipMember{name: "archive/version", data: []byte("3\n")})
	return zipFile(t, ms...)
}

// legacyFile wraps an object pickle and storages in the legacy layout.
func legacyFile(obj []byte, keys []string, storages map[string][]byte, elemSize int) []byte {
	var b bytes.Buffer
	b.Write(new(pk).proto(2).op(opLong1, 10).op(legacyMagic...).stop())
	b.Write(new(pk).proto(2).int(1001).stop())
	b.Write(new(pk).proto(2).op(opEmptyDict).str("little_endian").op(opNewTrue, opSetItem).stop())
	b.Write(obj)
	kp := new(pk).proto(2).op(opEmptyList, opMark)
	for _, k := range keys {
		kp.str(k)
	}
	b.Write(kp.op(opAppends).stop())
	for _, k := range keys {
		binary.Write(&b, binary.LittleEndian, int64(len(storages[k])/elemSize))
		b.Write(storages[k])
	}
	return b.Bytes()
}

func f32s(vs ...float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, vs)
	return b.Bytes()
}
