package viewmodel

import (
	"fmt"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// EntryFacts lists what the file says about a tensor, as (label, value)
// rows for the inspector's facts panel.
func EntryFacts(e *formats.TensorEntry) [][2]string {
	rows := [][2]string{
		{"Name", e.Name},
		{"DType", e.TypeString()},
		{"Shape", textfmt.Dims(e.Shape)},
		{"Role", string(e.Role)},
	}
	if n := elements(e); n >= 0 {
		rows = append(rows, [2]string{"Elements", textfmt.Count(n)})
	}
	if e.HasData() {
		rows = append(rows, [2]string{"Size", textfmt.Bytes(storedBytes(e))})
	}
	if e.Offset >= 0 {
		rows = append(rows, [2]string{"In file", fmt.Sprintf("%s at byte %d (0x%x)", textfmt.Bytes(e.NBytes), e.Offset, e.Offset)})
	}
	if q := e.Quant; q != nil {
		if len(q.Scales) == 1 {
			zp := int64(0)
			if len(q.ZeroPoints) > 0 {
				zp = q.ZeroPoints[0]
			}
			rows = append(rows, [2]string{"Quantisation", fmt.Sprintf("per tensor: scale %s, zero point %d", textfmt.Float(q.Scales[0], 6), zp)})
		} else {
			rows = append(rows, [2]string{"Quantisation", fmt.Sprintf("per channel along axis %d: %d scales", q.Axis, len(q.Scales))})
		}
		if q.Target.Valid() {
			rows = append(rows, [2]string{"Quantised to", q.Target.String() + " when the model runs"})
		}
	}
	for _, a := range e.Attributes() {
		rows = append(rows, [2]string{a.Name, textfmt.Value(a.Value)})
	}
	if e.Note != "" {
		rows = append(rows, [2]string{"Note", e.Note})
	}
	return rows
}
