#define _GNU_SOURCE
#include "bos_gl_preload.h"
#include <dlfcn.h>
#include <gtk/gtk.h>

char *bos_gl_preload_gtk_library_directory(void) {
    Dl_info info;
    if (dladdr((void *)gtk_init, &info) == 0 || info.dli_fname == NULL) return NULL;
    return g_path_get_dirname(info.dli_fname);
}
