package viewmodel

import (
	"fmt"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
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

// DefaultHexRows is how many dump lines show until the UI says how many
// fit (SetVisibleRows).
const DefaultHexRows = 16

// HeaderView is the header pane's state: the header fields, and a hex dump
// of the whole file that the user scrolls (only the visible rows are ever
// formatted, and the file is memory-mapped, so a 2 GiB file costs no more
// than a small one), with the selected field's bytes highlighted.
type HeaderView struct {
	Fields   []formats.HeaderField
	data     []byte
	top      int64 // first row shown
	visible  int   // rows shown at once
	Selected int   // field index, -1 for none

	markOff, markLen int64 // see SetMark
}

// UnreadableBytes stands for bytes of a mapped file that can no longer be
// read: the file was truncated on disk while it was open.
const UnreadableBytes = "(unreadable: the file changed on disk; reload it)"

// NewHeaderView shows the document's header span.
func NewHeaderView(d *formats.Document) *HeaderView {
	return newHexView(d.Header, d.Bytes(), headerStart(d))
}

// NewBytesView is a hex view of data with no header fields, starting at
// the row of offset at (a failed file's tab: at the failure).
func NewBytesView(data []byte, at int64) *HeaderView {
	h := newHexView(nil, data, 0)
	h.GoTo(at)
	return h
}

func newHexView(fields []formats.HeaderField, data []byte, at int64) *HeaderView {
	h := &HeaderView{Fields: fields, data: data, visible: DefaultHexRows, Selected: -1}
	h.SetTop(at / HexBytesPerRow)
	return h
}

// headerStart is where the document's header begins.
func headerStart(d *formats.Document) int64 {
	if d.HeaderSpan.Len > 0 {
		return d.HeaderSpan.Offset
	}
	if len(d.Header) > 0 {
		return d.Header[0].Offset
	}
	return 0
}

// Size is the file's length in bytes.
func (h *HeaderView) Size() int64 { return int64(len(h.data)) }

// TotalRows is the number of dump lines of the whole file.
func (h *HeaderView) TotalRows() int64 {
	return (h.Size() + HexBytesPerRow - 1) / HexBytesPerRow
}

// Top is the first row shown.
func (h *HeaderView) Top() int64 { return h.top }

// VisibleRows is how many rows are shown at once.
func (h *HeaderView) VisibleRows() int { return h.visible }

// SetTop scrolls so that row is the first shown, clamped so the view
// never runs past the end; it reports whether the view moved.
func (h *HeaderView) SetTop(row int64) bool {
	row = min(row, h.TotalRows()-int64(h.visible))
	row = max(row, 0)
	if row == h.top {
		return false
	}
	h.top = row
	return true
}

// SetVisibleRows says how many rows fit the view (at least one).
func (h *HeaderView) SetVisibleRows(n int) {
	h.visible = max(n, 1)
	h.SetTop(h.top) // re-clamp
}

// ScrollRows moves the view by n rows (negative: up).
func (h *HeaderView) ScrollRows(n int64) bool { return h.SetTop(h.top + n) }

// PageDown and PageUp move by a screenful, keeping one row of context.
func (h *HeaderView) PageDown() bool { return h.ScrollRows(int64(max(h.visible-1, 1))) }

// PageUp: see PageDown.
func (h *HeaderView) PageUp() bool { return h.ScrollRows(-int64(max(h.visible-1, 1))) }

// GoTo scrolls so that byte off is on the first rows shown (two rows of
// context above it).
func (h *HeaderView) GoTo(off int64) error {
	if off < 0 || off >= max(h.Size(), 1) {
		return fmt.Errorf("offset %d is outside the file (0 to %d)", off, max(h.Size()-1, 0))
	}
	h.SetTop(off/HexBytesPerRow - 2)
	return nil
}

// ParseOffset reads an offset as typed in "Go to offset": decimal, or hex
// with 0x (or a trailing h); underscores and commas group digits.
func ParseOffset(text string) (int64, error) {
	t := strings.NewReplacer("_", "", ",", "", " ", "").Replace(strings.TrimSpace(text))
	base := 10
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		t, base = t[2:], 16
	case strings.HasSuffix(t, "h") || strings.HasSuffix(t, "H"):
		t, base = t[:len(t)-1], 16
	}
	v, err := strconv.ParseInt(t, base, 64)
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not an offset: type a decimal number, or hex as 0x1F0", text)
	}
	return v, nil
}

// Select highlights field i, scrolling to it when it is not fully shown.
func (h *HeaderView) Select(i int) {
	if i < 0 || i >= len(h.Fields) {
		h.Selected = -1
		return
	}
	h.Selected = i
	f := h.Fields[i]
	start, end := h.Window()
	if f.Offset < start || f.Offset+int64(f.Size) > end {
		h.GoTo(f.Offset)
	}
}

// Window is the byte range shown.
func (h *HeaderView) Window() (start, end int64) {
	start = h.top * HexBytesPerRow
	return start, min(start+int64(h.visible)*HexBytesPerRow, h.Size())
}

// Rows is the number of dump lines shown (fewer than VisibleRows at the
// end of a short file).
func (h *HeaderView) Rows() int {
	start, end := h.Window()
	return int((end - start + HexBytesPerRow - 1) / HexBytesPerRow)
}

// Line returns shown dump line r (0 is the top row).
func (h *HeaderView) Line(r int) string {
	start, end := h.Window()
	off := start + int64(r)*HexBytesPerRow
	var buf [HexBytesPerRow]byte
	// The mapped file may have been truncated on disk: a read past its new
	// end faults, which CatchFault turns into an error instead of SIGBUS.
	if err := tensor.CatchFault(func() error {
		copy(buf[:], h.data[off:min(off+HexBytesPerRow, end)])
		return nil
	}); err != nil {
		return fmt.Sprintf("%08x  %s", off, UnreadableBytes)
	}
	row := buf[:min(off+HexBytesPerRow, end)-off]
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

// Lines returns the shown dump lines.
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
	start, end := h.Window()
	lo, hi := max(off, start), min(off+n, end)
	var out []CellRange
	for p := lo; p < hi; {
		row := int((p - start) / HexBytesPerRow)
		rowEnd := start + int64(row+1)*HexBytesPerRow
		last := min(hi, rowEnd) - 1
		i, j := int((p-start)%HexBytesPerRow), int((last-start)%HexBytesPerRow)
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
	start, end := h.Window()
	off := start + int64(row)*HexBytesPerRow + int64(i)
	if off >= end {
		return -1
	}
	return off
}

// FieldCells returns the text of a header table cell: name, offset, size,
// value, meaning.
func (h *HeaderView) FieldCells(i int) [5]string {
	f := h.Fields[i]
	return [5]string{f.Name, fmt.Sprintf("%d (0x%x)", f.Offset, f.Offset), fmt.Sprint(f.Size),
		textfmt.Value(f.Value), f.Meaning}
}

// SetMark marks bytes [off, off+n) apart from the selection: on a failed
// file's tab, where decoding stopped.
func (h *HeaderView) SetMark(off, n int64) { h.markOff, h.markLen = off, n }

// MarkHighlight is Highlight for the marked bytes.
func (h *HeaderView) MarkHighlight() []CellRange {
	if h.markLen <= 0 {
		return nil
	}
	return h.Highlight(h.markOff, h.markLen)
}
