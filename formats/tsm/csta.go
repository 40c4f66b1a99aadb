package tsm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// SeetaFace6 .csta: the ASCII mask "fast", then the rest XORed 8 bytes at
// a time with the little-endian int64 126236971997119. Decrypted, it is
// the container code 0x19910929, a piece tree, and a PKCS#7-style pad to a
// multiple of 16 bytes (pad length 1..16, every pad byte equal to it).
const (
	cstaMask    = "fast"
	cstaKey     = uint64(126236971997119) // bytes bf 97 df d5 cf 72 00 00
	cstaBlock   = 16
	cstaHdrSize = 4 // the mask
)

// xorFast applies the "fast" XOR (its own inverse) from src into dst.
func xorFast(dst, src []byte) {
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[i:])^cstaKey)
	}
	var key [8]byte
	binary.LittleEndian.PutUint64(key[:], cstaKey)
	for i := n; i < len(src); i++ {
		dst[i] = src[i] ^ key[i-n]
	}
}

func unsupportedCSTA(offset int64, format string, args ...any) error {
	return formats.Errorf(offset, "unsupported or encrypted .csta variant: "+format, args...)
}

// shiftError moves an error's offset from a decrypted or embedded position
// to the file position and says where it happened.
func shiftError(err error, by int64, where string) error {
	var fe *formats.Error
	if errors.As(err, &fe) {
		if fe.Offset >= 0 {
			fe.Msg = fmt.Sprintf("%s byte %d: %s", where, fe.Offset, fe.Msg)
			fe.Offset += by
		} else {
			fe.Msg = where + ": " + fe.Msg
		}
		return fe
	}
	return err
}

func decodeCSTA(src *formats.Source) (*formats.Document, error) {
	data := src.Data
	if len(data) < cstaHdrSize || string(data[:cstaHdrSize]) != cstaMask {
		n := min(len(data), cstaHdrSize)
		return nil, unsupportedCSTA(0, "expected the mask %q at byte 0, found %q", cstaMask, data[:n])
	}
	// One buffer, no larger than the file, holds the decrypted tree; the
	// module's tensors view it.
	plain := make([]byte, len(data)-cstaHdrSize)
	xorFast(plain, data[cstaHdrSize:])
	if len(plain) < 4 {
		r := formats.NewReader(plain)
		r.U32("container code")
		return nil, shiftError(r.Err(), cstaHdrSize, "decrypted")
	}
	if code := binary.LittleEndian.Uint32(plain); code != Magic {
		return nil, unsupportedCSTA(cstaHdrSize,
			"after the \"fast\" XOR the container code is 0x%08x, expected 0x%08x; this file uses another mask or key", code, Magic)
	}

	doc := src.NewDocument(cstaFormat, "fast")
	doc.Header = append(doc.Header,
		formats.HeaderField{Name: "mask", Offset: 0, Size: 4, Value: cstaMask,
			Meaning: "SeetaFace6 \"fast\" obfuscation: the rest is XORed with bf 97 df d5 cf 72 00 00"},
		formats.HeaderField{Name: "container code", Offset: 4, Size: 4, Value: Magic,
			Meaning: "decrypted value: a SeetaFace piece tree follows"})
	doc.HeaderSpan = formats.Span{Offset: 0, Len: 8}

	treeEnd := int64(len(plain))
	pad := int(plain[len(plain)-1])
	var padField *formats.HeaderField
	switch {
	case pad < 1 || pad > cstaBlock || pad > len(plain)-4 ||
		!bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)):
		doc.Warn(int64(len(data))-1, "the decrypted data does not end in a valid padding (last byte %d); reading to the end", pad)
	default:
		treeEnd -= int64(pad)
		padField = &formats.HeaderField{Name: "padding", Offset: cstaHdrSize + treeEnd, Size: pad,
			Value: uint8(pad), Meaning: fmt.Sprintf("decrypted: %d bytes of value %d padding to a multiple of %d", pad, pad, cstaBlock)}
		if len(plain)%cstaBlock != 0 {
			doc.Warn(-1, "the decrypted data is %d bytes, not a multiple of %d", len(plain), cstaBlock)
		}
	}

	r := formats.NewReader(plain[:treeEnd])
	r.Skip(4, "container code")
	root, pp := parsePieces(r, cstaHdrSize)
	if err := r.Err(); err != nil {
		return nil, shiftError(err, cstaHdrSize, "decrypted")
	}
	if r.Offset() < treeEnd {
		doc.Warn(cstaHdrSize+r.Offset(), "%d bytes after the piece tree, before the padding, are not part of it", treeEnd-r.Offset())
	}
	if pp.overflow >= 0 {
		doc.Warn(cstaHdrSize+pp.overflow, "the piece tree has more than %d entries; only the first are shown", maxMetaNodes)
	}
	if pp.backbone == nil {
		return nil, formats.Errorf(cstaHdrSize+4, "the piece tree has no binary backbone.tsm entry holding the TenniS module")
	}
	bb := *pp.backbone
	if leaf := root.Child("backbone").Child("tsm"); leaf != nil {
		leaf.Value = fmt.Sprintf("TenniS module, %d bytes at file byte %d (shown as the graph)", bb.len, cstaHdrSize+bb.off)
	}
	doc.Metadata = root
	doc.Header = append(doc.Header, formats.HeaderField{Name: "backbone.tsm", Offset: cstaHdrSize + bb.off, Size: int(bb.len),
		Value: uint32(bb.len), Meaning: "the embedded TenniS module (decrypted), decoded as the graph"})

	module := plain[bb.off : bb.off+bb.len]
	m, end, err := Decode(module)
	if err != nil {
		return nil, shiftError(err, cstaHdrSize+bb.off, "embedded module")
	}
	fillDocument(doc, m, place{
		fileBase:    cstaHdrSize + bb.off,
		storage:     tensor.NewStorage(plain),
		storageBase: bb.off,
		embedded:    true,
	})
	if padField != nil {
		doc.Header = append(doc.Header, *padField)
	}
	if end < bb.len {
		doc.Warn(cstaHdrSize+bb.off+end, "%d bytes after the embedded module's last node are not part of it", bb.len-end)
	}
	return doc, nil
}

// EncodeCSTA writes a "fast" .csta file whose piece tree is root: an object
// (dict) whose entry backbone.tsm should be a formats.Bytes leaf holding an
// encoded module. Leaves are written by Go type: nil, bool, int/int64 (as
// i32), float32/float64 (as f32), string, formats.Bytes (binary).
func EncodeCSTA(w io.Writer, root *formats.Meta) error {
	var plain bytes.Buffer
	plain.Write(binary.LittleEndian.AppendUint32(nil, Magic))
	if err := writePieces(&plain, root, 0); err != nil {
		return err
	}
	pad := cstaBlock - plain.Len()%cstaBlock
	plain.Write(bytes.Repeat([]byte{byte(pad)}, pad))
	out := make([]byte, cstaHdrSize+plain.Len())
	copy(out, cstaMask)
	xorFast(out[cstaHdrSize:], plain.Bytes())
	_, err := w.Write(out)
	return err
}
