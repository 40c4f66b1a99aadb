package cli

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/viewmodel"
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
	return [...]string{e.Name, e.TypeString(), viewmodel.FormatDims(e.Shape), string(e.Role), off, strconv.FormatInt(e.NBytes, 10)}
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
	for _, e := range tensors {
		if !plainDetails(e) {
			writeTensorTableTabwriter(w, tensors)
			return
		}
		row := tensorRow(e)
		for i, cell := range row {
			if strings.ContainsAny(cell, "\t\n\v\f") {
				writeTensorTableTabwriter(w, tensors)
				return
			}
			n := utf8.RuneCountInString(cell)
			if i == 0 {
				n += len(tableIndent)
			}
			widths[i] = max(widths[i], n)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line := func(cells [len(tensorColumns) - 1]string, details string) {
		for i, cell := range cells {
			n := utf8.RuneCountInString(cell)
			if i == 0 {
				bw.WriteString(tableIndent)
				n += len(tableIndent)
			}
			bw.WriteString(cell)
			for range widths[i] + tablePadding - n {
				bw.WriteByte(' ')
			}
		}
		bw.WriteString(details)
		bw.WriteByte('\n')
	}
	var head [len(tensorColumns) - 1]string
	copy(head[:], tensorColumns[:])
	line(head, tensorColumns[len(tensorColumns)-1])
	for _, e := range tensors {
		line(tensorRow(e), tensorDetails(e))
	}
	bw.Flush()
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
func plainDetails(e *formats.TensorEntry) bool {
	if strings.ContainsAny(e.Note, "\t\n\v\f") {
		return false
	}
	for _, a := range e.Attrs {
		if strings.ContainsAny(a.Name, "\t\n\v\f") {
			return false
		}
		switch a.Value.(type) {
		case nil, string, bool, int, int64, uint64, float64:
		default:
			if strings.ContainsAny(viewmodel.FormatValue(a.Value), "\t\n\v\f") {
				return false
			}
		}
	}
	return true
}
