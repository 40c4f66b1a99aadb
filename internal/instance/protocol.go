package instance

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A request is requestMagic followed by each path terminated by a NUL
// byte (the one byte a Unix path cannot contain); the sender then shuts
// down its writing half. The reply is "ok\n" or "error: <reason>\n".
const (
	requestMagic = "tensorscope-open/1\x00"
	replyOK      = "ok\n"
	replyError   = "error: "
)

// encodeRequest builds a request for already-resolved paths.
func encodeRequest(paths []string) ([]byte, error) {
	if len(paths) == 0 {
		return nil, errors.New("instance: no paths to send")
	}
	if len(paths) > MaxPaths {
		return nil, fmt.Errorf("instance: %d paths exceed the limit of %d per request", len(paths), MaxPaths)
	}
	var b bytes.Buffer
	b.WriteString(requestMagic)
	for _, p := range paths {
		if p == "" || bytes.IndexByte([]byte(p), 0) >= 0 {
			return nil, fmt.Errorf("instance: path %q cannot be sent", p)
		}
		b.WriteString(p)
		b.WriteByte(0)
	}
	if b.Len() > MaxMessage {
		return nil, fmt.Errorf("instance: request of %d bytes exceeds the limit of %d", b.Len(), MaxMessage)
	}
	return b.Bytes(), nil
}

// decodeRequest parses a request and checks every path; it returns the
// paths only when all of them are acceptable, so a bad request is never
// partly acted on.
func decodeRequest(msg []byte) ([]string, error) {
	if len(msg) > MaxMessage {
		return nil, fmt.Errorf("request larger than %d bytes", MaxMessage)
	}
	if !bytes.HasPrefix(msg, []byte(requestMagic)) {
		return nil, errors.New("request does not start with the protocol header")
	}
	body := msg[len(requestMagic):]
	if len(body) == 0 {
		return nil, errors.New("request names no paths")
	}
	if body[len(body)-1] != 0 {
		return nil, errors.New("last path is not NUL-terminated")
	}
	fields := bytes.Split(body[:len(body)-1], []byte{0})
	if len(fields) > MaxPaths {
		return nil, fmt.Errorf("request names %d paths, more than %d", len(fields), MaxPaths)
	}
	paths := make([]string, len(fields))
	for i, f := range fields {
		p := string(f)
		if err := checkPath(p); err != nil {
			return nil, err
		}
		paths[i] = p
	}
	return paths, nil
}

// checkPath accepts an absolute, clean path of an existing regular file
// (symbolic links to one included).
func checkPath(p string) error {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return fmt.Errorf("path %s is not absolute and clean", quoteShort(p))
	}
	st, err := os.Stat(p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("path %s: %v", quoteShort(p), err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("path %s is not a regular file", quoteShort(p))
	}
	return nil
}

// resolvePaths turns the sender's arguments into what a request carries:
// relative paths are resolved against the sender's working directory,
// because the primary's differs.
func resolvePaths(paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("instance: %s: %w", p, err)
		}
		st, err := os.Stat(abs)
		if err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%w: %s", ErrInvalidPath, p)
		}
		out[i] = abs
	}
	return out, nil
}

// quoteShort quotes untrusted text for a log line, cut to a readable length.
func quoteShort(s string) string {
	const max = 200
	if len(s) > max {
		return fmt.Sprintf("%q…(%d bytes)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}
