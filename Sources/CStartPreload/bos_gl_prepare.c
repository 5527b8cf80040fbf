#include "bos_gl_prepare.h"
#include <gdk/wayland/gdkwayland.h>

static GThread *preparing;
static gboolean prepared;

static gpointer prepare(gpointer data) {
    (void)data;
    gboolean ready = gdk_display_prepare_gl(gdk_display_get_default(), NULL);
    // Whatever GDK made current on this thread is let go: current here, a context could not be made
    // current on the main thread.
    gdk_gl_context_clear_current();
    return GINT_TO_POINTER(ready);
}

// The class handler of GtkWindow's "realize", ahead of GTK's own: a window's realize makes its
// renderer, which must not set GL up while the thread does (GDK's GL state has no lock). Every other
// surface (popovers, tooltips, drag icons) is realized after a window.
static void window_realize(GtkWidget *window) {
    bos_gl_prepare_finish();
    g_signal_chain_from_overridden_handler(window);
}

gboolean bos_gl_prepare_start(void) {
    g_return_val_if_fail(preparing == NULL, FALSE);
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return FALSE;
    static gboolean overridden;
    if (!overridden) {
        // The signal exists once GtkWidget's class does; GtkWindow's is needed for the first window anyway.
        g_type_class_ref(GTK_TYPE_WINDOW);
        g_signal_override_class_handler("realize", GTK_TYPE_WINDOW, G_CALLBACK(window_realize));
        overridden = TRUE;
    }
    preparing = g_thread_new("gl-prepare", prepare, NULL);
    return TRUE;
}

gboolean bos_gl_prepare_finish(void) {
    if (preparing != NULL) {
        prepared = GPOINTER_TO_INT(g_thread_join(preparing));
        preparing = NULL;
    }
    return prepared;
}
