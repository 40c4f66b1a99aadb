package tsm

import (
	"bytes"

	"tensorscope/formats"
)

var tsmFormat = &formats.Format{
	ID:         "tsm",
	Name:       "TenniS module",
	Extensions: []string{".tsm"},
	Sniff:      sniffTSM,
}

var cstaFormat = &formats.Format{
	ID:         "csta",
	Name:       "SeetaFace6 model (.csta)",
	Extensions: []string{".csta"},
	Sniff:      sniffCSTA,
}

func init() {
	// Set here: the decoders refer back to their formats.
	tsmFormat.Decode = decodeTSM
	cstaFormat.Decode = decodeCSTA
	formats.Register(tsmFormat)
	formats.Register(cstaFormat)
}

// magicBytes is Magic as stored, at byte 4 of a module.
var magicBytes = []byte{0x29, 0x09, 0x91, 0x19}

func sniffTSM(data []byte) bool { return len(data) >= 8 && bytes.Equal(data[4:8], magicBytes) }

func sniffCSTA(data []byte) bool { return len(data) >= 4 && string(data[:4]) == cstaMask }

func decodeTSM(src *formats.Source) (*formats.Document, error) {
	m, end, err := Decode(src.Data)
	if err != nil {
		return nil, err
	}
	doc := src.NewDocument(tsmFormat, "1")
	fillDocument(doc, m, place{storage: src.Storage})
	if rest := int64(len(src.Data)) - end; rest > 0 {
		doc.Warn(end, "%d bytes after the last node are not part of the module", rest)
	}
	return doc, nil
}
