#define _GNU_SOURCE // gettid
#include "bos_curl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// The functions used, resolved once from libcurl. Callers use bos_curl_load() first; every
// wrapper below assumes it succeeded (CurlEngine does not exist otherwise).
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    curl_mime *(*mime_init)(CURL *);
    curl_mimepart *(*mime_addpart)(curl_mime *);
    CURLcode (*mime_name)(curl_mimepart *, const char *);
    CURLcode (*mime_data)(curl_mimepart *, const char *, size_t);
    CURLcode (*mime_filedata)(curl_mimepart *, const char *);
    CURLcode (*mime_filename)(curl_mimepart *, const char *);
    CURLcode (*mime_type)(curl_mimepart *, const char *);
    void (*mime_free)(curl_mime *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

#define RESOLVE(field, name)                                                    \
    do {                                                                        \
        if (!(*(void **)&curl.field = dlsym(library, name))) {                  \
            snprintf(load_error, sizeof load_error, "libcurl has no %s", name); \
            return;                                                             \
        }                                                                       \
    } while (0)

static int gnutls_flavour;

int bos_curl_is_gnutls(void) {
    return gnutls_flavour;
}

static void load(void) {
    // The GnuTLS flavour first: GnuTLS is the TLS stack glib-networking already uses for the chat
    // socket, while the OpenSSL flavour loads OpenSSL's libssl beside it (more memory and a slower
    // `builderos status`). Same libcurl version, same options; the OpenSSL flavour stays the
    // fallback where only it is installed.
    // RTLD_LAZY: most of libcurl's 24 libraries bind their own symbols at load anyway (BIND_NOW), but
    // Kerberos, GSSAPI, RTMP and nghttp2 do not, and RTLD_NOW would bind their ~1,200 PLT slots while
    // the loader's lock is held.
    void *library = dlopen("libcurl-gnutls.so.4", RTLD_LAZY | RTLD_LOCAL);
    gnutls_flavour = library != NULL;
    if (!library) library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(mime_init, "curl_mime_init");
    RESOLVE(mime_addpart, "curl_mime_addpart");
    RESOLVE(mime_name, "curl_mime_name");
    RESOLVE(mime_data, "curl_mime_data");
    RESOLVE(mime_filedata, "curl_mime_filedata");
    RESOLVE(mime_filename, "curl_mime_filename");
    RESOLVE(mime_type, "curl_mime_type");
    RESOLVE(mime_free, "curl_mime_free");
    // curl_global_init initialises libssh2, and libssh2 initialises OpenSSL's libcrypto in full
    // (every cipher and digest, the config file): 1.5 MiB resident for SCP/SFTP, which the
    // transfers never allow (CURLOPT_PROTOCOLS is HTTP and HTTPS). libssh2 initialises its crypto
    // only on its first libssh2_init, so a first call that asks for none keeps it out; OpenSSL
    // still initialises itself on first use, should anything ever use it.
    int (*ssh2_init)(int) = (int (*)(int))dlsym(library, "libssh2_init");
    if (ssh2_init) ssh2_init(0x0001 /* LIBSSH2_INIT_NO_CRYPTO */);
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int bos_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

// On EEVDF kernels (Linux 6.6+) nice alone does not let a wake-up preempt the load: the woken
// task waits for the load's time slice to end, even with the other core idle. A running task is
// preempted at once by an eligible wake-up whose requested slice is shorter (PREEMPT_SHORT,
// Linux 6.12+), so the load asks for the longest slice: every ordinary wake-up then comes first.
// Older kernels ignore the request for SCHED_OTHER; no privilege is needed.
static void request_long_slice(void) {
    struct {
        uint32_t size, policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
    } attr = {.size = 48, .policy = 0 /* SCHED_OTHER */, .nice = 10, .runtime = 100000000 /* ns: the most allowed */};
    (void)syscall(SYS_sched_setattr, 0, &attr, 0);
}

int bos_curl_load_at_low_priority(void) {
    // Loading libcurl's 24 libraries is 5–6 ms of CPU on one core, while the keyring lookup's
    // D-Bus exchange hops between short-lived wake-ups (our threads, dbus-daemon, the keyring).
    // At equal priority, a wake-up queued on the loading core waited for the load to finish with
    // the other core idle. Nice 10 keeps the load to its share of a busy machine (SCHED_IDLE
    // would starve it, and an unprivileged thread cannot raise itself back). Linux applies both
    // settings to the calling thread only, and threads created from it would inherit them, so
    // this thread creates none.
    setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
    request_long_slice();
    return bos_curl_load();
}
void bos_name_this_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

const char *bos_curl_load_error(void) {
    return load_error;
}

CURL *bos_curl_easy_init(void) {
    return curl.easy_init();
}
void bos_curl_easy_cleanup(CURL *h) {
    curl.easy_cleanup(h);
}
const char *bos_curl_easy_strerror(CURLcode code) {
    return curl.easy_strerror(code);
}
CURLcode bos_curl_setopt_long(CURL *h, CURLoption o, long v) {
    return curl.easy_setopt(h, o, v);
}
CURLcode bos_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) {
    return curl.easy_setopt(h, o, v);
}
CURLcode bos_curl_setopt_ptr(CURL *h, CURLoption o, const void *v) {
    return curl.easy_setopt(h, o, v);
}
CURLcode bos_curl_getinfo_long(CURL *h, CURLINFO i, long *v) {
    return curl.easy_getinfo(h, i, v);
}
CURLcode bos_curl_getinfo_double(CURL *h, CURLINFO i, double *v) {
    return curl.easy_getinfo(h, i, v);
}
CURLcode bos_curl_getinfo_ptr(CURL *h, CURLINFO i, void **v) {
    return curl.easy_getinfo(h, i, v);
}
CURLcode bos_curl_setopt_data_cb(CURL *h, CURLoption o, bos_curl_data_cb cb) {
    return curl.easy_setopt(h, o, cb);
}
CURLcode bos_curl_setopt_xferinfo_cb(CURL *h, bos_curl_xferinfo_cb cb) {
    return curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb);
}

