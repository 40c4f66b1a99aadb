//go:build linux && cgo

package ui

// The GTK file chooser, loaded with dlopen the first time a dialog is shown.
//
// Linking GTK (as github.com/sqweek/dialog does) makes the dynamic loader
// map and relocate GTK and its ~65 libraries, and sqweek/dialog's package
// initialiser calls gtk_init_check, in every process: about 40 ms of CPU
// before main, which every headless command (info, stats, …) paid although
// it never shows a dialog. Loaded on demand, only the viewer pays, and only
// when the user opens a file dialog. Without libgtk-3 installed the dialog
// reports that it cannot run and the caller falls back to Fyne's own.
//
// GTK must be called from the thread that initialised it: every call here
// is made on the UI goroutine, which Fyne keeps on the main thread.

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef int (*init_check_fn)(int *, char ***);
typedef void *(*chooser_new_fn)(const char *, void *, int, const char *, ...);
typedef int (*dialog_run_fn)(void *);
typedef int (*set_string_fn)(void *, const char *);
typedef void (*set_bool_fn)(void *, int);
typedef char *(*get_string_fn)(void *);
typedef void *(*new_fn)(void);
typedef void (*set_name_fn)(void *, const char *);
typedef void (*add_fn)(void *, void *);
typedef void (*unary_fn)(void *);
typedef int (*pending_fn)(void);

static struct {
	init_check_fn init_check;
	chooser_new_fn chooser_new;
	dialog_run_fn dialog_run;
	set_string_fn set_current_folder, set_current_name;
	set_bool_fn set_overwrite_confirmation;
	get_string_fn get_filename;
	new_fn filter_new;
	set_name_fn filter_set_name, filter_add_pattern;
	add_fn add_filter;
	unary_fn widget_destroy, g_free;
	pending_fn events_pending, main_iteration;
} gtk;

// gtk_load opens libgtk-3 and resolves what the chooser uses; it returns
// 0 on success, 1 when the library is missing, 2 when a symbol is, and 3
// when GTK cannot initialise (no display).
static int gtk_load(void) {
	void *h = dlopen("libgtk-3.so.0", RTLD_NOW | RTLD_GLOBAL);
	if (!h) return 1;
#define SYM(field, name) if (!(*(void **)&gtk.field = dlsym(h, name))) return 2
	SYM(init_check, "gtk_init_check");
	SYM(chooser_new, "gtk_file_chooser_dialog_new");
	SYM(dialog_run, "gtk_dialog_run");
	SYM(set_current_folder, "gtk_file_chooser_set_current_folder");
	SYM(set_current_name, "gtk_file_chooser_set_current_name");
	SYM(set_overwrite_confirmation, "gtk_file_chooser_set_do_overwrite_confirmation");
	SYM(get_filename, "gtk_file_chooser_get_filename");
	SYM(filter_new, "gtk_file_filter_new");
	SYM(filter_set_name, "gtk_file_filter_set_name");
	SYM(filter_add_pattern, "gtk_file_filter_add_pattern");
	SYM(add_filter, "gtk_file_chooser_add_filter");
	SYM(widget_destroy, "gtk_widget_destroy");
	SYM(g_free, "g_free");
	SYM(events_pending, "gtk_events_pending");
	SYM(main_iteration, "gtk_main_iteration");
#undef SYM
	return gtk.init_check(NULL, NULL) ? 0 : 3;
}

static void *chooser_new(const char *title, int action, const char *accept) {
	// GTK_RESPONSE_CANCEL is -6 and GTK_RESPONSE_ACCEPT -3.
	return gtk.chooser_new(title, NULL, action, "_Cancel", -6, accept, -3, (char *)NULL);
}
static void add_filter(void *chooser, const char *name, const char *patterns) {
	void *f = gtk.filter_new();
	gtk.filter_set_name(f, name);
	for (const char *p = patterns; *p; p += strlen(p) + 1) gtk.filter_add_pattern(f, p);
	gtk.add_filter(chooser, f);
}
static int chooser_run(void *chooser, const char *dir, const char *name, int confirm) {
	if (*dir) gtk.set_current_folder(chooser, dir);
	if (*name) gtk.set_current_name(chooser, name);
	gtk.set_overwrite_confirmation(chooser, confirm);
	return gtk.dialog_run(chooser) == -3;
}
// chooser_filename returns the chosen path, to be freed with free.
static char *chooser_filename(void *chooser) {
	char *g = gtk.get_filename(chooser);
	if (!g) return NULL;
	char *s = strdup(g);
	gtk.g_free(g);
	return s;
}
// chooser_close destroys the dialog and lets GTK take it off the screen,
// which needs a few turns of its event loop (no GTK main loop runs here).
static void chooser_close(void *chooser) {
	gtk.widget_destroy(chooser);
	while (gtk.events_pending()) gtk.main_iteration();
}
*/
import "C"

import (
	"os"
	"strings"
	"sync"
	"unsafe"
)

// The actions of GtkFileChooserAction.
const (
	gtkActionOpen   = 0
	gtkActionSave   = 1
	gtkActionFolder = 2
)

var (
	gtkOnce  sync.Once
	gtkReady bool
)

// gtkChoose shows a GTK chooser. ok is false when GTK cannot be loaded or
// initialised; a cancelled dialog gives ok with "".
func gtkChoose(action int, title, accept, startDir, startName string, filters []fileFilter) (path string, ok bool) {
	gtkOnce.Do(func() {
		quietSettings()
		gtkReady = C.gtk_load() == 0
	})
	if !gtkReady {
		return "", false
	}
	var frees []unsafe.Pointer
	cstr := func(s string) *C.char {
		p := C.CString(s)
		frees = append(frees, unsafe.Pointer(p))
		return p
	}
	defer func() {
		for _, p := range frees {
			C.free(p)
		}
	}()
	dlg := C.chooser_new(cstr(title), C.int(action), cstr(accept))
	defer C.chooser_close(dlg)
	for _, f := range filters {
		C.add_filter(dlg, cstr(f.Name), cstr(gtkPatterns(f.Extensions)))
	}
	confirm := C.int(0)
	if action == gtkActionSave {
		confirm = 1
	}
	if C.chooser_run(dlg, cstr(startDir), cstr(startName), confirm) == 0 {
		return "", true
	}
	name := C.chooser_filename(dlg)
	if name == nil {
		return "", true
	}
	defer C.free(unsafe.Pointer(name))
	return C.GoString(name), true
}

// quietSettings keeps GTK's settings in memory when there is no D-Bus
// session (ssh -X, a bare X server): the chooser saves its state through
// dconf, which then prints a "failed to commit changes to dconf" warning
// for every change.
func quietSettings() {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" && os.Getenv("GSETTINGS_BACKEND") == "" {
		os.Setenv("GSETTINGS_BACKEND", "memory")
	}
}

// gtkPatterns packs the glob patterns of a filter's extensions as C
// strings one after another, ended by an empty one (the final NUL comes
// from C.CString).
func gtkPatterns(exts []string) string {
	var b strings.Builder
	for _, e := range exts {
		if e == "*" {
			b.WriteString("*")
		} else {
			b.WriteString("*." + e)
		}
		b.WriteByte(0)
	}
	return b.String()
}
