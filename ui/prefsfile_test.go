package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"fyne.io/fyne/v2/test"

	"tensorscope/viewmodel"
)

// TestStartupWritesNoPreferences applies the saved theme, as the viewer
// does when it starts: nothing is written to Fyne's preferences, whose
// writes raced Fyne's watch of its own file ("Preferences load error:
// EOF" on a first start). Choosing a theme is remembered.
func TestStartupWritesNoPreferences(t *testing.T) {
	a := test.NewTempApp(t)
	changes := 0
	a.Preferences().AddChangeListener(func() { changes++ })
	applyTheme(a, savedTheme(a))
	if changes != 0 || a.Preferences().String(themePref) != "" {
		t.Errorf("starting wrote the preferences %d times (theme %q)", changes, a.Preferences().String(themePref))
	}
	chooseTheme(a, themeDark)
	if got := savedTheme(a); got != themeDark {
		t.Errorf("the chosen theme is remembered as %q", got)
	}
}

// TestRecentFilesLiveInAFileOfTheirOwn: the recent list is written whole
// to its own file, read back by the next session, and taken from the
// app's preferences until that file exists.
func TestRecentFilesLiveInAFileOfTheirOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "io.github.tensorscope.json")
	old := viewmodel.MemPrefs{"recent-files": {"/old/a.tsr"}}
	p := newFilePrefs(path, old)
	r := viewmodel.NewRecent(p)
	if got := r.List(); !reflect.DeepEqual(got, []string{"/old/a.tsr"}) {
		t.Errorf("before the file exists the list is %q, want the preferences' one", got)
	}
	r.Add("/data/b.gguf")
	next := viewmodel.NewRecent(newFilePrefs(path, nil))
	if got := next.List(); !reflect.DeepEqual(got, []string{"/data/b.gguf", "/old/a.tsr"}) {
		t.Errorf("the next session reads %q", got)
	}
	if got := old["recent-files"]; !reflect.DeepEqual(got, []string{"/old/a.tsr"}) {
		t.Errorf("the app's preferences were written: %q", got)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Errorf("the directory holds %v (%v), want the one file", entries, err)
	}
}
