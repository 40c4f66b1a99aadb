package cli

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// tensorColumns heads the Tensors table of info; every column but the
// last (details) is aligned.
var tensorColumns = [...]string{"name", "dtype", "shape", "role", "offset", "bytes", "details"}

// tableIndent starts every line of a table.
const tableIndent = "  "

// tablePadding is the gap after the widest cell of a column, as newTable's
// tabwriter pads.
const tablePadding = 2

// tensorRow is one row of the Tensors table without its details.
func tensorRow(e *formats.TensorEntry) [len(tensorColumns) - 1]string {
	off := "-"
	if e.Offset >= 0 {
		off = strconv.FormatInt(e.Offset, 10)
	}
	return [...]string{e.Name, e.TypeString(), textfmt.Dims(e.Shape), string(e.Role), off, strconv.FormatInt(e.NBytes, 10)}
}

// writeTensorTable prints the Tensors table exactly as a tabwriter over
// the whole table would, but streams it: a first pass finds each column's
// width, the second prints row by row. A tabwriter holds every cell until
// it flushes, which for an archive of 100,000 arrays was 80 MB and a third
// of info's time. A cell that would change how tabwriter splits cells or
// lines (a tab, newline, vertical tab or form feed in a name or a detail)
// sends the table through tabwriter itself, so the output never differs.
func writeTensorTable(w io.Writer, tensors []*formats.TensorEntry) {
	var widths [len(tensorColumns) - 1]int
	for i, c := range tensorColumns[:len(widths)] {
		widths[i] = utf8.RuneCountInString(c)
	}
	widths[0] += len(tableIndent)
	var scratch []byte
	var attrs []formats.Attr // one row's, reused
	for _, e := range tensors {
		ts := e.TypeString()
		attrs = e.AppendAttributes(attrs[:0])
		if !plainDetails(e, attrs) || strings.ContainsAny(e.Name, "\t\n\v\f") || strings.ContainsAny(ts, "\t\n\v\f") ||
			strings.ContainsAny(string(e.Role), "\t\n\v\f") {
			writeTensorTableTabwriter(w, tensors)
			return
		}
		widths[0] = max(widths[0], len(tableIndent)+utf8.RuneCountInString(e.Name))
		widths[1] = max(widths[1], utf8.RuneCountInString(ts))
		scratch = appendDims(scratch[:0], e.Shape)
		widths[2] = max(widths[2], len(scratch))
		widths[3] = max(widths[3], utf8.RuneCountInString(string(e.Role)))
		if e.Offset >= 0 {
			widths[4] = max(widths[4], len(strconv.AppendInt(scratch[:0], e.Offset, 10)))
		}
		widths[5] = max(widths[5], len(strconv.AppendInt(scratch[:0], e.NBytes, 10)))
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte // one row, reused
	pad := func(n, width int) {
		for range width + tablePadding - n {
			buf = append(buf, ' ')
		}
	}
	buf = append(buf, tableIndent...)
	for i, c := range tensorColumns[:len(widths)] {
		buf = append(buf, c...)
		n := utf8.RuneCountInString(c)
		if i == 0 {
			n += len(tableIndent)
		}
		pad(n, widths[i])
	}
	buf = append(buf, tensorColumns[len(widths)]...)
	bw.Write(append(buf, '\n'))
	for _, e := range tensors {
		buf = append(buf[:0], tableIndent...)
		buf = append(buf, e.Name...)
		pad(len(tableIndent)+utf8.RuneCountInString(e.Name), widths[0])
		ts := e.TypeString()
		buf = append(buf, ts...)
		pad(utf8.RuneCountInString(ts), widths[1])
		at := len(buf)
		buf = appendDims(buf, e.Shape)
		pad(len(buf)-at, widths[2])
		buf = append(buf, e.Role...)
		pad(utf8.RuneCountInString(string(e.Role)), widths[3])
		at = len(buf)
		if e.Offset >= 0 {
			buf = strconv.AppendInt(buf, e.Offset, 10)
		} else {
			buf = append(buf, '-')
		}
		pad(len(buf)-at, widths[4])
		at = len(buf)
		buf = strconv.AppendInt(buf, e.NBytes, 10)
		pad(len(buf)-at, widths[5])
		attrs = e.AppendAttributes(attrs[:0])
		buf = appendDetails(buf, e, attrs)
		bw.Write(append(buf, '\n'))
	}
	bw.Flush()
}

// appendDims appends textfmt.Dims(shape).
func appendDims(b []byte, shape []int) []byte {
	b = append(b, '[')
	for i, d := range shape {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return append(b, ']')
}

// appendDetails appends tensorDetails(e) without building its parts:
// 100,000 rows made two million allocations that way. attrs are e's
// attributes.
func appendDetails(b []byte, e *formats.TensorEntry, attrs []formats.Attr) []byte {
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, "; "...)
		}
	}
	for _, a := range attrs {
		sep()
		b = append(append(b, a.Name...), '=')
		switch v := a.Value.(type) {
		case string:
			b = strconv.AppendQuote(b, v)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		default:
			b = append(b, textfmt.Value(v)...)
		}
	}
	if q := e.Quant; q != nil {
		sep()
		b = fmt.Appendf(b, "quant: %d scales, axis %d", len(q.Scales), q.Axis)
	}
	if e.Note != "" {
		sep()
		b = append(b, e.Note...)
	}
	if e.HasText() && !e.HasData() {
		sep()
		b = append(b, "values as text"...)
	} else if !e.HasData() && e.Note == "" {
		sep()
		b = append(b, "no data in the file"...)
	}
	return b
}

// writeTensorTableTabwriter is the Tensors table through text/tabwriter,
// for cells holding its control characters.
func writeTensorTableTabwriter(w io.Writer, tensors []*formats.TensorEntry) {
	tw := newTable(w)
	fmt.Fprintln(tw, tableIndent+strings.Join(tensorColumns[:], "\t"))
	for _, e := range tensors {
		row := tensorRow(e)
		fmt.Fprintln(tw, tableIndent+strings.Join(row[:], "\t")+"\t"+tensorDetails(e))
	}
	tw.Flush()
}

// plainDetails reports whether tensorDetails(e) surely holds none of
// tabwriter's control characters, without building it: strings are
// quoted, numbers are digits; anything else is formatted and looked at.
// attrs are e's attributes.
func plainDetails(e *formats.TensorEntry, attrs []formats.Attr) bool {
	if strings.ContainsAny(e.Note, "\t\n\v\f") {
		return false
	}
	for _, a := range attrs {
		if strings.ContainsAny(a.Name, "\t\n\v\f") {
			return false
		}
		switch a.Value.(type) {
		case nil, string, bool, int, int64, uint64, float64:
		default:
			if strings.ContainsAny(textfmt.Value(a.Value), "\t\n\v\f") {
				return false
			}
		}
	}
	return true
}
