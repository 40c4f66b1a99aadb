package formats

import (
	"fmt"

	"tensorscope/tensor"
)

// SetText installs the function that spells element flat (a row-major index
// over Shape) as text. Codecs call it for elements the tensor core cannot
// hold as numbers (strings, structured records) and may call it beside a
// loader; reading text must be cheap per element and must not allocate
// beyond the element itself.
func (e *TensorEntry) SetText(at func(flat int) (string, error)) { e.text = at }

// HasText reports whether the entry's elements can be read as text.
func (e *TensorEntry) HasText() bool { return e.text != nil }

// TextAt returns element flat (row-major over Shape) as text.
func (e *TensorEntry) TextAt(flat int) (string, error) {
	if e.text == nil {
		return "", fmt.Errorf("tensor %q has no text values", e.Name)
	}
	n, err := tensor.NumElements(e.Shape)
	if err != nil {
		return "", err
	}
	if flat < 0 || flat >= n {
		return "", fmt.Errorf("tensor %q: element %d outside 0..%d", e.Name, flat, n-1)
	}
	return e.text(flat)
}

// TypeString is the element type as listed: TypeName when the core has no
// dtype for it, else the dtype's NumPy name.
func (e *TensorEntry) TypeString() string {
	if e.TypeName != "" {
		return e.TypeName
	}
	return e.DType.String()
}
