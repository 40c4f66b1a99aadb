package formats

import (
	"errors"
	"fmt"
)

// Error is a decoding failure at a place in a file: it names the file, the
// byte offset and what was expected versus found.
type Error struct {
	Path   string // filled in by Open when the codec leaves it empty
	Format string // registry id of the codec that failed
	Offset int64  // -1 when the failure has no single place
	Msg    string

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
