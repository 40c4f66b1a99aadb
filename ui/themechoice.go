package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Theme choices of View ▸ Theme, as stored in the preferences.
const (
	themeSystem = "system"
	themeLight  = "light"
	themeDark   = "dark"
	themePref   = "theme"
)

var themeChoices = []struct{ id, label string }{
	{themeSystem, "System"}, {themeLight, "Light"}, {themeDark, "Dark"},
}

// fixedVariantTheme is Fyne's default theme held at one variant whatever
// the system asks for.
type fixedVariantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

// Color implements fyne.Theme.
func (t fixedVariantTheme) Color(name fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(name, t.variant)
}

// chooseTheme sets the app's theme to the user's choice id and remembers it.
func chooseTheme(a fyne.App, id string) {
	a.Preferences().SetString(themePref, applyTheme(a, id))
}

// applyTheme sets the app's theme to the choice id and returns the choice
// made (an unknown id is the system's). It writes no preferences: at
// startup, a write raced Fyne's watch of its own file, which read it
// half-written ("Preferences load error: EOF").
func applyTheme(a fyne.App, id string) string {
	switch id {
	case themeLight:
		a.Settings().SetTheme(fixedVariantTheme{theme.DefaultTheme(), theme.VariantLight})
	case themeDark:
		a.Settings().SetTheme(fixedVariantTheme{theme.DefaultTheme(), theme.VariantDark})
	default:
		id = themeSystem
		a.Settings().SetTheme(theme.DefaultTheme())
	}
	return id
}

// savedTheme is the theme choice from the preferences.
func savedTheme(a fyne.App) string {
	return a.Preferences().StringWithFallback(themePref, themeSystem)
}

// themeMenu is View ▸ Theme with the current choice checked.
func (mw *MainWindow) themeMenu() *fyne.MenuItem {
	current := savedTheme(mw.app)
	var items []*fyne.MenuItem
	for _, c := range themeChoices {
		c := c
		it := fyne.NewMenuItem(c.label, func() {
			chooseTheme(mw.app, c.id)
			mw.win.SetMainMenu(mw.mainMenu()) // move the check mark
		})
		it.Checked = c.id == current
		items = append(items, it)
	}
	m := fyne.NewMenuItem("Theme", nil)
	m.ChildMenu = fyne.NewMenu("", items...)
	return m
}
