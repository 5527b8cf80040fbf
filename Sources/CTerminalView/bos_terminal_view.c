#include "bos_terminal_view.h"

#include <dlfcn.h>
#include <gtk/gtk.h>

#include "bos_glib_based_library.h"

// PCRE2 compile flags VTE's regexes take (pcre2.h is not needed to build).
#define BOS_PCRE2_CASELESS 0x00000008u
#define BOS_PCRE2_MULTILINE 0x00000400u
#define BOS_PCRE2_UTF 0x00080000u
#define BOS_PCRE2_NO_UTF_CHECK 0x40000000u

static struct {
    void *library;
    GtkWidget *(*new_terminal)(void);
    void (*feed)(void *, const char *, gssize);
    glong (*rows)(void *);
    glong (*columns)(void *);
    void (*set_colors)(void *, const GdkRGBA *, const GdkRGBA *, const GdkRGBA *, gsize);
    void (*set_font_scale)(void *, double);
    double (*font_scale)(void *);
    void (*copy)(void *, int);
    void (*paste)(void *);
    gboolean (*has_selection)(void *);
    void (*set_scrollback)(void *, glong);
    void (*set_mouse_autohide)(void *, gboolean);
    void *(*regex_for_search)(const char *, gssize, guint32, GError **);
    void *(*regex_for_match)(const char *, gssize, guint32, GError **);
    void *(*regex_unref)(void *);
    void (*search_set_regex)(void *, void *, guint32);
    void (*search_wrap)(void *, gboolean);
    gboolean (*find_next)(void *);
    gboolean (*find_previous)(void *);
    int (*match_add)(void *, void *, guint32);
    void (*match_cursor)(void *, int, const char *);
    char *(*check_match_at)(void *, double, double, int *);
    char *(*get_text)(void *, void *, void *, void *);
    void (*feed_child)(void *, const char *, gssize);
} vte;

static const char *load_error;

#define RESOLVE(field, name)                                      \
    do {                                                          \
        if (!(*(void **)&vte.field = dlsym(vte.library, name))) { \
            load_error = "libvte-2.91-gtk4 lacks " name;          \
            goto fail;                                            \
        }                                                         \
    } while (0)

int bos_terminal_load(const char **error) {
    if (vte.library) return 1;
    void *library = bos_open_glib_based_library("libvte-2.91-gtk4.so.0", &load_error);
    if (!library) {
        if (error) *error = load_error;
        return 0;
    }
    vte.library = library;
    RESOLVE(new_terminal, "vte_terminal_new");
    RESOLVE(feed, "vte_terminal_feed");
    RESOLVE(rows, "vte_terminal_get_row_count");
    RESOLVE(columns, "vte_terminal_get_column_count");
    RESOLVE(set_colors, "vte_terminal_set_colors");
    RESOLVE(set_font_scale, "vte_terminal_set_font_scale");
    RESOLVE(font_scale, "vte_terminal_get_font_scale");
    RESOLVE(copy, "vte_terminal_copy_clipboard_format");
    RESOLVE(paste, "vte_terminal_paste_clipboard");
    RESOLVE(has_selection, "vte_terminal_get_has_selection");
    RESOLVE(set_scrollback, "vte_terminal_set_scrollback_lines");
    RESOLVE(set_mouse_autohide, "vte_terminal_set_mouse_autohide");
    RESOLVE(regex_for_search, "vte_regex_new_for_search");
    RESOLVE(regex_for_match, "vte_regex_new_for_match");
    RESOLVE(regex_unref, "vte_regex_unref");
    RESOLVE(search_set_regex, "vte_terminal_search_set_regex");
    RESOLVE(search_wrap, "vte_terminal_search_set_wrap_around");
    RESOLVE(find_next, "vte_terminal_search_find_next");
    RESOLVE(find_previous, "vte_terminal_search_find_previous");
    RESOLVE(match_add, "vte_terminal_match_add_regex");
    RESOLVE(match_cursor, "vte_terminal_match_set_cursor_name");
    RESOLVE(check_match_at, "vte_terminal_check_match_at");
    RESOLVE(get_text, "vte_terminal_get_text");
    RESOLVE(feed_child, "vte_terminal_feed_child");
    return 1;
fail:
    dlclose(library);
    vte.library = NULL;
    if (error) *error = load_error;
    return 0;
}

