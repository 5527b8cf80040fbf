#include "bos_soup.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "bos_glib_based_library.h"

// The functions used, resolved once from libsoup-3.0.so.0. Callers use bos_soup_load() first; every
// wrapper below assumes it succeeded (WebSocketChannel does not connect otherwise).
static struct {
    SoupSession *(*session_new)(void);
    void (*session_set_timeout)(SoupSession *, guint);
    void (*session_set_user_agent)(SoupSession *, const char *);
    void (*session_set_tls_database)(SoupSession *, GTlsDatabase *);
    void (*session_websocket_connect_async)(SoupSession *, SoupMessage *, const char *, char **, int, GCancellable *,
                                            GAsyncReadyCallback, gpointer);
    SoupWebsocketConnection *(*session_websocket_connect_finish)(SoupSession *, GAsyncResult *, GError **);
    SoupMessage *(*message_new)(const char *, const char *);
    void (*message_add_flags)(SoupMessage *, guint);
    guint (*message_get_status)(SoupMessage *);
    SoupMessageHeaders *(*message_get_response_headers)(SoupMessage *);
    const char *(*headers_get_one)(SoupMessageHeaders *, const char *);
    const char *(*headers_get_content_type)(SoupMessageHeaders *, GHashTable **);
    GQuark (*websocket_error_quark)(void);
    int (*connection_get_state)(SoupWebsocketConnection *);
    gushort (*connection_get_close_code)(SoupWebsocketConnection *);
    GIOStream *(*connection_get_io_stream)(SoupWebsocketConnection *);
    void (*connection_send_text)(SoupWebsocketConnection *, const char *);
    void (*connection_send_binary)(SoupWebsocketConnection *, gconstpointer, gsize);
    void (*connection_close)(SoupWebsocketConnection *, gushort, const char *);
    void (*connection_set_keepalive_interval)(SoupWebsocketConnection *, guint);
    void (*connection_set_max_incoming_payload_size)(SoupWebsocketConnection *, guint64);
} soup;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

#define RESOLVE(field, name)                                                    \
    do {                                                                        \
        if (!(*(void **)&soup.field = dlsym(library, name))) {                  \
            snprintf(load_error, sizeof load_error, "libsoup has no %s", name); \
            return;                                                             \
        }                                                                       \
    } while (0)

static void load(void) {
    const char *error = NULL;
    void *library = bos_open_glib_based_library("libsoup-3.0.so.0", &error);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", error);
        return;
    }
    RESOLVE(session_new, "soup_session_new");
    RESOLVE(session_set_timeout, "soup_session_set_timeout");
    RESOLVE(session_set_user_agent, "soup_session_set_user_agent");
    RESOLVE(session_set_tls_database, "soup_session_set_tls_database");
    RESOLVE(session_websocket_connect_async, "soup_session_websocket_connect_async");
    RESOLVE(session_websocket_connect_finish, "soup_session_websocket_connect_finish");
    RESOLVE(message_new, "soup_message_new");
    RESOLVE(message_add_flags, "soup_message_add_flags");
    RESOLVE(message_get_status, "soup_message_get_status");
    RESOLVE(message_get_response_headers, "soup_message_get_response_headers");
    RESOLVE(headers_get_one, "soup_message_headers_get_one");
    RESOLVE(headers_get_content_type, "soup_message_headers_get_content_type");
    RESOLVE(websocket_error_quark, "soup_websocket_error_quark");
    RESOLVE(connection_get_state, "soup_websocket_connection_get_state");
    RESOLVE(connection_get_close_code, "soup_websocket_connection_get_close_code");
    RESOLVE(connection_get_io_stream, "soup_websocket_connection_get_io_stream");
    RESOLVE(connection_send_text, "soup_websocket_connection_send_text");
    RESOLVE(connection_send_binary, "soup_websocket_connection_send_binary");
    RESOLVE(connection_close, "soup_websocket_connection_close");
    RESOLVE(connection_set_keepalive_interval, "soup_websocket_connection_set_keepalive_interval");
    RESOLVE(connection_set_max_incoming_payload_size, "soup_websocket_connection_set_max_incoming_payload_size");
    loaded = 1;
}

int bos_soup_load(void) {
    pthread_once(&once, load);
    return loaded;
}
const char *bos_soup_load_error(void) {
    return load_error;
}

SoupSession *bos_soup_session_new(void) {
    return soup.session_new();
}
void bos_soup_session_set_timeout(SoupSession *s, guint seconds) {
    soup.session_set_timeout(s, seconds);
}
void bos_soup_session_set_user_agent(SoupSession *s, const char *agent) {
    soup.session_set_user_agent(s, agent);
}
void bos_soup_session_set_tls_database(SoupSession *s, GTlsDatabase *db) {
    soup.session_set_tls_database(s, db);
}
void bos_soup_session_websocket_connect_async(SoupSession *s, SoupMessage *m, const char *origin, char **protocols,
                                              int priority, GCancellable *cancellable, GAsyncReadyCallback callback,
                                              gpointer user_data) {
    soup.session_websocket_connect_async(s, m, origin, protocols, priority, cancellable, callback, user_data);
}
SoupWebsocketConnection *bos_soup_session_websocket_connect_finish(SoupSession *s, GAsyncResult *r, GError **e) {
    return soup.session_websocket_connect_finish(s, r, e);
}

SoupMessage *bos_soup_message_new(const char *method, const char *uri) {
    return soup.message_new(method, uri);
}
void bos_soup_message_add_flags(SoupMessage *m, guint flags) {
    soup.message_add_flags(m, flags);
}
guint bos_soup_message_get_status(SoupMessage *m) {
    return soup.message_get_status(m);
}
SoupMessageHeaders *bos_soup_message_get_response_headers(SoupMessage *m) {
    return soup.message_get_response_headers(m);
}
const char *bos_soup_message_headers_get_one(SoupMessageHeaders *h, const char *name) {
    return soup.headers_get_one(h, name);
}
const char *bos_soup_message_headers_get_content_type(SoupMessageHeaders *h) {
    return soup.headers_get_content_type(h, NULL);
}

GQuark bos_soup_websocket_error_quark(void) {
    return soup.websocket_error_quark();
}
int bos_soup_websocket_connection_get_state(SoupWebsocketConnection *c) {
    return soup.connection_get_state(c);
}
gushort bos_soup_websocket_connection_get_close_code(SoupWebsocketConnection *c) {
    return soup.connection_get_close_code(c);
}
GIOStream *bos_soup_websocket_connection_get_io_stream(SoupWebsocketConnection *c) {
    return soup.connection_get_io_stream(c);
}
void bos_soup_websocket_connection_send_text(SoupWebsocketConnection *c, const char *text) {
    soup.connection_send_text(c, text);
}
void bos_soup_websocket_connection_send_binary(SoupWebsocketConnection *c, gconstpointer data, gsize length) {
    soup.connection_send_binary(c, data, length);
}
void bos_soup_websocket_connection_close(SoupWebsocketConnection *c, gushort code, const char *reason) {
    soup.connection_close(c, code, reason);
}
void bos_soup_websocket_connection_set_keepalive_interval(SoupWebsocketConnection *c, guint seconds) {
    soup.connection_set_keepalive_interval(c, seconds);
}
void bos_soup_websocket_connection_set_max_incoming_payload_size(SoupWebsocketConnection *c, guint64 size) {
    soup.connection_set_max_incoming_payload_size(c, size);
}
