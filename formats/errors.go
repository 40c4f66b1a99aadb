package formats

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Error is a decoding failure at a place in a file: it names the file, the
// byte offset and what was expected versus found.
type Error struct {
	Path   string // filled in by Open when the codec leaves it empty
	Format string // registry id of the codec that failed
	Offset int64  // -1 when the failure has no single place
	Msg    string
	// Header holds the header fields decoded before the failure, for the
	// failed file's tab: a codec returns its partial document with the
	// error and Open moves the fields here.
	Header []HeaderField

	truncated bool
}

func (e *Error) Error() string {
	where := e.Path
	if where == "" {
		where = "<memory>"
	}
	if e.Format != "" {
		where += " (" + e.Format + ")"
	}
	if e.Offset < 0 {
		return where + ": " + e.Msg
	}
	return fmt.Sprintf("%s: at byte %d: %s", where, e.Offset, e.Msg)
}

// Errorf returns an *Error at offset.
func Errorf(offset int64, format string, args ...any) *Error {
	return &Error{Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

// ErrUnknownFormat is wrapped by Open's error when no codec recognises a file.
var ErrUnknownFormat = errors.New("unknown format")

// ErrEmpty is wrapped by Open's error when the file has no bytes at all,
// which no format allows; saying so beats "unknown format".
var ErrEmpty = errors.New("the file is empty")

// ErrTruncated is wrapped by errors about reads past the end of the file.
var ErrTruncated = errors.New("file is truncated")

// Unwrap lets errors.Is(err, ErrTruncated) tell truncation from corruption.
func (e *Error) Unwrap() error {
	if e.truncated {
		return ErrTruncated
	}
	return nil
}

func truncatedf(offset int64, format string, args ...any) *Error {
	e := Errorf(offset, format, args...)
	e.truncated = true
	return e
}

// Describe words err for someone who already knows it is about path:
// "at byte 16: dtype: expected one of 1 FP32, 2 INT8, 3 INT32, found 9
// (read as TSR v1 tensor file)", or the bare reason ("no such file or
// directory") when the failure has no place in the file.
func Describe(path string, err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		msg := fe.Msg
		if fe.Offset >= 0 {
			msg = fmt.Sprintf("at byte %d: %s", fe.Offset, msg)
		}
		if f := Lookup(fe.Format); f != nil {
			msg += " (read as " + f.Name + ")"
		}
		return msg
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	// Errors from the registry and the mapping start with the path.
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, path+": "); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(msg, path+" "); ok {
		return rest
	}
	return msg
}
