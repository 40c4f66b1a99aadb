package viewmodel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func hexFixture(size int) *formats.Document {
	data := make([]byte, size)
	copy(data, "TSR!")
	for i := 4; i < size; i++ {
		data[i] = byte(i)
	}
	doc := (&formats.Source{Data: data}).NewDocument(&formats.Format{ID: "t", Name: "test"}, "1")
	doc.Header = []formats.HeaderField{
		{Name: "magic", Offset: 0, Size: 4, Value: "TSR!"},
		{Name: "version", Offset: 4, Size: 4, Value: int64(1)},
		{Name: "far", Offset: 4000, Size: 8, Value: int64(7)},
	}
	doc.HeaderSpan = formats.Span{Offset: 0, Len: 64}
	return doc
}

func TestHexLines(t *testing.T) {
	h := NewHeaderView(hexFixture(5000))
	if h.Rows() != DefaultHexRows {
		t.Fatalf("rows %d", h.Rows())
	}
	l := h.Line(0)
	want := "00000000  54 53 52 21 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |TSR!............|"
	if l != want {
		t.Errorf("line 0:\n got %q\nwant %q", l, want)
	}
	if len(l) != HexLineWidth {
		t.Errorf("width %d, want %d", len(l), HexLineWidth)
	}
	// Column helpers point at the right characters.
	if l[HexCol(0):HexCol(0)+2] != "54" || l[HexCol(8):HexCol(8)+2] != "08" || l[ASCIICol(3)] != '!' {
		t.Errorf("column geometry wrong")
	}
}

func TestHexHighlightAndPick(t *testing.T) {
	h := NewHeaderView(hexFixture(5000))
	h.Select(1)
	hl := h.SelectedHighlight()
	want := []CellRange{{0, HexCol(4), HexCol(7) + 1}, {0, ASCIICol(4), ASCIICol(7)}}
	if len(hl) != 2 || hl[0] != want[0] || hl[1] != want[1] {
		t.Errorf("highlight %v, want %v", hl, want)
	}
	// A field spanning a row boundary gives one range pair per row.
	if got := h.Highlight(14, 4); len(got) != 4 || got[0].Row != 0 || got[2].Row != 1 {
		t.Errorf("row-spanning highlight %v", got)
	}
	if off := h.ByteAt(0, HexCol(5)+1); off != 5 {
		t.Errorf("ByteAt hex = %d", off)
	}
	if off := h.ByteAt(0, ASCIICol(2)); off != 2 {
		t.Errorf("ByteAt ascii = %d", off)
	}
	if off := h.ByteAt(0, HexCol(5)+2); off != -1 {
		t.Errorf("ByteAt on a gap = %d", off)
	}
	if h.FieldAt(6) != 1 || h.FieldAt(9) != -1 {
		t.Errorf("FieldAt wrong")
	}
	// Selecting a field outside the window moves the window to it.
	h.Select(2)
	start, end := h.Window()
	if start > 4000 || end < 4008 {
		t.Errorf("window [%d,%d) does not cover the far field", start, end)
	}
	if !strings.HasPrefix(h.Line(0), "00000f") {
		t.Errorf("window start line %q", h.Line(0))
	}
}

func TestHexShortFile(t *testing.T) {
	h := NewHeaderView(hexFixture(20))
	if h.Rows() != 2 {
		t.Fatalf("rows %d", h.Rows())
	}
	if got := h.Line(1); !strings.HasSuffix(got, "|....|") || len(got) != HexLineWidth-12 {
		t.Errorf("short last line %q", got)
	}
}

func TestHexScrollsTheWholeFile(t *testing.T) {
	h := NewHeaderView(hexFixture(5000)) // 313 rows
	h.SetVisibleRows(20)
	if h.TotalRows() != 313 {
		t.Fatalf("total rows %d", h.TotalRows())
	}
	if !h.PageDown() || h.Top() != 19 {
		t.Errorf("page down: top %d, want 19 (a screenful less one row of context)", h.Top())
	}
	h.PageUp()
	if h.Top() != 0 || h.PageUp() {
		t.Errorf("page up: top %d, and moved again at the start", h.Top())
	}
	h.ScrollRows(1 << 40) // the wheel far past the end stops at the last screenful
	if h.Top() != 313-20 || h.Rows() != 20 {
		t.Errorf("after scrolling past the end: top %d, rows %d", h.Top(), h.Rows())
	}
	if !strings.HasPrefix(h.Line(19), "00001380") {
		t.Errorf("last line %q", h.Line(19))
	}
	if err := h.GoTo(4000); err != nil {
		t.Fatal(err)
	}
	if start, end := h.Window(); start > 4000 || end <= 4000 {
		t.Errorf("after GoTo(4000) the window is [%d,%d)", start, end)
	}
	for _, bad := range []int64{-1, 5000} {
		if err := h.GoTo(bad); err == nil || !strings.Contains(err.Error(), "outside the file (0 to 4999)") {
			t.Errorf("GoTo(%d): %v", bad, err)
		}
	}
}

func TestParseOffset(t *testing.T) {
	for text, want := range map[string]int64{"4000": 4000, "0x1f0": 0x1f0, "1F0h": 0x1f0, " 1_000_000 ": 1000000, "2,048": 2048} {
		if got, err := ParseOffset(text); err != nil || got != want {
			t.Errorf("ParseOffset(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "0x", "12ab", "-", "ten"} {
		if _, err := ParseOffset(bad); err == nil || !strings.Contains(err.Error(), "is not an offset") {
			t.Errorf("ParseOffset(%q) error %v", bad, err)
		}
	}
}

// TestHexOnA2GiBFile maps a sparse 2 GiB file: jumping to its end and
// paging formats only the visible rows, so it takes no time and no memory.
func TestHexOnA2GiBFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 2 << 30
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a sparse 2 GiB file here: %v", err)
	}
	f.WriteAt([]byte("END!"), size-4)
	f.Close()
	st, err := tensor.MapFile(path)
	if err != nil {
		t.Skipf("cannot map 2 GiB here: %v", err)
	}
	defer st.Close()
	h := NewBytesView(st.Bytes(), size-1)
	h.SetVisibleRows(40)
	last := h.Line(h.Rows() - 1)
	if !strings.HasPrefix(last, "7ffffff0") || !strings.HasSuffix(last, "|............END!|") {
		t.Errorf("last line %q", last)
	}
	h.PageUp()
	if h.Top() != h.TotalRows()-40-39 {
		t.Errorf("top %d after page up", h.Top())
	}
}
