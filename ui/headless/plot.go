package headless

import (
	"errors"
	"fmt"

	"fyne.io/fyne/v2"

	"tensorscope/ui"
	"tensorscope/viewmodel"
)

// plotContent is the plot view of a settled inspector: its vector's value
// against index, or why there is none.
func plotContent(panel *ui.InspectorPanel, in *viewmodel.Inspector) (fyne.CanvasObject, error) {
	if !in.IsVector() {
		t := in.Tensor()
		return nil, fmt.Errorf("tensor %q is %s: the plot view draws tensors with one axis longer than 1 (try --view heatmap)",
			in.Entry().Name, t)
	}
	p, err := in.LinePlot()
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errors.New("no plot was computed")
	}
	return panel.LinePlot(), nil
}
