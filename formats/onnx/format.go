package onnx

import (
	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
)

// Format is the registered ONNX codec.
var Format = &formats.Format{
	ID:         "onnx",
	Name:       "ONNX model",
	Extensions: []string{".onnx"},
	// ONNX has no magic number: sniff it after the formats that have one.
	Priority: 90,
	Sniff:    Sniff,
}

func init() {
	Format.Decode = decode
	formats.Register(Format)
}

// modelFieldTypes are ModelProto's fields and their wire types.
var modelFieldTypes = map[protowire.Number]protowire.Type{
	1: protowire.VarintType, 2: protowire.BytesType, 3: protowire.BytesType, 4: protowire.BytesType,
	5: protowire.VarintType, 6: protowire.BytesType, 7: protowire.BytesType, 8: protowire.BytesType,
	14: protowire.BytesType, 20: protowire.BytesType, 25: protowire.BytesType, 26: protowire.BytesType,
}

// sniffFields is how many leading fields Sniff checks.
const sniffFields = 8

// Sniff reports whether data starts like a ModelProto: its first fields
// are ModelProto fields with their declared wire types and lengths that
// fit in the file, and one of them is ir_version or the graph.
func Sniff(data []byte) bool {
	b := data
	sawKey := false
	for i := 0; i < sniffFields && len(b) > 0; i++ {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		want, known := modelFieldTypes[num]
		if !known || want != typ {
			return false
		}
		if num == 1 || num == 7 {
			sawKey = true
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return false
		}
		b = b[n+m:]
	}
	return sawKey
}

// builder holds what decoding one file needs across graphs.
type builder struct {
	doc *formats.Document
	src *formats.Source
	// The name table (names.go).
	names     map[string]nameID
	nameText  []string
	tensorOf  []int32   // per name: its first document tensor
	initOf    []initRef // per name: the initializer in scope
	valueOf   []int32   // per name: its value in the graph being built
	shards    map[string]*formats.Shard
	shardErr  map[string]error
	shardSize map[string]int64
	attrCache map[int64][]formats.Attr // shared tensor attributes, see typeAttrs
	// Decoding nodes: attributes shared by their encoding (see plain) and
	// their int lists converted once (see intsOf), scratch lists for a
	// node's names, and the arenas nodes and their lists end in.
	sharedAttrs                 map[string]formats.Attr
	intsCache                   map[*int64][]int
	scratchIns, scratchOuts     []string
	scratchInIDs, scratchOutIDs []nameID
	nodeArena                   arena[nodeProto]
	nameArena                   arena[string]
	idArena                     arena[nameID]
	attrArena                   arena[formats.Attr]
	mem                         *decodeMemory // names and dims (see msg.mem)
	warnings                    int
	suppressed                  int
}

// maxWarnings keeps a hostile file from listing millions of warnings.
const maxWarnings = 200

func (b *builder) warn(offset int64, format string, args ...any) {
	b.warnings++
	if b.warnings > maxWarnings {
		b.suppressed++
		return
	}
	b.doc.Warn(offset, format, args...)
}

func decode(src *formats.Source) (*formats.Document, error) {
	b := &builder{
		doc:         src.NewDocument(Format, ""),
		src:         src,
		names:       map[string]nameID{},
		shards:      map[string]*formats.Shard{},
		shardErr:    map[string]error{},
		shardSize:   map[string]int64{},
		attrCache:   map[int64][]formats.Attr{},
		sharedAttrs: map[string]formats.Attr{},
		mem:         &decodeMemory{},
		intsCache:   map[*int64][]int{},
	}
	// On failure nothing needs closing: shards are mapped on first Load,
	// and opening loads nothing from them (see readSmall).
	if err := b.model(msg{data: src.Data, start: 0, end: int64(len(src.Data)), mem: b.mem}); err != nil {
		return nil, err
	}
	if b.suppressed > 0 {
		b.doc.Warn(-1, "%d more warnings are not listed", b.suppressed)
	}
	return b.doc, nil
}
