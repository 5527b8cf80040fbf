#pragma once
#include <glib.h>

// Where GTK's GL driver is found, for `GtkKit/GLDriverPreload` (why: its comments).

G_BEGIN_DECLS

/// The directory libgtk-4 was loaded from (`/usr/lib/x86_64-linux-gnu` on Debian), or NULL.
/// Mesa's drivers are installed beside it, in its `dri` directory. Free with g_free.
char *bos_gl_preload_gtk_library_directory(void);

G_END_DECLS
