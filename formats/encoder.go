package formats

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"tensorscope/tensor"
)

// Encoder is a format's writer, the optional half of a Format: the codec
// that reads a format is the one that knows how to write it.
type Encoder struct {
	// Extension is the file ending the encoder writes: ".npy".
	Extension string
	// Many is true when one file holds many named tensors (safetensors);
	// otherwise Write is given exactly one tensor.
	Many bool
	// Check reports why a tensor cannot be written, or nil when it can.
	// Writing all of a document's tensors leaves out those it refuses.
	Check func(n Named) error
	// Write writes the tensors to w in order, with metadata (text
	// key-value pairs) where the format has a place for it (safetensors'
	// __metadata__; others ignore it). Any view may be written, strided
	// ones without a full copy; a dtype the format lacks is widened where
	// that keeps every value, and the note says so (it is empty when there
	// is nothing to tell). Cancelling ctx stops the write between chunks.
	Write func(ctx context.Context, w io.Writer, tensors []Named, metadata map[string]string) (note string, err error)
}

// Named is a tensor to write under a name.
type Named struct {
	Name   string
	Tensor *tensor.Tensor
}

// Encoders returns the registered encoders in registration order, those
// that write one tensor first.
func Encoders() []*Encoder {
	var one, many []*Encoder
	for _, f := range Formats() {
		if e := f.Encoder; e != nil && !slices.ContainsFunc(append(one, many...), func(x *Encoder) bool { return x == e }) {
			if e.Many {
				many = append(many, e)
			} else {
				one = append(one, e)
			}
		}
	}
	return append(one, many...)
}

// EncoderFor returns the encoder that writes files named like path
// (by their ending, case-insensitively), or an error listing the endings
// there are.
func EncoderFor(path string) (*Encoder, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range Encoders() {
		if e.Extension == ext {
			return e, nil
		}
	}
	return nil, fmt.Errorf("no format writes %q files; choose a name ending in %s", ext, strings.Join(EncoderExtensions(false), ", "))
}

// EncoderExtensions lists the endings of the registered encoders: all of
// them, or with many only those that hold many named tensors.
func EncoderExtensions(many bool) []string {
	var out []string
	for _, e := range Encoders() {
		if !many || e.Many {
			out = append(out, e.Extension)
		}
	}
	return out
}

// CSVExtension is the ending of the one export that is not an encoder's:
// one plane of a tensor as comma-separated text (viewmodel.WriteCSV).
const CSVExtension = ".csv"

// TensorExportExtensions are the endings one tensor can be exported to:
// every encoder's, and CSVExtension.
func TensorExportExtensions() []string { return append(EncoderExtensions(false), CSVExtension) }
