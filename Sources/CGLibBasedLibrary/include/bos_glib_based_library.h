// Opening a GLib-based shared library (libsoup, VTE, WebKitGTK) on first use, in the one lock order
// that cannot deadlock against GLib's own module loading (why: bos_glib_based_library.c).
#pragma once

/// A `dlopen` handle to `soname`, loaded through GModule and kept for the process's life; NULL when
/// it cannot be loaded, with `*error` (if given) saying why: GModule's message, valid until the
/// thread's next GModule call, or one naming the library.
void *bos_open_glib_based_library(const char *soname, const char **error);
