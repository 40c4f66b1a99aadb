package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/tensor"
)

// ElementIndex is the full tensor index of plane element (row, col).
func (in *Inspector) ElementIndex(row, col int) []int {
	h := &in.heat
	idx := append([]int(nil), h.fixed...)
	if h.rowAxis >= 0 {
		idx[h.rowAxis] = row
	}
	if h.colAxis >= 0 {
		idx[h.colAxis] = col
	}
	return idx
}

// ValueText is the exact value of plane element (row, col) as stored (or
// dequantised), for the values table.
func (in *Inspector) ValueText(row, col int) string {
	if in.text.ready {
		return in.textAt(row, col)
	}
	if in.shown == nil {
		return ""
	}
	var s string
	err := tensor.CatchFault(func() error {
		var err error
		s, err = in.shown.ElementString(in.ElementIndex(row, col))
		return err
	})
	if err != nil {
		return "?"
	}
	return s
}

// ElementInfo spells plane element (row, col) as "[0, 3, 17, 5] = -0.0123";
// a dequantised tensor also shows the stored integer.
func (in *Inspector) ElementInfo(row, col int) string {
	if in.shown == nil {
		return ""
	}
	idx := in.ElementIndex(row, col)
	src := in.sourceIndex(idx) // the element's index in the file's tensor
	parts := make([]string, len(src))
	for i, v := range src {
		parts[i] = fmt.Sprint(v)
	}
	s := "[" + strings.Join(parts, ", ") + "] = " + in.ValueText(row, col)
	if in.raw != nil && in.raw != in.shown {
		var q string
		err := tensor.CatchFault(func() error {
			var err error
			q, err = in.raw.ElementString(idx)
			return err
		})
		if err == nil {
			s += " (stored " + q + ")"
		}
	}
	return s
}
