package formats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resolveEveryComponent is ResolveInside as it was before InsideResolver:
// both paths evaluated through their links on every call. The resolver's
// one-lstat path for plain names must agree with it.
func resolveEveryComponent(docPath, ref string) (string, error) {
	if ref == "" || strings.ContainsRune(ref, 0) {
		return "", ErrPathEscapes
	}
	slashed := strings.ReplaceAll(ref, `\`, "/")
	if filepath.IsAbs(ref) || strings.HasPrefix(slashed, "/") || filepath.VolumeName(ref) != "" {
		return "", ErrPathEscapes
	}
	clean := filepath.Clean(filepath.FromSlash(slashed))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", ErrPathEscapes
	}
	dir := filepath.Dir(docPath)
	full := filepath.Join(dir, clean)
	realDir, err1 := filepath.EvalSymlinks(dir)
	realFull, err2 := filepath.EvalSymlinks(full)
	if err1 == nil && err2 == nil {
		rel, err := filepath.Rel(realDir, realFull)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", ErrPathEscapes
		}
	}
	return full, nil
}

func TestInsideResolverAgrees(t *testing.T) {
	root := t.TempDir()
	model := filepath.Join(root, "model")
	sub := filepath.Join(model, "sub")
	for _, d := range []string{model, sub} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(model, "a.bin"))
	write(filepath.Join(sub, "b.bin"))
	write(filepath.Join(root, "secret.bin"))
	links := map[string]string{
		filepath.Join(model, "in.bin"):      "a.bin",
		filepath.Join(model, "out.bin"):     "../secret.bin",
		filepath.Join(model, "abs.bin"):     filepath.Join(root, "secret.bin"),
		filepath.Join(model, "dangling"):    "nowhere.bin",
		filepath.Join(model, "updir"):       "..",
		filepath.Join(sub, "out.bin"):       "../../secret.bin",
		filepath.Join(model, "subdir-link"): "sub",
		filepath.Join(root, "alias"):        "model", // the document's folder through a link
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	refs := []string{"a.bin", "in.bin", "out.bin", "abs.bin", "dangling", "missing.bin", "sub/b.bin", "sub/out.bin",
		"subdir-link/b.bin", "updir/secret.bin", "updir", ".", "./a.bin", "sub/../a.bin", "../secret.bin", "/etc/passwd",
		`sub\b.bin`, "", "a\x00b"}
	for _, docPath := range []string{filepath.Join(model, "m.json"), filepath.Join(root, "alias", "m.json"), filepath.Join(root, "gone", "m.json")} {
		r := NewInsideResolver(docPath)
		for _, ref := range refs {
			want, wantErr := resolveEveryComponent(docPath, ref)
			got, err := r.Resolve(ref)
			if (err != nil) != (wantErr != nil) || got != want {
				t.Errorf("%s, %q: %q, %v; resolving every component gives %q, %v", docPath, ref, got, err, want, wantErr)
			}
			if err != nil && !errors.Is(err, ErrPathEscapes) {
				t.Errorf("%q: %v is not ErrPathEscapes", ref, err)
			}
		}
	}
}

// A resolver is shared by the goroutines that read a checkpoint's shards.
func TestInsideResolverConcurrent(t *testing.T) {
	dir := t.TempDir()
	r := NewInsideResolver(filepath.Join(dir, "m.json"))
	done := make(chan error)
	for i := range 8 {
		go func() {
			_, err := r.Resolve(fmt.Sprintf("shard-%d.bin", i))
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
