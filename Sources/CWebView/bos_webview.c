#include "bos_webview.h"

#include <dlfcn.h>
#include <gtk/gtk.h>

#include "bos_glib_based_library.h"

// The WebKit functions used, resolved by name (webkit/webkit.h is not needed to build).
static struct {
    void *library;
    GType (*view_type)(void);
    void *(*session_new_ephemeral)(void);
    void *(*settings_new)(void);
    void (*load_uri)(void *, const char *);
    void (*go_back)(void *);
    void (*go_forward)(void *);
    void (*reload)(void *);
    void (*stop)(void *);
    gboolean (*can_go_back)(void *);
    gboolean (*can_go_forward)(void *);
    gboolean (*is_loading)(void *);
    const char *(*title)(void *);
    const char *(*uri)(void *);
    double (*progress)(void *);
    void *(*navigation_action)(void *);
    void *(*action_request)(void *);
    const char *(*request_uri)(void *);
    void (*decision_use)(void *);
    void (*decision_ignore)(void *);
} wk;

static const char *load_error;

#define RESOLVE(field, name)                                    \
    do {                                                        \
        if (!(*(void **)&wk.field = dlsym(wk.library, name))) { \
            load_error = "libwebkitgtk-6.0 lacks " name;        \
            goto fail;                                          \
        }                                                       \
    } while (0)

int bos_webview_load(const char **error) {
    if (wk.library) return 1;
    void *library = bos_open_glib_based_library("libwebkitgtk-6.0.so.4", &load_error);
    if (!library) {
        if (error) *error = load_error;
        return 0;
    }
    wk.library = library;
    RESOLVE(view_type, "webkit_web_view_get_type");
    RESOLVE(session_new_ephemeral, "webkit_network_session_new_ephemeral");
    RESOLVE(settings_new, "webkit_settings_new");
    RESOLVE(load_uri, "webkit_web_view_load_uri");
    RESOLVE(go_back, "webkit_web_view_go_back");
    RESOLVE(go_forward, "webkit_web_view_go_forward");
    RESOLVE(reload, "webkit_web_view_reload");
    RESOLVE(stop, "webkit_web_view_stop_loading");
    RESOLVE(can_go_back, "webkit_web_view_can_go_back");
    RESOLVE(can_go_forward, "webkit_web_view_can_go_forward");
    RESOLVE(is_loading, "webkit_web_view_is_loading");
    RESOLVE(title, "webkit_web_view_get_title");
    RESOLVE(uri, "webkit_web_view_get_uri");
    RESOLVE(progress, "webkit_web_view_get_estimated_load_progress");
    RESOLVE(navigation_action, "webkit_navigation_policy_decision_get_navigation_action");
    RESOLVE(action_request, "webkit_navigation_action_get_request");
    RESOLVE(request_uri, "webkit_uri_request_get_uri");
    RESOLVE(decision_use, "webkit_policy_decision_use");
    RESOLVE(decision_ignore, "webkit_policy_decision_ignore");
    return 1;
fail:
    dlclose(library);
    wk.library = NULL;
    if (error) *error = load_error;
    return 0;
}

int bos_webview_is_loaded(void) {
    return wk.library != NULL;
}

void *bos_webview_new(void) {
    void *session = wk.session_new_ephemeral();
    void *settings = wk.settings_new();
    g_object_set(settings, "allow-file-access-from-file-urls", FALSE, "allow-universal-access-from-file-urls", FALSE,
                 "enable-developer-extras", FALSE, "javascript-can-open-windows-automatically", FALSE, NULL);
    void *view = g_object_new(wk.view_type(), "network-session", session, "settings", settings, NULL);
    g_object_unref(session);
    g_object_unref(settings);
    return view;
}

void bos_webview_load_uri(void *view, const char *uri) {
    wk.load_uri(view, uri);
}
void bos_webview_go_back(void *view) {
    wk.go_back(view);
}
void bos_webview_go_forward(void *view) {
    wk.go_forward(view);
}
void bos_webview_reload(void *view) {
    wk.reload(view);
}
void bos_webview_stop(void *view) {
    wk.stop(view);
}
int bos_webview_can_go_back(void *view) {
    return wk.can_go_back(view);
}
int bos_webview_can_go_forward(void *view) {
    return wk.can_go_forward(view);
}
int bos_webview_is_loading(void *view) {
    return wk.is_loading(view);
}
const char *bos_webview_title(void *view) {
    return wk.title(view);
}
const char *bos_webview_uri(void *view) {
    return wk.uri(view);
}
double bos_webview_progress(void *view) {
    return wk.progress(view);
}

typedef struct {
    bos_webview_policy policy;
    bos_webview_events events;
    void *user;
    void (*destroy)(void *);
} Handlers;

// WebKitPolicyDecisionType: 0 navigation action, 1 new window action, 2 response.
static gboolean on_decide_policy(void *view, void *decision, int type, Handlers *h) {
    (void)view;
    if (type != 0 && type != 1) return FALSE; // responses: WebKit's default
    void *action = wk.navigation_action(decision);
    const char *uri = action ? wk.request_uri(wk.action_request(action)) : NULL;
    if (uri && h->policy(uri, type == 1, h->user))
        wk.decision_use(decision);
    else
        wk.decision_ignore(decision);
    return TRUE;
}

static void on_load_changed(void *view, int event, Handlers *h) {
    h->events(event, wk.uri(view), NULL, 0, NULL, h->user);
}

// Returning TRUE keeps WebKit's own error page away: the page shows the design's error state.
static gboolean on_load_failed(void *view, int event, const char *uri, GError *error, Handlers *h) {
    (void)view;
    (void)event;
    h->events(BOS_WEBVIEW_FAILED, uri, g_quark_to_string(error->domain), error->code, error->message, h->user);
    return TRUE;
}

static void on_process_terminated(void *view, int reason, Handlers *h) {
    h->events(BOS_WEBVIEW_PROCESS_ENDED, wk.uri(view), NULL, reason, NULL, h->user);
}

static void release(gpointer data, GClosure *closure) {
    (void)closure;
    Handlers *h = data;
    if (h->destroy) h->destroy(h->user);
    g_free(h);
}

void bos_webview_connect(void *view, bos_webview_policy policy, bos_webview_events events, void *user,
                         void (*destroy)(void *)) {
    Handlers *h = g_new0(Handlers, 1);
    *h = (Handlers){policy, events, user, destroy};
    // One handler owns the box; the others borrow it (they all go with the view).
    g_signal_connect_data(view, "decide-policy", G_CALLBACK(on_decide_policy), h, release, 0);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), h);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), h);
    g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_process_terminated), h);
}
