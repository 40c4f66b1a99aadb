package tsm

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"tensorscope/formats"
)

// Encode writes m as a .tsm file. It refuses a module the decoder would
// refuse — node indices out of range, a cycle, a field whose data length
// does not match its prototype — so every file it writes reads back.
func Encode(w io.Writer, m *Module) error {
	if err := Validate(m); err != nil {
		return err
	}
	return writeModule(w, m)
}

// Validate checks what Encode checks.
func Validate(m *Module) error {
	for i := range m.Nodes {
		if err := checkOp(&m.Nodes[i]); err != nil {
			return fmt.Errorf("tsm: node %d: %s", i, err.(*formats.Error).Msg)
		}
		for j := range m.Nodes[i].Params {
			p := &m.Nodes[i].Params[j]
			if len(p.Name) > math.MaxInt32 {
				return fmt.Errorf("tsm: node %d parameter %d: name too long", i, j)
			}
			for k := range p.Fields {
				if err := checkField(&p.Fields[k]); err != nil {
					return fmt.Errorf("tsm: node %d parameter %q field %d: %w", i, p.Name, k, err)
				}
			}
		}
	}
	if err := checkGraph(m, false); err != nil {
		return fmt.Errorf("tsm: %w", err)
	}
	return nil
}

func checkField(t *Tensor) error {
	size, ok := t.DType.Size()
	if !ok {
		return fmt.Errorf("unknown dtype code %d", uint8(t.DType))
	}
	n := int64(1)
	for _, d := range t.Shape {
		if d < 0 || d > math.MaxInt32 {
			return fmt.Errorf("dimension %d does not fit an int32 dimension", d)
		}
		if d != 0 && n > (1<<48)/int64(d) {
			return fmt.Errorf("shape %v has more than 2^48 elements", t.Shape)
		}
		n *= int64(d)
	}
	if want := n * int64(size); int64(len(t.Data)) != want {
		return fmt.Errorf("%s holds %d bytes, its prototype needs %d", describe(t.DType, t.Shape), len(t.Data), want)
	}
	return nil
}

// writeModule writes without validation (tests use it to build the broken
// files the decoder must refuse).
func writeModule(w io.Writer, m *Module) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	e := encoder{w: bw}
	e.u32(m.Fake)
	e.u32(m.Code)
	e.bytes(m.User[:])
	e.indices(m.Inputs)
	e.indices(m.Outputs)
	e.u32(uint32(len(m.Nodes)))
	for i := range m.Nodes {
		n := &m.Nodes[i]
		e.u32(uint32(len(n.Params)))
		for j := range n.Params {
			p := &n.Params[j]
			e.u32(uint32(len(p.Name)))
			e.bytes([]byte(p.Name))
			e.u32(uint32(len(p.Fields)))
			for k := range p.Fields {
				t := &p.Fields[k]
				e.bytes([]byte{byte(t.DType)})
				e.u32(uint32(len(t.Shape)))
				for _, d := range t.Shape {
					e.u32(uint32(d))
				}
				e.bytes(t.Data)
			}
		}
		e.indices(n.Inputs)
	}
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

type encoder struct {
	w   *bufio.Writer
	buf [4]byte
	err error
}

func (e *encoder) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u32(v uint32) {
	binary.LittleEndian.PutUint32(e.buf[:], v)
	e.bytes(e.buf[:])
}

func (e *encoder) indices(idx []int) {
	e.u32(uint32(len(idx)))
	for _, v := range idx {
		e.u32(uint32(v))
	}
}

// describe spells a prototype as "FLOAT32[64,3,3,3]" ("INT32[]" for a scalar).
func describe(d DType, shape []int) string {
	b := []byte(d.String())
	b = append(b, '[')
	for i, s := range shape {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", s)
	}
	return string(append(b, ']'))
}
