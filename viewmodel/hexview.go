package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/formats"
)

// Hex dump geometry, in the style of `hexdump -C`:
//
//	00000000  54 53 52 21 01 00 00 00  40 00 00 00 00 00 00 00  |TSR!....@.......|
const (
	HexBytesPerRow = 16
	hexFirstCol    = 10
	asciiFirstCol  = 61
	// HexLineWidth is the number of characters in a hex dump line.
	HexLineWidth = asciiFirstCol + HexBytesPerRow + 1
	// maxHexWindow bounds the bytes shown at once.
	maxHexWindow = 64 << 10
	// minHexWindow is shown even for tiny headers, so that the bytes that
	// follow are visible too.
	minHexWindow = 256
)

// HexCol is the column of the first hex digit of byte i (0..15) of a row.
func HexCol(i int) int {
	c := hexFirstCol + 3*i
	if i >= 8 {
		c++
	}
	return c
}

// ASCIICol is the column of byte i's character in the ASCII gutter.
func ASCIICol(i int) int { return asciiFirstCol + i }

// HeaderView is the header pane's state: the header fields and a window of
// the file's bytes shown as a hex dump, with the selected field's bytes
// highlighted.
type HeaderView struct {
	Fields   []formats.HeaderField
	data     []byte
	start    int64 // window start, a multiple of 16
	end      int64
	Selected int // field index, -1 for none
}

// NewHeaderView shows the document's header span.
func NewHeaderView(d *formats.Document) *HeaderView {
	h := &HeaderView{Fields: d.Header, data: d.Bytes(), Selected: -1}
	span := d.HeaderSpan
	if span.Len <= 0 && len(d.Header) > 0 {
		last := d.Header[len(d.Header)-1]
		span = formats.Span{Offset: d.Header[0].Offset, Len: last.Offset + int64(last.Size) - d.Header[0].Offset}
	}
	h.setWindow(span.Offset, span.Len)
	return h
}

func (h *HeaderView) setWindow(off, n int64) {
	size := int64(len(h.data))
	if n < minHexWindow {
		n = minHexWindow
	}
	if n > maxHexWindow {
		n = maxHexWindow
	}
	start := off &^ (HexBytesPerRow - 1)
	if start < 0 {
		start = 0
	}
	if start > size {
		start = size &^ (HexBytesPerRow - 1)
	}
	end := start + n
	if end > size {
		end = size
	}
	h.start, h.end = start, end
}

// Select highlights field i, moving the window when the field lies outside it.
func (h *HeaderView) Select(i int) {
	if i < 0 || i >= len(h.Fields) {
		h.Selected = -1
		return
	}
	h.Selected = i
	f := h.Fields[i]
	if f.Offset < h.start || f.Offset+int64(f.Size) > h.end {
		h.setWindow(f.Offset-4*HexBytesPerRow, int64(f.Size)+8*HexBytesPerRow)
	}
}

// Window is the byte range shown.
func (h *HeaderView) Window() (start, end int64) { return h.start, h.end }

// Rows is the number of hex dump lines.
func (h *HeaderView) Rows() int {
	return int((h.end - h.start + HexBytesPerRow - 1) / HexBytesPerRow)
}

// Line returns hex dump line r.
func (h *HeaderView) Line(r int) string {
	off := h.start + int64(r)*HexBytesPerRow
	row := h.data[off:min(off+HexBytesPerRow, h.end)]
	var b strings.Builder
	fmt.Fprintf(&b, "%08x  ", off)
	for i := 0; i < HexBytesPerRow; i++ {
		if i < len(row) {
			fmt.Fprintf(&b, "%02x ", row[i])
		} else {
			b.WriteString("   ")
		}
		if i == 7 {
			b.WriteByte(' ')
		}
	}
	b.WriteString(" |")
	for _, c := range row {
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		b.WriteByte(c)
	}
	b.WriteByte('|')
	return b.String()
}

// Lines returns the whole dump.
func (h *HeaderView) Lines() []string {
	out := make([]string, h.Rows())
	for r := range out {
		out[r] = h.Line(r)
	}
	return out
}

// CellRange is a run of columns on one dump line.
type CellRange struct{ Row, FirstCol, LastCol int }

// Highlight returns the cells showing bytes [off, off+n) that are in the
// window: for each line a range in the hex area and one in the ASCII gutter.
func (h *HeaderView) Highlight(off, n int64) []CellRange {
	lo, hi := max(off, h.start), min(off+n, h.end)
	var out []CellRange
	for p := lo; p < hi; {
		row := int((p - h.start) / HexBytesPerRow)
		rowEnd := h.start + int64(row+1)*HexBytesPerRow
		last := min(hi, rowEnd) - 1
		i, j := int((p-h.start)%HexBytesPerRow), int((last-h.start)%HexBytesPerRow)
		out = append(out, CellRange{row, HexCol(i), HexCol(j) + 1}, CellRange{row, ASCIICol(i), ASCIICol(j)})
		p = last + 1
	}
	return out
}

// SelectedHighlight is Highlight for the selected field.
func (h *HeaderView) SelectedHighlight() []CellRange {
	if h.Selected < 0 {
		return nil
	}
	f := h.Fields[h.Selected]
	return h.Highlight(f.Offset, int64(f.Size))
}

// FieldAt returns the index of the field covering file byte off, or -1.
func (h *HeaderView) FieldAt(off int64) int {
	for i, f := range h.Fields {
		if off >= f.Offset && off < f.Offset+int64(f.Size) {
			return i
		}
	}
	return -1
}

// ByteAt maps a dump cell to the file offset it shows, or -1.
func (h *HeaderView) ByteAt(row, col int) int64 {
	var i int
	switch {
	case col >= asciiFirstCol && col < asciiFirstCol+HexBytesPerRow:
		i = col - asciiFirstCol
	case col >= hexFirstCol && col < HexCol(15)+2:
		c := col - hexFirstCol
		if c >= 8*3 {
			c--
		}
		i = c / 3
		if c%3 == 2 {
			return -1 // the space between bytes
		}
	default:
		return -1
	}
	off := h.start + int64(row)*HexBytesPerRow + int64(i)
	if off >= h.end {
		return -1
	}
	return off
}

// FieldCells returns the text of a header table cell: name, offset, size,
// value, meaning.
func (h *HeaderView) FieldCells(i int) [5]string {
	f := h.Fields[i]
	return [5]string{f.Name, fmt.Sprintf("%d (0x%x)", f.Offset, f.Offset), fmt.Sprint(f.Size),
		FormatValue(f.Value), f.Meaning}
}
