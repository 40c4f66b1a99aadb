package formats

import "os"

// OpenFile opens the source's file for reading with pread, for a codec
// whose decode touches scattered small pieces of a large file: a page
// fault per piece of the mapping costs far more than a pread (each maps
// in a page, or a large folio, of the page cache). It returns nil when
// there is no such file of the mapped size (in-memory and remote sources,
// a file replaced since it was mapped); the caller closes it.
func (src *Source) OpenFile() *os.File {
	if src.Path == "" || IsRemote(src.Path) {
		return nil
	}
	f, st, err := OpenRegular(src.Path)
	if err != nil {
		return nil
	}
	if st.Size() != int64(len(src.Data)) {
		f.Close()
		return nil
	}
	return f
}
