package tmfile

import (
	"encoding/binary"
	"fmt"

	"tensorscope/formats"
)

// Format is the registered tmfile codec.
var Format = newFormat()

func newFormat() *formats.Format {
	return &formats.Format{
		ID:         "tmfile",
		Name:       "Tengine tmfile",
		Extensions: []string{".tmfile"},
		// tmfiles have no magic number: sniff them after the formats that do.
		Priority: 100,
		Sniff:    Sniff,
	}
}

func init() {
	Format.Decode = decodeDocument
	formats.Register(Format)
}

// Sniff reports whether data starts like a TM2 file: ver_main 2, a small
// ver_sub, and a root table and subgraph vector inside the file.
func Sniff(data []byte) bool {
	if len(data) < headerSize+modelSize {
		return false
	}
	le := binary.LittleEndian
	if le.Uint16(data[0:]) != 2 || le.Uint16(data[2:]) >= 4 {
		return false
	}
	root := uint64(le.Uint32(data[8:]))
	if root < headerSize || root+modelSize > uint64(len(data)) {
		return false
	}
	vSub := uint64(le.Uint32(data[root+8:]))
	return vSub >= headerSize && vSub+4 <= uint64(len(data))
}

func decodeDocument(src *formats.Source) (*formats.Document, error) {
	m, idx, warns, err := parse(src.Data)
	if err != nil {
		return nil, err
	}
	doc := src.NewDocument(Format, fmt.Sprintf("%d.%d.%d", m.VerMain, m.VerSub, m.VerCompile))
	doc.Warnings = append(doc.Warnings, warns...)
	b := &docBuilder{doc: doc, src: src, m: m, idx: idx}
	b.build()
	return doc, nil
}