CURLM *bos_curl_multi_init(void) {
    return curl.multi_init();
}
CURLMcode bos_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return curl.multi_setopt(m, o, v);
}
CURLMcode bos_curl_multi_add_handle(CURLM *m, CURL *h) {
    return curl.multi_add_handle(m, h);
}
CURLMcode bos_curl_multi_remove_handle(CURLM *m, CURL *h) {
    return curl.multi_remove_handle(m, h);
}
CURLMcode bos_curl_multi_perform(CURLM *m, int *running) {
    return curl.multi_perform(m, running);
}
CURLMcode bos_curl_multi_poll(CURLM *m, int timeout_ms) {
    return curl.multi_poll(m, NULL, 0, timeout_ms, NULL);
}
CURLMcode bos_curl_multi_wakeup(CURLM *m) {
    return curl.multi_wakeup(m);
}
CURLMsg *bos_curl_multi_info_read(CURLM *m, int *remaining) {
    return curl.multi_info_read(m, remaining);
}

struct curl_slist *bos_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}
void bos_curl_slist_free_all(struct curl_slist *list) {
    curl.slist_free_all(list);
}

curl_mime *bos_curl_mime_init(CURL *h) {
    return curl.mime_init(h);
}
curl_mimepart *bos_curl_mime_addpart(curl_mime *m) {
    return curl.mime_addpart(m);
}
CURLcode bos_curl_mime_name(curl_mimepart *p, const char *name) {
    return curl.mime_name(p, name);
}
CURLcode bos_curl_mime_data(curl_mimepart *p, const char *data, size_t size) {
    return curl.mime_data(p, data, size);
}
CURLcode bos_curl_mime_filedata(curl_mimepart *p, const char *path) {
    return curl.mime_filedata(p, path);
}
CURLcode bos_curl_mime_filename(curl_mimepart *p, const char *name) {
    return curl.mime_filename(p, name);
}
CURLcode bos_curl_mime_type(curl_mimepart *p, const char *type) {
    return curl.mime_type(p, type);
}
void bos_curl_mime_free(curl_mime *m) {
    curl.mime_free(m);
}
