package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// showAxes fills the row and column selectors with shape's axes, selects
// row and col, and adds to sliders one slider per other axis longer than 1,
// at its index in fixed. The inspector and the comparison view share it,
// so both offer a tensor's plane the same way. change receives a new row
// (col −1) or column (row −1) the user picked; setFixed a slider's index.
func showAxes(rowSel, colSel *widget.Select, sliders *fyne.Container, shape []int, row, col int, fixed []int,
	change func(row, col int), setFixed func(axis, index int)) {
	rowSel.OnChanged, colSel.OnChanged = nil, nil
	opts := make([]string, len(shape))
	for i, n := range shape {
		opts[i] = fmt.Sprintf("axis %d (%d)", i, n)
	}
	rowSel.Options, colSel.Options = opts, opts
	rowSel.ClearSelected()
	colSel.ClearSelected()
	if row >= 0 {
		rowSel.SetSelectedIndex(row)
	}
	if col >= 0 {
		colSel.SetSelectedIndex(col)
	}
	if len(shape) < 2 {
		rowSel.Disable()
		colSel.Disable()
	} else {
		rowSel.Enable()
		colSel.Enable()
	}
	rowSel.OnChanged = func(string) { change(rowSel.SelectedIndex(), -1) }
	colSel.OnChanged = func(string) { change(-1, colSel.SelectedIndex()) }
	for axis, n := range shape {
		if axis == row || axis == col || n <= 1 {
			continue
		}
		sliders.Add(newAxisSlider(axis, n, fixed[axis], func(i int) { setFixed(axis, i) }))
	}
	sliders.Refresh()
}

// pickAxes returns the plane after the user picked a new row (col −1) or
// column (row −1) axis on plane r×c: picking the other one's axis swaps
// the two.
func pickAxes(r, c, row, col int) (int, int) {
	switch {
	case row >= 0 && row == c:
		return row, r
	case row >= 0:
		return row, c
	case col >= 0 && col == r:
		return c, col
	case col >= 0:
		return r, col
	}
	return r, c
}
