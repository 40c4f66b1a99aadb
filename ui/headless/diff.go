package headless

import (
	"context"
	"errors"
	"fmt"
	"image"

	"fyne.io/fyne/v2"

	"tensorscope/formats"
	"tensorscope/ui"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/compare"
)

// renderDiff draws the comparison of one tensor of doc (A) with its
// partner in opt.With (B) as the comparison tab's heatmaps show it: A, B
// and A−B side by side. The comparison opens both files again, as the
// GUI's does, and computes the figures of that pair only.
func (h *headless) renderDiff(ctx context.Context, doc *formats.Document, opt Options, size fyne.Size) (image.Image, error) {
	if opt.With == nil {
		return nil, errors.New("the diff view needs a second file (--with)")
	}
	if opt.Tensor < 0 || opt.Tensor >= len(doc.Tensors) {
		return nil, errors.New("the diff view needs the tensor to compare (--tensor)")
	}
	name := doc.Tensors[opt.Tensor].Name
	c := compare.NewPairComparison(fyne.Do, sourceOf(doc), sourceOf(opt.With), compare.DefaultTolerance, name)
	defer func() {
		for _, d := range c.Close() {
			<-d.Unmapped()
		}
	}()
	if err := h.settle(ctx, func() bool { return c.Ready() || c.Err() != nil }); err != nil {
		return nil, err
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	if !c.SelectName(name) {
		return nil, fmt.Errorf("tensor %q has no partner in %s (`tensorscope diff` lists what each file has)", name, docName(opt.With))
	}
	p := c.Pair()
	if err := p.Apply(opt.Compare); err != nil {
		return nil, fmt.Errorf("tensor %q: %w", name, err)
	}
	if err := h.settle(ctx, p.Ready); err != nil {
		return nil, err
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if p.Heatmap(compare.PanelDiff) == nil && !p.Empty() {
		return nil, errors.New("no heatmap was computed")
	}
	h.win.SetContent(ui.ComparisonHeatmaps(c))
	return h.capture(h.win, size)
}

// sourceOf says where doc came from, so the comparison can open it again.
func sourceOf(doc *formats.Document) viewmodel.Source {
	if doc.Path != "" {
		return viewmodel.Source{Path: doc.Path}
	}
	return viewmodel.Source{Name: docName(doc), Data: doc.Bytes()}
}
