//go:build !unix

package formats

import "io"

// readLocalHeader is ReadHeaderInto of a local file that passed
// CheckRegular.
func readLocalHeader(buf *[]byte, path string, first int64, parse func(prefix []byte, size int64) (need int64, err error)) (int64, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseLoop(buf, st.Size(), first, func(b []byte) error {
		_, err := f.ReadAt(b, 0)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}, parse)
}
