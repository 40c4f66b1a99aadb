package viewmodel

import "tensorscope/tensor"

// ValueCellText is the values table's text of plane element (row, col):
// the value shown, and for a dequantised tensor the stored integer beside
// it, "122.5 ⟨255⟩".
func (in *Inspector) ValueCellText(row, col int) string {
	s := in.ValueText(row, col)
	if in.raw == nil || in.raw == in.shown || s == "" {
		return s
	}
	var q string
	if err := tensor.CatchFault(func() error {
		var err error
		q, err = in.raw.ElementString(in.ElementIndex(row, col))
		return err
	}); err != nil {
		return s
	}
	return s + " ⟨" + q + "⟩"
}

// ValueCellChars is how many characters the widest value cell of the shown
// tensor can need, so the table's columns fit every number.
func (in *Inspector) ValueCellChars() int {
	if in.shown == nil {
		return 8
	}
	n := valueChars(in.shown.DType())
	if in.raw != nil && in.raw != in.shown {
		n += 3 + valueChars(in.raw.DType())
	}
	return n
}

// valueChars is the widest ElementString of a dtype: shortest round-trip
// floats with sign, exponent and NaN/Inf; integers with sign.
func valueChars(d tensor.DType) int {
	switch {
	case d == tensor.Bool:
		return 5
	case d.IsInteger():
		return map[int]int{1: 4, 2: 6, 4: 11, 8: 20}[max(d.Size(), 1)]
	case d.IsFloat() && d.Size() <= 2:
		return 11 // -6.1035e-05
	case d == tensor.Float32:
		return 14 // -1.1754944e-38
	}
	return 24 // float64 and what else: -2.2250738585072014e-308
}
