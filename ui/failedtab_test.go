package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"tensorscope/formats"
	"tensorscope/viewmodel"
)

// TestGoldenFailedFileTab truncates a TSR4 file inside its tensor data:
// the tab shows the error with its byte offset above the header fields
// read before the failure and the file's bytes, scrolled to the failing
// byte, which is marked.
func TestGoldenFailedFileTab(t *testing.T) {
	test.NewTempApp(t)
	data := tsrFixture(t)
	path := filepath.Join(t.TempDir(), "truncated.tsr")
	if err := os.WriteFile(path, data[:len(data)-200], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := formats.Open(path)
	if err == nil {
		t.Fatal("the truncated file opened")
	}
	f := viewmodel.NewFailedFile(path, viewmodel.OpenError(path, err))
	if f == nil {
		t.Fatal("no failed-file view")
	}
	defer f.Close()
	win := goldenWindow(t, newFailedContent(nil, f, func() {}), 1000, 560)
	test.AssertRendersToImage(t, "failed_file_tab.png", win.Canvas())
}
