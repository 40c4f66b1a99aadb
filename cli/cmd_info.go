package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

func init() { register("info", runInfo) }

// runInfo implements `tensorscope info [--json] FILE`: a summary of the
// file's format, header fields, metadata, tensors, graph and warnings, or
// with --json the document in the shape automated checks rely on. It reads
// headers only and never opens a window.
func runInfo(args []string, stdout, stderr io.Writer) int {
	collectLate()
	c := newCommand("info", "tensorscope info [--json] FILE")
	asJSON := c.flags.Bool("json", false, "print the document as one JSON object")
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.usageError(stderr, "expected one FILE, got %d arguments", len(pos))
	}
	doc, status := openDocument(pos[0], stderr)
	if doc == nil {
		return status
	}
	defer doc.Close()
	if *asJSON {
		// Written in pieces as it is made: json.Marshal would validate and
		// copy the megabytes of a vocabulary again, and hold them whole.
		w := bufio.NewWriterSize(stdout, 64<<10)
		err := doc.WriteJSON(w)
		if werr := w.Flush(); werr != nil { // the output failed, not the file
			fmt.Fprintf(stderr, "tensorscope: writing the output: %v\n", werr)
			return exitBadFile
		}
		if err != nil {
			return fileError(stderr, pos[0], err)
		}
		fmt.Fprintln(stdout)
		return exitOK
	}
	writeSummary(stdout, doc)
	return exitOK
}

// writeSummary prints the human summary, in the spirit of the TSR spec's
// tsr_info: one section per pane of the viewer.
func writeSummary(w io.Writer, doc *formats.Document) {
	fmt.Fprintf(w, "File:     %s\n", doc.Path)
	version := ""
	if doc.Version != "" {
		version = ", version " + doc.Version
	}
	fmt.Fprintf(w, "Format:   %s (%s)%s\n", doc.FormatName, doc.Format, version)
	if doc.Size < 1024 {
		fmt.Fprintf(w, "Size:     %d bytes\n", doc.Size)
	} else {
		fmt.Fprintf(w, "Size:     %d bytes (%s)\n", doc.Size, textfmt.Bytes(doc.Size))
	}

	if len(doc.Header) > 0 {
		fmt.Fprintf(w, "\nHeader: %d fields in bytes %d..%d\n", len(doc.Header), doc.HeaderSpan.Offset, doc.HeaderSpan.Offset+doc.HeaderSpan.Len)
		tw := newTable(w)
		fmt.Fprintln(tw, "  offset\tsize\tfield\tvalue\tmeaning")
		for i, h := range doc.Header {
			if i == maxHeaderLines {
				break
			}
			fmt.Fprintf(tw, "  %d\t%d\t%s\t%s\t%s\n", h.Offset, h.Size, h.Name, headerValue(h.Value), h.Meaning)
		}
		tw.Flush()
		if n := len(doc.Header) - maxHeaderLines; n > 0 {
			fmt.Fprintf(w, "  … %d more fields (--json lists them all)\n", n)
		}
	}

	if m := doc.Metadata; m != nil && len(m.Children) > 0 {
		fmt.Fprintln(w, "\nMetadata:")
		tw := newTable(w)
		for _, c := range m.Children {
			fmt.Fprintf(tw, "  %s\t%s\n", c.Name, metaSummary(c))
		}
		tw.Flush()
	}

	for _, t := range doc.Tables {
		fmt.Fprintf(w, "\n%s:\n", t.Title)
		tw := newTable(w)
		fmt.Fprintln(tw, "  "+strings.Join(t.Columns, "\t"))
		for _, r := range t.Rows {
			fmt.Fprintln(tw, "  "+strings.Join(r, "\t"))
		}
		tw.Flush()
	}

	fmt.Fprintf(w, "\nTensors: %d\n", len(doc.Tensors))
	if len(doc.Tensors) > 0 {
		writeTensorTable(w, doc.Tensors)
	}

	if g := doc.Graph; g != nil {
		fmt.Fprintf(w, "\nGraph: %d nodes, %d values, inputs %v, outputs %v\n", len(g.Nodes), len(g.Values), g.Inputs, g.Outputs)
		if ops := opCounts(g); ops != "" {
			fmt.Fprintf(w, "  ops: %s\n", ops)
		}
	}

	if len(doc.Plots) > 0 {
		fmt.Fprintln(w, "\nPlots:")
		for _, p := range doc.Plots {
			fmt.Fprintf(w, "  %s: %s\n", p.Title, plotSummary(p))
		}
	}

	fmt.Fprintf(w, "\nWarnings: %d\n", len(doc.Warnings))
	for _, wn := range doc.Warnings {
		fmt.Fprintf(w, "  %s\n", wn)
	}
}

// maxHeaderLines caps the header listing of the summary: a TSR4 container
// of a thousand tensors has ten thousand directory fields.
const maxHeaderLines = 64

// headerValue shows a raw field value as the header pane does, cut to
// fit a table column.
func headerValue(v any) string {
	if v == nil {
		return ""
	}
	return cut(textfmt.Value(v), 48)
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// metaSummary shows a leaf's value, or the size of an object or list.
func metaSummary(m *formats.Meta) string {
	switch {
	case m.Lazy != nil:
		return m.Lazy.Summary()
	case m.IsLeaf():
		if m.Value == nil {
			return "null"
		}
		if s, ok := m.Value.(string); ok {
			return cut(s, 60)
		}
		return cut(textfmt.Value(m.Value), 60)
	case m.List:
		return fmt.Sprintf("list of %d", len(m.Children))
	}
	return fmt.Sprintf("object of %d keys", len(m.Children))
}

func tensorDetails(e *formats.TensorEntry) string {
	var parts []string
	for _, a := range e.Attributes() {
		parts = append(parts, a.Name+"="+textfmt.Value(a.Value))
	}
	if q := e.Quant; q != nil {
		parts = append(parts, fmt.Sprintf("quant: %d scales, axis %d", len(q.Scales), q.Axis))
	}
	if e.Note != "" {
		parts = append(parts, e.Note)
	}
	if e.HasText() && !e.HasData() {
		parts = append(parts, "values as text")
	} else if !e.HasData() && e.Note == "" {
		parts = append(parts, "no data in the file")
	}
	return strings.Join(parts, "; ")
}

// opCounts lists operator types by how often they occur: "Linear 2, ReLU 1".
func opCounts(g *formats.Graph) string {
	counts := g.OpCounts()
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%s %d", c.Op, c.Nodes)
	}
	return strings.Join(parts, ", ")
}

// plotSummary shows each curve's first and last value.
func plotSummary(p formats.Plot) string {
	var parts []string
	for _, s := range p.Series {
		if len(s.Y) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.4g → %.4g (%d points)", s.Name, s.Y[0], s.Y[len(s.Y)-1], len(s.Y)))
	}
	return strings.Join(parts, ", ")
}
