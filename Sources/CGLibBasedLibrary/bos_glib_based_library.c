#include "bos_glib_based_library.h"

#include <dlfcn.h>
#include <gmodule.h>
#include <stdio.h>

// Opened through GModule, then taken as a plain handle (RTLD_NOLOAD: already loaded, constructors
// run). GModule holds its own lock while it calls dlopen, and GLib-based libraries call GModule from
// their constructors (libsoup's checks for libsoup 2), so both locks must always be taken in that
// order. A bare dlopen took the loader's lock first: with the GTK thread inside g_module_open
// (gdk-pixbuf loading a loader) waiting for the loader's lock, each thread waited for the other — the
// UI tests' intermittent hang, whose stacks (.build/ui-artefacts/hang-*.txt) showed exactly that.
void *bos_open_glib_based_library(const char *soname, const char **error) {
    GModule *module = g_module_open_full(soname, G_MODULE_BIND_LOCAL, NULL);
    if (!module) {
        static __thread char fallback[160];
        snprintf(fallback, sizeof fallback, "%s could not be loaded", soname);
        if (error) *error = g_module_error() ? g_module_error() : fallback;
        return NULL;
    }
    g_module_make_resident(module);
    return dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
}
