#pragma once
#include <glib.h>

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

G_END_DECLS
