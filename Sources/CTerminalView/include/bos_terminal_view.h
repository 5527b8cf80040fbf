#pragma once
// VTE (libvte-2.91-gtk4), loaded on first use with dlopen, like WebKit for the Preview page: the app
// neither links it nor pays for it until a terminal tab opens. Only what the Terminal page uses.

/// Loads VTE once. 1 when it is there; 0 with `error` pointing at dlerror()'s text.
int bos_terminal_load(const char **error);
int bos_terminal_is_loaded(void);

/// A new VteTerminal (a floating GtkWidget) with `scrollback` lines kept, URLs underlined and
/// Ctrl+click-able (`bos_terminal_link_at`), the mouse pointer hidden while typing.
void *bos_terminal_new(long scrollback);

/// Shows bytes the remote PTY sent.
void bos_terminal_feed(void *terminal, const char *bytes, long length);
long bos_terminal_rows(void *terminal);
long bos_terminal_columns(void *terminal);

/// Colours as "#rrggbb": foreground, background and the 16 palette entries.
void bos_terminal_set_colors(void *terminal, const char *foreground, const char *background,
                             const char *const palette[16]);
void bos_terminal_set_font_scale(void *terminal, double scale);
double bos_terminal_font_scale(void *terminal);
void bos_terminal_copy(void *terminal);
void bos_terminal_paste(void *terminal);
int bos_terminal_has_selection(void *terminal);

/// Sets the search pattern (case-insensitive regular expression; NULL or "" clears it). 0 when the
/// pattern is not a valid expression.
int bos_terminal_search(void *terminal, const char *pattern);
int bos_terminal_find_next(void *terminal);
int bos_terminal_find_previous(void *terminal);

/// The URL under the point (widget coordinates), or NULL. Free with g_free.
char *bos_terminal_link_at(void *terminal, double x, double y);

/// Types `text` as if from the keyboard (VTE's feed_child: it goes out through "commit"). For checks.
void bos_terminal_type(void *terminal, const char *text);

/// The text on screen (for checks). Free with g_free.
char *bos_terminal_text(void *terminal);

/// Calls `input(bytes, length, user)` for every keystroke or paste ("commit"); `destroy` releases
/// `user` with the terminal.
typedef void (*bos_terminal_input)(const char *bytes, unsigned length, void *user);
void bos_terminal_on_input(void *terminal, bos_terminal_input input, void *user, void (*destroy)(void *));
