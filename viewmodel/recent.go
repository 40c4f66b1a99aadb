package viewmodel

import "path/filepath"

// Prefs is where small settings persist; the ui passes Fyne's preferences.
type Prefs interface {
	StringList(key string) []string
	SetStringList(key string, value []string)
}

// MemPrefs is an in-memory Prefs for tests and headless use.
type MemPrefs map[string][]string

func (m MemPrefs) StringList(key string) []string { return m[key] }
func (m MemPrefs) SetStringList(key string, v []string) {
	m[key] = append([]string(nil), v...)
}

const (
	recentKey = "recent-files"
	// MaxRecent is how many files File ▸ Open Recent remembers.
	MaxRecent = 10
)

// Recent is the most-recently-opened list, newest first, without repeats.
type Recent struct{ prefs Prefs }

// NewRecent reads the list from prefs.
func NewRecent(p Prefs) *Recent { return &Recent{prefs: p} }

// List returns the remembered paths, newest first.
func (r *Recent) List() []string { return r.prefs.StringList(recentKey) }

// Add moves path to the front.
func (r *Recent) Add(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	list := []string{path}
	for _, p := range r.List() {
		if p != path && len(list) < MaxRecent {
			list = append(list, p)
		}
	}
	r.prefs.SetStringList(recentKey, list)
}

// Remove forgets path (e.g. after it failed to open because it is gone).
func (r *Recent) Remove(path string) {
	var list []string
	for _, p := range r.List() {
		if p != path {
			list = append(list, p)
		}
	}
	r.prefs.SetStringList(recentKey, list)
}

// Clear forgets every path.
func (r *Recent) Clear() { r.prefs.SetStringList(recentKey, nil) }
