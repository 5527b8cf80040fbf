#include "bos_gtk_theme.h"

#include <gtk/gtk.h>

void bos_gtk_theme_stand_in_register_resource(void);

void bos_gtk_theme_stand_in_install(void) {
    bos_gtk_theme_stand_in_register_resource();
}

gboolean bos_gtk_theme_stand_in_loaded(void) {
    GtkWidget *probe = g_object_ref_sink(gtk_label_new(NULL));
    GdkRGBA color;
    // The stand-in's one rule names this colour; nothing else does.
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gboolean found =
        gtk_style_context_lookup_color(gtk_widget_get_style_context(probe), "bos_gtk_theme_stand_in", &color);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_object_unref(probe);
    return found;
}
