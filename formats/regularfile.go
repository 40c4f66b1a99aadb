package formats

import (
	"fmt"
	"io/fs"
	"os"
)

// CheckRegular returns an error unless path is a regular file or a
// symbolic link to one. Every file Tensorscope reads (a document, a shard,
// external data) passes it before it is opened: open(2) of a FIFO waits
// for a writer, which may never come, and a device or a directory holds no
// tensor file. os.Stat never blocks on either and follows symbolic links.
func CheckRegular(path string) error {
	_, err := StatRegular(path)
	return err
}

// StatRegular is CheckRegular that also returns what the stat found (the
// size, say).
func StatRegular(path string) (fs.FileInfo, error) {
	if IsRemote(path) {
		return statRemote(path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return st, regular(path, st)
}

// OpenRegular opens path for reading once CheckRegular has passed, and
// checks the opened file again (the name may have been replaced between
// the two).
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	if err := CheckRegular(path); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = regular(path, st)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

func regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: st.Mode()}
}

// NotRegularError is CheckRegular's refusal.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: %s, not a regular file; only regular files (or symbolic links to them) are read", e.Path, kindOf(e.Mode))
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "of type " + m.Type().String()
}
