package tsr

import (
	"bytes"

	"tensorscope/formats"
)

var (
	v1Format = &formats.Format{
		ID:         "tsr",
		Name:       "TSR v1 tensor file",
		Extensions: []string{".tsr"},
		Sniff:      func(b []byte) bool { return bytes.HasPrefix(b, []byte(magicV1)) },
	}
	v3Format = &formats.Format{
		ID:         "tsr3",
		Name:       "TSR3 tensor file",
		Extensions: []string{".tsr"},
		Sniff:      func(b []byte) bool { return bytes.HasPrefix(b, []byte(magicV3)) },
	}
	v4Format = &formats.Format{
		ID:         "tsr4",
		Name:       "TSR4 tensor container",
		Extensions: []string{".tsr"},
		Sniff:      func(b []byte) bool { return bytes.HasPrefix(b, []byte(magicV4)) },
	}
)

func init() {
	// Decode is set here: the decoders refer to their Format, which a
	// composite literal cannot do without an initialisation cycle.
	v1Format.Decode = decodeV1
	v3Format.Decode = decodeV3
	v4Format.Decode = decodeV4
	v1Format.Encoder = encoder
	formats.Register(v1Format)
	formats.Register(v3Format)
	formats.Register(v4Format)
}
