package formats

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"tensorscope/internal/remote"
)

// ErrPathEscapes reports a file reference that is absolute or leaves the
// folder of the file that names it. Files from strangers are data: a model
// may only name files beside it or below it.
var ErrPathEscapes = errors.New("path leaves the model's folder")

// ResolveInside resolves ref, a path named inside the file at docPath (a
// shard of a safetensors index, ONNX external data), against docPath's
// folder. It refuses absolute paths, paths with a volume name, and paths
// that leave the folder, lexically or through symbolic links that exist.
// A path that does not exist is returned resolved (the caller reports it
// missing).
func ResolveInside(docPath, ref string) (string, error) {
	return NewInsideResolver(docPath).Resolve(ref)
}

// InsideResolver is ResolveInside for many references from one document
// (a hundred shards): the document's folder is resolved through its
// symbolic links once, and a plain file name beside the document costs one
// lstat instead of evaluating every component of its path again.
type InsideResolver struct {
	docPath string
	dir     string
	once    sync.Once
	realDir string
	dirErr  error
}

// NewInsideResolver returns a resolver of references named in docPath.
func NewInsideResolver(docPath string) *InsideResolver {
	return &InsideResolver{docPath: docPath, dir: filepath.Dir(docPath)}
}

// Resolve is ResolveInside(docPath, ref). It is safe for concurrent use.
func (r *InsideResolver) Resolve(ref string) (string, error) {
	if ref == "" {
		return "", fmt.Errorf("%w: empty path", ErrPathEscapes)
	}
	if strings.ContainsRune(ref, 0) {
		return "", fmt.Errorf("%w: %q contains a NUL byte", ErrPathEscapes, ref)
	}
	if IsRemote(r.docPath) {
		full, err := remote.ResolveRelative(r.docPath, ref)
		if err != nil {
			return "", fmt.Errorf("%w: %q", ErrPathEscapes, ref)
		}
		return full, nil
	}
	slashed := strings.ReplaceAll(ref, `\`, "/")
	if filepath.IsAbs(ref) || strings.HasPrefix(slashed, "/") || filepath.VolumeName(ref) != "" {
		return "", fmt.Errorf("%w: %q is absolute", ErrPathEscapes, ref)
	}
	clean := filepath.Clean(filepath.FromSlash(slashed))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %q", ErrPathEscapes, ref)
	}
	full := filepath.Join(r.dir, clean)
	// Symbolic links: where both resolve, the target must stay inside.
	r.once.Do(func() { r.realDir, r.dirErr = filepath.EvalSymlinks(r.dir) })
	if r.dirErr != nil {
		return full, nil
	}
	if !strings.ContainsRune(clean, filepath.Separator) && clean != "." {
		// A name in the folder itself: it stays inside unless it is a link.
		st, err := os.Lstat(full)
		if err != nil {
			return full, nil // missing (or unreadable): as EvalSymlinks failing
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return full, nil
		}
	}
	realFull, err := filepath.EvalSymlinks(full)
	if err == nil {
		rel, err := filepath.Rel(r.realDir, realFull)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", fmt.Errorf("%w: %q links outside", ErrPathEscapes, ref)
		}
	}
	return full, nil
}