int bos_terminal_is_loaded(void) {
    return vte.library != NULL;
}

// http(s) and www. addresses up to the first space, quote or angle bracket.
static const char *url_pattern = "(https?://|www\\.)[^\\s\"'<>`]+[^\\s\"'<>`.,;:!?)\\]]";

void *bos_terminal_new(long scrollback) {
    GtkWidget *terminal = vte.new_terminal();
    vte.set_scrollback(terminal, scrollback);
    vte.set_mouse_autohide(terminal, TRUE);
    vte.search_wrap(terminal, TRUE);
    void *regex = vte.regex_for_match(url_pattern, -1, BOS_PCRE2_UTF | BOS_PCRE2_MULTILINE | BOS_PCRE2_CASELESS, NULL);
    if (regex) {
        int tag = vte.match_add(terminal, regex, 0);
        if (tag >= 0) vte.match_cursor(terminal, tag, "pointer");
        vte.regex_unref(regex);
    }
    return terminal;
}

void bos_terminal_feed(void *terminal, const char *bytes, long length) {
    vte.feed(terminal, bytes, length);
}
long bos_terminal_rows(void *terminal) {
    return vte.rows(terminal);
}
long bos_terminal_columns(void *terminal) {
    return vte.columns(terminal);
}

void bos_terminal_set_colors(void *terminal, const char *foreground, const char *background,
                             const char *const palette[16]) {
    GdkRGBA fg, bg, colors[16];
    gdk_rgba_parse(&fg, foreground);
    gdk_rgba_parse(&bg, background);
    for (int i = 0; i < 16; i++) gdk_rgba_parse(&colors[i], palette[i]);
    vte.set_colors(terminal, &fg, &bg, colors, 16);
}

void bos_terminal_set_font_scale(void *terminal, double scale) {
    vte.set_font_scale(terminal, scale);
}
double bos_terminal_font_scale(void *terminal) {
    return vte.font_scale(terminal);
}
void bos_terminal_copy(void *terminal) {
    vte.copy(terminal, 1 /* VTE_FORMAT_TEXT (0 is not a format: VTE refuses it) */);
}
void bos_terminal_paste(void *terminal) {
    vte.paste(terminal);
}
int bos_terminal_has_selection(void *terminal) {
    return vte.has_selection(terminal);
}

int bos_terminal_search(void *terminal, const char *pattern) {
    if (!pattern || !*pattern) {
        vte.search_set_regex(terminal, NULL, 0);
        return 1;
    }
    void *regex = vte.regex_for_search(pattern, -1, BOS_PCRE2_UTF | BOS_PCRE2_MULTILINE | BOS_PCRE2_CASELESS, NULL);
    if (!regex) return 0;
    vte.search_set_regex(terminal, regex, 0);
    vte.regex_unref(regex);
    return 1;
}

int bos_terminal_find_next(void *terminal) {
    return vte.find_next(terminal);
}
int bos_terminal_find_previous(void *terminal) {
    return vte.find_previous(terminal);
}

char *bos_terminal_link_at(void *terminal, double x, double y) {
    int tag = -1;
    return vte.check_match_at(terminal, x, y, &tag);
}

void bos_terminal_type(void *terminal, const char *text) {
    vte.feed_child(terminal, text, -1);
}

char *bos_terminal_text(void *terminal) {
    return vte.get_text(terminal, NULL, NULL, NULL);
}

typedef struct {
    bos_terminal_input input;
    void *user;
    void (*destroy)(void *);
} Input;

static void on_commit(void *terminal, const char *text, guint size, Input *input) {
    (void)terminal;
    input->input(text, size, input->user);
}

static void release(gpointer data, GClosure *closure) {
    (void)closure;
    Input *input = data;
    if (input->destroy) input->destroy(input->user);
    g_free(input);
}

void bos_terminal_on_input(void *terminal, bos_terminal_input callback, void *user, void (*destroy)(void *)) {
    Input *input = g_new0(Input, 1);
    *input = (Input){callback, user, destroy};
    g_signal_connect_data(terminal, "commit", G_CALLBACK(on_commit), input, release, 0);
}
