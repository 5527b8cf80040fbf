#pragma once
// WebKitGTK 6.0, loaded on first use with dlopen: the app neither links it nor pays for it at
// start-up. Only what the Preview page needs is here; GTK and GObject calls on the view (it is a
// GtkWidget) go through GTK as usual.

/// Loads libwebkitgtk-6.0 once. Returns 1 when it is there; 0 otherwise, with `error` pointing
/// at dlerror()'s text (owned by this module, valid until the next call).
int bos_webview_load(const char **error);

/// 1 once `bos_webview_load` succeeded.
int bos_webview_is_loaded(void);

/// A new WebKitWebView (a floating GtkWidget) in an ephemeral network session of its own (no
/// cookies, cache or storage on disk), with file access, developer tools and script-opened
/// windows off.
void *bos_webview_new(void);

void bos_webview_load_uri(void *view, const char *uri);
void bos_webview_go_back(void *view);
void bos_webview_go_forward(void *view);
void bos_webview_reload(void *view);
void bos_webview_stop(void *view);
int bos_webview_can_go_back(void *view);
int bos_webview_can_go_forward(void *view);
int bos_webview_is_loading(void *view);
/// NULL when the page has none. Owned by the view.
const char *bos_webview_title(void *view);
const char *bos_webview_uri(void *view);
double bos_webview_progress(void *view);

enum bos_webview_event {
    BOS_WEBVIEW_STARTED = 0,
    BOS_WEBVIEW_REDIRECTED = 1,
    BOS_WEBVIEW_COMMITTED = 2,
    BOS_WEBVIEW_FINISHED = 3,
    /// A load failed: `domain` is the GError domain's name, `code` its code, `message` its text.
    BOS_WEBVIEW_FAILED = 4,
    /// The page's web process ended (crashed or was killed).
    BOS_WEBVIEW_PROCESS_ENDED = 5,
};

/// Decides a navigation: return 1 to let the view go there, 0 to ignore it. `new_window` is 1 for
/// a link meant for a new window (target=_blank).
typedef int (*bos_webview_policy)(const char *uri, int new_window, void *user);
typedef void (*bos_webview_events)(int event, const char *uri, const char *domain, int code, const char *message,
                                   void *user);

/// Connects both handlers; `destroy` releases `user` when the view is finalized.
void bos_webview_connect(void *view, bos_webview_policy policy, bos_webview_events events, void *user,
                         void (*destroy)(void *));
