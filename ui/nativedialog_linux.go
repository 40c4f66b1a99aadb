package ui

func nativeOpen(title, startDir string, filters []fileFilter) (path string, ok bool) {
	return gtkChoose(gtkActionOpen, title, "_Open", startDir, "", filters)
}

func nativeSave(title, startDir, startFile string, filters []fileFilter) (path string, ok bool) {
	return gtkChoose(gtkActionSave, title, "_Save", startDir, startFile, filters)
}

func nativeFolder(title string) (dir string, ok bool) {
	return gtkChoose(gtkActionFolder, title, "_Open", "", "", nil)
}
