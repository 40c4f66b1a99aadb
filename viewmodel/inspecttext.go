package viewmodel

import (
	"context"

	"tensorscope/tensor"
)

// textState shows a tensor whose elements are text (NumPy strings and
// records): the Values table lays them out as the last axis against the
// others, read through the entry's text accessor.
type textState struct {
	ready      bool
	rows, cols int
	task       *Task
}

// ShowsText reports whether the shown tensor's values are text.
func (in *Inspector) ShowsText() bool {
	return in.entry != nil && in.entry.HasText() && in.raw == nil && in.err == nil
}

// showText reads the first element in the background (which makes a
// compressed member inflate off the UI goroutine), then lays the elements
// out for the Values table.
func (in *Inspector) showText() {
	e := in.entry
	n, err := tensor.NumElements(e.Shape)
	if err != nil {
		in.err = err
		in.changed(ChangedTensor)
		return
	}
	rows, cols := textLayout(e.Shape, n)
	in.setProgress("Loading", 0)
	in.text.task = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (struct{}, error) {
		if n == 0 {
			return struct{}{}, nil
		}
		_, err := e.TextAt(0)
		return struct{}{}, err
	}, nil, func(_ struct{}, err error) {
		in.text.task = nil
		in.clearProgress("Loading")
		if err != nil {
			in.err = err
			in.changed(ChangedTensor)
			return
		}
		in.text = textState{ready: true, rows: rows, cols: cols}
		in.changed(ChangedTensor | ChangedHeatmap)
	})
}

// textLayout puts the last axis in columns and the others in rows.
func textLayout(shape []int, n int) (rows, cols int) {
	if len(shape) < 2 {
		return n, 1
	}
	cols = shape[len(shape)-1]
	if cols == 0 {
		return 0, 0
	}
	return n / cols, cols
}

func (in *Inspector) textAt(row, col int) string {
	s, err := in.entry.TextAt(row*in.text.cols + col)
	if err != nil {
		return "?"
	}
	return s
}
