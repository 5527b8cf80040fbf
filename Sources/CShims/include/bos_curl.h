// libcurl, loaded with dlopen when the first request is made rather than linked: libcurl and the
// libraries it brings (Kerberos, LDAP, SSH, RTMP, GnuTLS, OpenSSL, …) cost the app's start-up
// their loading, relocation and constructors before its first frame, which needs none of them.
// Every function is a non-variadic wrapper, so Swift can call it (curl_easy_setopt and
// curl_easy_getinfo are variadic). Only the types and constants come from curl's header.
#pragma once
#include <curl/curl.h>

/// Loads libcurl once (thread-safe) and runs curl_global_init; 1 on success. On failure,
/// `bos_curl_load_error` says why.
int bos_curl_load(void);
const char *bos_curl_load_error(void);

/// bos_curl_load for a thread started only to load libcurl ahead of the first request: the calling
/// thread's nice value is raised first, for good (10, the thread is meant to end after this call).
int bos_curl_load_at_low_priority(void);

/// 1 when the GnuTLS flavour of libcurl was loaded (its CURLINFO_SSL_VERIFYRESULT is GnuTLS's
/// certificate status flags), 0 for the OpenSSL one (an X509_V_ERR code).
int bos_curl_is_gnutls(void);

/// Names the calling thread as the kernel shows it (perf, top, /proc; 15 bytes at most).
/// Foundation's `Thread.name`, set from inside a thread just started, can reach the kernel or not,
/// depending on whether `start()` has returned yet on the creating thread.
void bos_name_this_thread(const char *name);

CURL *bos_curl_easy_init(void);
void bos_curl_easy_cleanup(CURL *handle);
const char *bos_curl_easy_strerror(CURLcode code);
CURLcode bos_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode bos_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode bos_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode bos_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode bos_curl_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode bos_curl_getinfo_ptr(CURL *handle, CURLINFO info, void **value);

CURLM *bos_curl_multi_init(void);
CURLMcode bos_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode bos_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode bos_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode bos_curl_multi_perform(CURLM *multi, int *running);
CURLMcode bos_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode bos_curl_multi_wakeup(CURLM *multi);
CURLMsg *bos_curl_multi_info_read(CURLM *multi, int *remaining);

struct curl_slist *bos_curl_slist_append(struct curl_slist *list, const char *text);
void bos_curl_slist_free_all(struct curl_slist *list);

curl_mime *bos_curl_mime_init(CURL *handle);
curl_mimepart *bos_curl_mime_addpart(curl_mime *mime);
CURLcode bos_curl_mime_name(curl_mimepart *part, const char *name);
CURLcode bos_curl_mime_data(curl_mimepart *part, const char *data, size_t size);
CURLcode bos_curl_mime_filedata(curl_mimepart *part, const char *path);
CURLcode bos_curl_mime_filename(curl_mimepart *part, const char *name);
CURLcode bos_curl_mime_type(curl_mimepart *part, const char *type);
void bos_curl_mime_free(curl_mime *mime);

/// Callback types, spelled out so Swift sees concrete function pointer types.
typedef size_t (*bos_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*bos_curl_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                    curl_off_t ulnow);
CURLcode bos_curl_setopt_data_cb(CURL *handle, CURLoption option, bos_curl_data_cb cb);
CURLcode bos_curl_setopt_xferinfo_cb(CURL *handle, bos_curl_xferinfo_cb cb);
