package formats

import "tensorscope/tensor"

// OpenUndecoded maps the file at path without decoding it: a document with
// the file's bytes and no format, for showing the bytes of a file that
// failed to decode. Its bytes are read, as any document's, between Acquire
// and release or under tensor.CatchFault, and Close unmaps them after the
// last holder returns.
func OpenUndecoded(path string) (*Document, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	st, err := tensor.MapFile(path)
	if err != nil {
		return nil, err
	}
	return &Document{Path: path, Size: int64(len(st.Bytes())), data: st.Bytes(), storage: st}, nil
}
