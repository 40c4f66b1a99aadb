package tsm

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"tensorscope/formats"
)

// The SeetaFace "STA" piece tree that .csta files hold: every piece starts
// with a type byte.
const (
	pieceNil     = 0
	pieceInt     = 1 // i32
	pieceFloat   = 2 // f32
	pieceString  = 3 // u32 length + bytes
	pieceBinary  = 4 // u32 length + bytes
	pieceList    = 5 // u32 count + pieces
	pieceDict    = 6 // u32 count + (u32 length + key bytes, piece) pairs
	pieceBoolean = 7 // one byte
)

// Limits that keep a hostile tree from exhausting the stack or memory.
const (
	maxPieceDepth = 64
	maxMetaNodes  = 100000 // metadata entries shown; the rest is only walked
	maxInlineBin  = 64     // binary pieces up to this size are shown as bytes
)

// span is a byte range of the decrypted buffer.
type span struct{ off, len int64 }

// pieceParser reads a piece tree into a formats.Meta tree. Offsets are in
// the decrypted buffer.
type pieceParser struct {
	r        *formats.Reader
	nodes    int
	overflow int64     // offset of the first piece not shown, -1 when all are
	keys     [3]string // dict keys leading to the current piece, depths 1 and 2
	backbone *span     // dict["backbone"]["tsm"], when it is a binary piece
	fileBase int64     // file offset of decrypted byte 0, for descriptions
}

func parsePieces(r *formats.Reader, fileBase int64) (*formats.Meta, *pieceParser) {
	p := &pieceParser{r: r, overflow: -1, fileBase: fileBase}
	root := p.piece("", 0)
	return root, p
}

// piece reads one piece; it returns nil when the piece is beyond the
// metadata budget (it is still read, so the structure is still checked).
func (p *pieceParser) piece(name string, depth int) *formats.Meta {
	r := p.r
	at := r.Offset()
	kind := r.U8("piece type")
	if r.Err() != nil {
		return nil
	}
	if depth > maxPieceDepth {
		r.Failf(at, "pieces nested more than %d deep", maxPieceDepth)
		return nil
	}
	show := p.nodes < maxMetaNodes
	if show {
		p.nodes++
	} else if p.overflow < 0 {
		p.overflow = at
	}
	leaf := func(v any) *formats.Meta {
		if !show {
			return nil
		}
		return formats.Leaf(name, v)
	}
	switch kind {
	case pieceNil:
		return leaf(nil)
	case pieceInt:
		return leaf(int64(r.I32("int piece")))
	case pieceFloat:
		return leaf(shortFloat(r.F32("float piece")))
	case pieceString:
		n := r.Count(1, "string piece length")
		b := r.Bytes(int64(n), "string piece")
		if !show {
			return nil
		}
		return leaf(string(b))
	case pieceBinary:
		n := r.Count(1, "binary piece length")
		s := span{r.Offset(), int64(n)}
		b := r.Bytes(int64(n), "binary piece")
		if r.Err() != nil {
			return nil
		}
		if depth == 2 && p.backbone == nil && p.keys[1] == "backbone" && p.keys[2] == "tsm" {
			p.backbone = &s
		}
		if !show {
			return nil
		}
		if n <= maxInlineBin {
			return formats.Leaf(name, formats.Bytes(b))
		}
		return formats.Leaf(name, fmt.Sprintf("%d bytes of binary data at file byte %d", n, p.fileBase+s.off))
	case pieceList:
		n := r.Count(1, "list piece count")
		var m *formats.Meta
		if show {
			m = formats.NewList(name)
		}
		p.setKey(depth+1, "") // list items have no key
		for i := 0; i < n && r.Err() == nil; i++ {
			name := ""
			if m != nil && p.nodes < maxMetaNodes {
				name = strconv.Itoa(i)
			}
			if c := p.piece(name, depth+1); m != nil && c != nil {
				m.Add(c)
			}
		}
		return m
	case pieceDict:
		n := r.Count(5, "dict piece count")
		var m *formats.Meta
		if show {
			m = formats.NewObject(name)
		}
		for i := 0; i < n && r.Err() == nil; i++ {
			kn := r.Count(1, "dict key length")
			kb := r.Bytes(int64(kn), "dict key")
			if r.Err() != nil {
				break
			}
			key := ""
			if (m != nil && p.nodes < maxMetaNodes) || depth < 2 {
				key = string(kb)
			}
			p.setKey(depth+1, key)
			if c := p.piece(key, depth+1); m != nil && c != nil {
				m.Add(c)
			}
		}
		return m
	case pieceBoolean:
		return leaf(r.U8("boolean piece") != 0)
	}
	r.Failf(at, "unknown piece type %d (expected 0..7: nil, int, float, string, binary, list, dict, boolean)", kind)
	return nil
}

func (p *pieceParser) setKey(depth int, key string) {
	if depth < len(p.keys) {
		p.keys[depth] = key
	}
}

// shortFloat widens f to the float64 whose shortest decimal is f's, so 0.9
// reads as 0.9 rather than 0.8999999761581421; narrowing it back gives f.
func shortFloat(f float32) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

// writePieces writes m as a piece tree: leaves by their Go type (nil, bool,
// int/int64 as i32, float32/float64 as f32, string, formats.Bytes or []byte
// as binary), lists and objects as list and dict pieces.
func writePieces(w io.Writer, m *formats.Meta, depth int) error {
	if depth > maxPieceDepth {
		return fmt.Errorf("tsm: metadata nested more than %d deep", maxPieceDepth)
	}
	var b []byte
	if !m.IsLeaf() {
		kind := byte(pieceDict)
		if m.List {
			kind = pieceList
		}
		b = binary.LittleEndian.AppendUint32(append(b, kind), uint32(len(m.Children)))
		if _, err := w.Write(b); err != nil {
			return err
		}
		for _, c := range m.Children {
			if !m.List {
				kb := binary.LittleEndian.AppendUint32(nil, uint32(len(c.Name)))
				if _, err := w.Write(append(kb, c.Name...)); err != nil {
					return err
				}
			}
			if err := writePieces(w, c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	switch v := m.Value.(type) {
	case nil:
		b = append(b, pieceNil)
	case bool:
		x := byte(0)
		if v {
			x = 1
		}
		b = append(b, pieceBoolean, x)
	case int:
		return writePieces(w, formats.Leaf(m.Name, int64(v)), depth)
	case int64:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return fmt.Errorf("tsm: metadata %q: %d does not fit an int piece", m.Name, v)
		}
		b = binary.LittleEndian.AppendUint32(append(b, pieceInt), uint32(int32(v)))
	case float32:
		b = binary.LittleEndian.AppendUint32(append(b, pieceFloat), math.Float32bits(v))
	case float64:
		b = binary.LittleEndian.AppendUint32(append(b, pieceFloat), math.Float32bits(float32(v)))
	case string:
		b = binary.LittleEndian.AppendUint32(append(b, pieceString), uint32(len(v)))
		b = append(b, v...)
	case formats.Bytes:
		b = binary.LittleEndian.AppendUint32(append(b, pieceBinary), uint32(len(v)))
		b = append(b, v...)
	case []byte:
		return writePieces(w, formats.Leaf(m.Name, formats.Bytes(v)), depth)
	default:
		return fmt.Errorf("tsm: metadata %q: a %T cannot be written as a piece", m.Name, v)
	}
	_, err := w.Write(b)
	return err
}
