#pragma once
#include <gtk/gtk.h>

// Setting GL up for GTK's renderer beside the start, for `GtkKit/GLPrepare` (why: its comments).

G_BEGIN_DECLS

/// Starts a thread that sets GL up on the default display as GDK does for the first window's GL
/// renderer (`gdk_display_prepare_gl`: EGL and the display's own context, which GDK keeps), and
/// makes every GtkWindow's realize wait for that thread first. Call once, on the main thread, after
/// the display is open and before any window is realized. Returns FALSE (and starts nothing) when
/// the default display is not a Wayland one.
gboolean bos_gl_prepare_start(void);

/// Waits for the thread, if it runs. Returns whether it set GL up (FALSE when it was never started
/// or GL is not available: GTK then draws with cairo, as it would have anyway).
gboolean bos_gl_prepare_finish(void);

G_END_DECLS
