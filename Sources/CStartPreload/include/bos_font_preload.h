#pragma once
#include <gtk/gtk.h>

// Loading the fonts of the first frame beside GTK's start.
//
// GTK's start (`gtk_init`: on X11 it sets up GL to choose a visual) keeps the main thread busy
// while the second core has little to do (it also loads GTK's GL driver, `GtkKit/GLDriverPreload`,
// at normal priority: this thread runs at nice 10). The first frame would then load its fonts on
// the main thread: fontconfig's matching, FreeType's faces, HarfBuzz's tables and shaping plans,
// cairo's glyphs — a third of laying the window out. A Pango font map is not tied to a thread, so
// a font map filled on another thread while GTK starts can become the main thread's default.
//
// Pango keeps a loaded font set per font description *and* per context setting (the font options
// and resolution GTK derives from the desktop's settings, the language): a font map filled with
// other settings than GTK's does not help. GTK's settings are only known once GTK has started, so
// the app describes what its first frame used (`bos_font_setup_describe_*`) and loads that at the
// next start.

G_BEGIN_DECLS

/// The context settings `widget`'s text is laid out with, as one line for
/// `bos_font_preload_load` ("antialias hint-style hint-metrics subpixel-order resolution language").
char *bos_font_setup_describe_context(GtkWidget *widget);

/// The most characters kept per font by `bos_font_setup_describe_fonts`, in bytes.
#define BOS_FONT_CHARACTERS_MAX 1000

/// The font descriptions the labels under `root` use (their own, and each font-changing attribute
/// of their text merged in: bold, italic, a code span's family), at most `limit`, without repeats,
/// the one that sets the most characters first. A NULL-terminated array for g_strfreev; `characters`
/// receives another, in the same order: the characters each font sets (each once, no control
/// characters, at most BOS_FONT_CHARACTERS_MAX bytes).
char **bos_font_setup_describe_fonts(GtkWidget *root, int limit, char ***characters);

/// A new Pango font map with `fonts` (Pango font description strings) loaded for the settings in
/// `context` (a `bos_font_setup_describe_context` line; anything unreadable in it is left at
/// Pango's default), and each font's `characters` laid out and drawn in it. Safe on any thread, but
/// it lowers the calling thread to nice 10 for good: call it on a thread of its own.
PangoFontMap *bos_font_preload_load(const char *context, const char *const *fonts, const char *const *characters,
                                    int count);

/// Makes `map` the calling thread's default font map — the one GTK's widgets lay text out with —
/// and drops the caller's reference.
void bos_font_preload_make_default(PangoFontMap *map);

G_END_DECLS
