//go:build !lite

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tensorscope/formats"
	"tensorscope/tensor"
	"tensorscope/ui/headless"
	"tensorscope/viewmodel"
)

func init() { register("export", runExport) }

// exportUsage names the endings the registered encoders write.
func exportUsage() string {
	return "tensorscope export FILE --tensor NAME [--axes R,C] [--index AXIS=I ...] [--expr EXPR] --out OUT" +
		strings.Join(formats.TensorExportExtensions(), "|") + "\n" +
		"       tensorscope export FILE --all --out OUT" + strings.Join(formats.EncoderExtensions(true), "|") + "\n" +
		"       tensorscope export FILE --view graph [--depth N|all] [--dark] --out OUT.svg|.png"
}

// runExport implements `tensorscope export`: a tensor in any format with an
// encoder (or .csv: one plane), or the graph as SVG or PNG. Every file is written to a
// temporary file renamed into place; Ctrl+C or SIGTERM removes it.
func runExport(args []string, stdout, stderr io.Writer) int {
	c := newCommand("export", exportUsage())
	view := c.flags.String("view", "", "graph: export the model's graph instead of a tensor")
	out := c.flags.String("out", "", "the file to write; its ending chooses the format")
	dark := c.flags.Bool("dark", false, "graph colours of the dark theme")
	graphSettings := viewmodel.DefaultGraphSettings()
	graphSettings.Depth = viewmodel.DepthAll
	depthSet := false
	c.flags.Func("depth", "graph: the scope level drawn collapsed, N ≥ 1, or all (expanded; the default)", func(v string) error {
		depthSet = true
		return graphSettings.SetDepth(v)
	})
	all := c.flags.Bool("all", false, "write every tensor with data, under its own name (.safetensors)")
	sel := addSelectionFlags(c, "the tensor to write")
	var expr *viewmodel.ViewExpr
	c.flags.Func("expr", "write the tensor seen through a view, NumPy-style, e.g. 'w[0:64]' or 'w.permute(0,2,1,3).merge(0,1).merge(1,2)' (the conv mosaic)", func(v string) error {
		var err error
		expr, err = viewmodel.ParseViewExpr(v)
		return err
	})
	pos, status, ok := c.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return c.usageError(stderr, "expected one FILE, got %d arguments", len(pos))
	}
	if *out == "" {
		return c.usageError(stderr, "--out is required")
	}
	ext := strings.ToLower(filepath.Ext(*out))
	graph := false
	switch {
	case *all:
		if *view != "" || sel.tensor != "" || sel.axes != nil || sel.index != nil || expr != nil {
			return c.usageError(stderr, "--all writes every tensor: it takes no --view, --tensor, --axes, --index or --expr")
		}
		if !slices.Contains(formats.EncoderExtensions(true), ext) {
			return c.usageError(stderr, "--out must end in %s with --all", strings.Join(formats.EncoderExtensions(true), ", "))
		}
	case depthSet && *view != headless.ViewGraph:
		return c.usageError(stderr, "--depth applies to --view graph")
	case *view == "":
		if sel.tensor == "" {
			return c.usageError(stderr, "choose --tensor NAME or --view graph")
		}
		if !slices.Contains(formats.TensorExportExtensions(), ext) {
			return c.usageError(stderr, "--out must end in %s for a tensor", strings.Join(formats.TensorExportExtensions(), ", "))
		}
		if ext != ".csv" && (sel.axes != nil || sel.index != nil) {
			return c.usageError(stderr, "--axes and --index choose the plane of a .csv; %s holds the whole tensor", ext)
		}
	case *view == headless.ViewGraph:
		graph = true
		if sel.tensor != "" || sel.axes != nil || sel.index != nil || expr != nil {
			return c.usageError(stderr, "--tensor, --axes, --index and --expr do not apply to --view graph")
		}
		if ext != ".svg" && ext != ".png" {
			return c.usageError(stderr, "--out must end in .svg or .png for the graph")
		}
	default:
		return c.usageError(stderr, "--view must be graph (tensors are chosen with --tensor)")
	}

	path := pos[0]
	doc, status := openDocument(path, stderr)
	if doc == nil {
		return status
	}
	defer doc.Close()
	if err := refuseOverwrite(path, *out); err != nil {
		return c.usageError(stderr, "%v", err)
	}

	intr := catchInterrupts()
	defer intr.stop()
	var note string
	if *all {
		note, err := viewmodel.ExportAll(intr.ctx, *out, doc, nil)
		if status, done := intr.finish(stderr, "export", *out, err); done {
			return status
		}
		if note != "" {
			fmt.Fprintf(stderr, "tensorscope export: %s\n", note)
		}
		return exitOK
	}
	if graph {
		if doc.Graph == nil {
			return fileError(stderr, path, fmt.Errorf("this %s has no graph to export", doc.FormatName))
		}
		s, pal, err := headless.GraphSceneWith(doc, graphSettings, *dark)
		if err != nil {
			return fileError(stderr, path, err)
		}
		note, err = viewmodel.ExportGraphContext(intr.ctx, *out, s, pal)
		if viewmodel.IsGraphTooLargeForPNG(err) {
			err = fmt.Errorf("%w: --out with .svg, or --depth N", err)
		}
		if status, done := intr.finish(stderr, "export", *out, err); done {
			return status
		}
	} else {
		i, err := tensorIndex(doc, sel.tensor)
		if err != nil {
			return fileError(stderr, path, err)
		}
		e := doc.Tensors[i]
		if !e.HasData() {
			return fileError(stderr, path, fmt.Errorf("tensor %q has no data in this file", e.Name))
		}
		t, err := e.Load(intr.ctx)
		if intr.caught() {
			return intr.report(stderr, "export", *out)
		}
		if err != nil {
			return fileError(stderr, path, err)
		}
		if expr != nil {
			if t, _, err = expr.Apply(t); err != nil {
				return fileError(stderr, path, fmt.Errorf("tensor %q: %w", e.Name, err))
			}
		}
		var plane *tensor.Tensor
		if ext == ".csv" {
			var desc string
			if plane, desc, err = viewmodel.TensorPlane(t, sel.axes, sel.index); err != nil {
				return fileError(stderr, path, fmt.Errorf("tensor %q: %w", e.Name, err))
			}
			if desc != "" {
				fmt.Fprintf(stderr, "tensorscope export: writing %s\n", desc)
			}
		}
		note, err = viewmodel.ExportTensorAs(intr.ctx, *out, e.Name, t, plane)
		if status, done := intr.finish(stderr, "export", *out, err); done {
			return status
		}
	}
	if note != "" {
		fmt.Fprintf(stderr, "tensorscope export: %s\n", note)
	}
	return exitOK
}

// refuseOverwrite stops an export from replacing the file it reads (the
// rename would swap the input under its own memory mapping).
func refuseOverwrite(in, out string) error {
	a, err1 := os.Stat(in)
	b, err2 := os.Stat(out)
	if err1 == nil && err2 == nil && os.SameFile(a, b) {
		return fmt.Errorf("--out %s is the input file", out)
	}
	return nil
}

// writeOutput writes path through a temporary file renamed into place,
// stopping (and removing the temporary file) when ctx is cancelled.
func writeOutput(ctx context.Context, path string, write func(w io.Writer) error) error {
	return viewmodel.WriteFileAtomicContext(ctx, path, write)
}

// finish reports an interrupt or a failed write; done is false when the
// write succeeded.
func (it *interrupts) finish(stderr io.Writer, cmd, out string, err error) (status int, done bool) {
	if it.caught() {
		return it.report(stderr, cmd, out), true
	}
	if err != nil {
		fmt.Fprintf(stderr, "tensorscope %s: cannot write %s: %s\n", cmd, out, oneLine(err.Error()))
		return exitBadFile, true
	}
	return exitOK, false
}
