// Non-variadic wrappers for libcurl's variadic API, which Swift cannot import.
#pragma once
#include <curl/curl.h>

CURLcode bos_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode bos_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode bos_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode bos_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode bos_curl_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode bos_curl_getinfo_ptr(CURL *handle, CURLINFO info, void **value);
CURLMcode bos_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// Callback types, spelled out so Swift sees concrete function pointer types.
typedef size_t (*bos_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*bos_curl_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                    curl_off_t ultotal, curl_off_t ulnow);
CURLcode bos_curl_setopt_data_cb(CURL *handle, CURLoption option, bos_curl_data_cb cb);
CURLcode bos_curl_setopt_xferinfo_cb(CURL *handle, bos_curl_xferinfo_cb cb);
