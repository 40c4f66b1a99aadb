package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"tensorscope/viewmodel"
)

// filePrefs keeps the viewer's lists (File ▸ Open Recent) in a JSON file of
// their own, replaced whole by a rename on every change. In Fyne's
// preferences file they raced Fyne's watch of that file: Fyne truncates
// the file before writing it, and a watcher that read it then logged
// "Preferences load error: EOF", on a new user's first start too.
type filePrefs struct {
	path     string
	fallback viewmodel.Prefs // read while the file does not exist yet (lists kept before it did)
	mu       sync.Mutex
	lists    map[string][]string
}

// recentPrefsPath is where the viewer of app id keeps its lists.
func recentPrefsPath(appID string) string {
	dir, err := os.UserConfigDir()
	if err != nil || appID == "" {
		return ""
	}
	return filepath.Join(dir, "tensorscope", appID+".json")
}

func newFilePrefs(path string, fallback viewmodel.Prefs) *filePrefs {
	return &filePrefs{path: path, fallback: fallback}
}

func (p *filePrefs) load() {
	if p.lists != nil {
		return
	}
	p.lists = map[string][]string{}
	data, err := os.ReadFile(p.path)
	if err != nil {
		p.lists = nil
		return
	}
	if json.Unmarshal(data, &p.lists) != nil {
		p.lists = map[string][]string{} // unreadable: start again
	}
}

// StringList implements viewmodel.Prefs.
func (p *filePrefs) StringList(key string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	if p.lists == nil {
		if p.fallback != nil {
			return p.fallback.StringList(key)
		}
		return nil
	}
	return append([]string(nil), p.lists[key]...)
}

// SetStringList implements viewmodel.Prefs; a failure to write leaves the
// list in memory for this session.
func (p *filePrefs) SetStringList(key string, value []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	if p.lists == nil {
		p.lists = map[string][]string{}
	}
	p.lists[key] = append([]string(nil), value...)
	data, err := json.Marshal(p.lists)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.path), ".recent-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), p.path) != nil {
		os.Remove(tmp.Name())
	}
}
