package remote

import (
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// FuzzResolveRelative holds the rule a shard or external-data name from a
// stranger's file must keep: it resolves inside the model's folder, or is
// refused. Seeded with the samples' own relative file names.
func FuzzResolveRelative(f *testing.F) {
	bases := []string{"https://host/org/repo/resolve/main/model.safetensors.index.json", "hf://org/repo@v1/sub/model.onnx", "http://h:8080/a%20b/m.gguf"}
	for _, ref := range []string{"model-00001-of-00002.safetensors", "weights/w.bin", "../x", "a/../../b", "%2e%2e/x", "/etc/passwd", "x?y", "c:/x"} {
		f.Add(bases[0], ref)
	}
	if root := samples.Root(); root != "" {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if rel, err := filepath.Rel(root, p); err == nil {
					f.Add(bases[1], filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		if _, err := Resolve(base); err != nil || !strings.Contains(base, "/") {
			return
		}
		got, err := ResolveRelative(base, ref)
		if err != nil {
			return
		}
		dir := base[:strings.LastIndexByte(base, '/')+1]
		if strings.HasPrefix(strings.ToLower(base), "hf://") && !strings.HasPrefix(got, dir) {
			t.Fatalf("ResolveRelative(%q, %q) = %q, outside %q", base, ref, got, dir)
		}
		if bu, err := url.Parse(base); err == nil && !strings.HasPrefix(strings.ToLower(base), "hf://") {
			gu, err := url.Parse(got)
			if err != nil || gu.Host != bu.Host || !strings.HasPrefix(gu.Path, bu.Path[:strings.LastIndexByte(bu.Path, '/')+1]) {
				t.Fatalf("ResolveRelative(%q, %q) = %q, outside the folder of %q", base, ref, got, bu.Path)
			}
		}
		if strings.Contains(got, "/../") || strings.HasSuffix(got, "/..") {
			t.Fatalf("ResolveRelative(%q, %q) = %q climbs", base, ref, got)
		}
	})
}
