package viewmodel

import (
	"errors"

	"tensorscope/formats"
)

// FailedFile is the tab of a file that could not be decoded: the error with
// its byte offset, the header fields the codec decoded before it failed
// (Hex.Fields, linked to their bytes as in the Header pane), and the
// file's bytes scrolled to that offset with the failing byte marked, so the
// user can look at what is wrong.
type FailedFile struct {
	Path   string
	Err    error // worded for the user (see OpenError)
	Offset int64 // where decoding failed, -1 when the error has no place
	Hex    *HeaderView

	doc *formats.Document // the file's bytes, undecoded
}

// NewFailedFile maps the file at path after err stopped its decoding. It
// returns nil when the file itself cannot be read (it does not exist, or
// cannot be mapped): then there are no bytes to show, only the error.
func NewFailedFile(path string, err error) *FailedFile {
	// A remote file's bytes would be fetched again, on the UI goroutine:
	// its failed tab shows the error alone.
	if formats.IsRemote(path) {
		return nil
	}
	doc, mapErr := formats.OpenUndecoded(path)
	if mapErr != nil {
		return nil
	}
	f := &FailedFile{Path: path, Err: err, Offset: -1, doc: doc}
	var fe *formats.Error
	var fields []formats.HeaderField
	if errors.As(err, &fe) {
		fields = fe.Header
		if fe.Offset >= 0 {
			f.Offset = fe.Offset
		}
	}
	f.Hex = newHexView(fields, doc.Bytes(), 0)
	f.Hex.GoTo(max(f.Offset, 0))
	if f.Offset >= 0 {
		f.Hex.SetMark(f.Offset, 1)
	}
	return f
}

// Close releases the file once nothing reads it.
func (f *FailedFile) Close() { f.doc.Close() }
