package headless

import (
	"context"
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
	"tensorscope/ui"
	"tensorscope/viewmodel/summary"
)

// renderSummary draws the fingerprint of doc's largest block (its layers)
// coloured by opt.Metric, under a line naming the file, the block and the
// flagged tensors.
func (h *headless) renderSummary(ctx context.Context, doc *formats.Document, opt Options, size fyne.Size) (image.Image, error) {
	m := summary.New(doc)
	if err := m.Compute(ctx, doc, nil, nil); err != nil {
		return nil, err
	}
	b := m.LargestBlock()
	if b < 0 {
		return nil, fmt.Errorf("no tensor name of this %s has a numbered component: there are no layers to draw", doc.FormatName)
	}
	fp := m.Fingerprint(b, opt.Metric)
	flagged := 0
	for _, t := range m.Tensors {
		if len(t.Flags) > 0 {
			flagged++
		}
	}
	title := widget.NewLabel(fmt.Sprintf("%s — %s: %s × %s, by %s; %d of %d tensors flagged",
		docName(doc), fp.Prefix, plural(len(fp.Indices), "layer"), plural(len(fp.Roles), "role"), opt.Metric.Label(), flagged, len(m.Tensors)))
	title.Truncation = fyne.TextTruncateEllipsis
	f := ui.NewFingerprint()
	f.SetData(fp)
	h.win.SetContent(container.NewBorder(title, nil, nil, nil, f))
	return h.capture(h.win, size)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
