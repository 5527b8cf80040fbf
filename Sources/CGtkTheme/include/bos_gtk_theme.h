#pragma once
#include <gtk/gtk.h>

// GTK's theme entry points answered by a stand-in, so the app loads GTK's theme itself, trimmed
// (`GtkKit/GtkTheme` says why).

G_BEGIN_DECLS

/// Registers the stand-in for GTK's theme entry points (`data/gtk-theme-stand-in`). Call before GTK
/// starts and before any resource is looked up (GLib registers resources lazily, at the next
/// lookup, in batches: within a batch the one registered first is found first).
void bos_gtk_theme_stand_in_install(void);

/// Whether GTK's theme provider holds the stand-in: GTK resolved the session's theme to its own
/// (Adwaita), not to a theme of the user's or high contrast. Needs GTK started.
gboolean bos_gtk_theme_stand_in_loaded(void);

/// GTK's own resources (its theme's stylesheets among them) as linked into GTK's library, read from
/// the library's mapped `.gresource.gtk` section: usable before GTK starts and registers them, and
/// registering nothing (a lookup in GLib's resources before GTK starts would put GTK's theme ahead of
/// the stand-in). NULL where the section is not found. Made once, kept for the process.
GResource *bos_gtk_theme_library_resources(void);

/// Parses `css` into `provider` before GTK has a display; false, parsing nothing, where criticals
/// are fatal (`G_DEBUG=fatal-criticals`). Each `-gtk-icontheme()` image GTK makes while parsing asks
/// for the default display's icon theme and logs a critical without one; the image takes the
/// display's icon theme when a widget's style is computed, so nothing is lost: those criticals, and
/// only those, are dropped while parsing.
gboolean bos_gtk_theme_parse_without_display(GtkCssProvider *provider, const char *css);

G_END_DECLS
