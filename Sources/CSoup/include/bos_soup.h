// libsoup 3, loaded with dlopen when the first socket opens rather than linked: libsoup and the
// libraries only it brings (Kerberos, nghttp2, brotli, psl, idn2, …) would otherwise be loaded,
// relocated and initialised before the app's first frame and before every `builderos` command,
// though only chat and terminal sockets use it. The types are opaque here and the constants are
// libsoup 3's ABI values (soup-websocket.h, soup-message.h), so soup's headers are not needed.
#pragma once
#include <gio/gio.h>

typedef struct _SoupSession SoupSession;
typedef struct _SoupMessage SoupMessage;
typedef struct _SoupMessageHeaders SoupMessageHeaders;
typedef struct _SoupWebsocketConnection SoupWebsocketConnection;

enum {
    BOS_SOUP_WEBSOCKET_DATA_TEXT = 0x01,
    BOS_SOUP_WEBSOCKET_CLOSE_NORMAL = 1000,
    BOS_SOUP_WEBSOCKET_CLOSE_TOO_BIG = 1009,
    BOS_SOUP_WEBSOCKET_STATE_OPEN = 1,
    BOS_SOUP_MESSAGE_NO_REDIRECT = 1 << 1,
};

/// Loads libsoup once (thread-safe); 1 on success. On failure, `bos_soup_load_error` says why.
int bos_soup_load(void);
const char *bos_soup_load_error(void);

SoupSession *bos_soup_session_new(void);
void bos_soup_session_set_timeout(SoupSession *session, guint seconds);
void bos_soup_session_set_user_agent(SoupSession *session, const char *user_agent);
void bos_soup_session_set_tls_database(SoupSession *session, GTlsDatabase *database);
void bos_soup_session_websocket_connect_async(SoupSession *session, SoupMessage *message, const char *origin,
                                              char **protocols, int io_priority, GCancellable *cancellable,
                                              GAsyncReadyCallback callback, gpointer user_data);
SoupWebsocketConnection *bos_soup_session_websocket_connect_finish(SoupSession *session, GAsyncResult *result,
                                                                   GError **error);

SoupMessage *bos_soup_message_new(const char *method, const char *uri);
void bos_soup_message_add_flags(SoupMessage *message, guint flags);
guint bos_soup_message_get_status(SoupMessage *message);
SoupMessageHeaders *bos_soup_message_get_response_headers(SoupMessage *message);
const char *bos_soup_message_headers_get_one(SoupMessageHeaders *headers, const char *name);
/// The Content-Type's media type, without parameters (soup_message_headers_get_content_type).
const char *bos_soup_message_headers_get_content_type(SoupMessageHeaders *headers);

GQuark bos_soup_websocket_error_quark(void);
int bos_soup_websocket_connection_get_state(SoupWebsocketConnection *connection);
gushort bos_soup_websocket_connection_get_close_code(SoupWebsocketConnection *connection);
GIOStream *bos_soup_websocket_connection_get_io_stream(SoupWebsocketConnection *connection);
void bos_soup_websocket_connection_send_text(SoupWebsocketConnection *connection, const char *text);
void bos_soup_websocket_connection_send_binary(SoupWebsocketConnection *connection, gconstpointer data, gsize length);
void bos_soup_websocket_connection_close(SoupWebsocketConnection *connection, gushort code, const char *reason);
void bos_soup_websocket_connection_set_keepalive_interval(SoupWebsocketConnection *connection, guint seconds);
void bos_soup_websocket_connection_set_max_incoming_payload_size(SoupWebsocketConnection *connection, guint64 size);
