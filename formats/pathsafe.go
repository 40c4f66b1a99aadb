package formats

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

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
	if ref == "" {
		return "", fmt.Errorf("%w: empty path", ErrPathEscapes)
	}
	if strings.ContainsRune(ref, 0) {
		return "", fmt.Errorf("%w: %q contains a NUL byte", ErrPathEscapes, ref)
	}
	if IsRemote(docPath) {
		full, err := remote.ResolveRelative(docPath, ref)
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
	dir := filepath.Dir(docPath)
	full := filepath.Join(dir, clean)
	// Symbolic links: where both resolve, the target must stay inside.
	realDir, err1 := filepath.EvalSymlinks(dir)
	realFull, err2 := filepath.EvalSymlinks(full)
	if err1 == nil && err2 == nil {
		rel, err := filepath.Rel(realDir, realFull)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", fmt.Errorf("%w: %q links outside", ErrPathEscapes, ref)
		}
	}
	return full, nil
}
