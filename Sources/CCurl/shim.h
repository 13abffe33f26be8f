/* libcurl for http and https remotes, loaded on first use with dlopen: the commands that never
   talk to an http server (nearly all) pay nothing for it at start-up, as git keeps its curl in
   git-remote-https. Only curl's headers are needed to build (libcurl4-openssl-dev); at run time
   libcurl.so.4. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
   fixed-signature wrappers call them here. */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_perform)(CURL *);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  /* Optional (NULL when missing): lets one handle, and its open connections, serve the next
     request, as git keeps one connection for a transfer. */
  void (*easy_reset)(CURL *);
} dinger_curl_api;

/* Loads libcurl once; NULL when it is not installed (dlerror() says why). Not thread-safe:
   the caller loads it under its own lock. */
static inline const dinger_curl_api *dinger_curl_load(void) {
  static dinger_curl_api api;
  static int loaded = 0;
  if (loaded) return &api;
  void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return NULL;
  api.global_init = (CURLcode (*)(long))dlsym(lib, "curl_global_init");
  api.easy_init = (CURL * (*)(void)) dlsym(lib, "curl_easy_init");
  api.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(lib, "curl_easy_setopt");
  api.easy_perform = (CURLcode (*)(CURL *))dlsym(lib, "curl_easy_perform");
  api.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(lib, "curl_easy_getinfo");
  api.easy_cleanup = (void (*)(CURL *))dlsym(lib, "curl_easy_cleanup");
  api.easy_strerror = (const char *(*)(CURLcode))dlsym(lib, "curl_easy_strerror");
  api.slist_append =
      (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(lib, "curl_slist_append");
  api.slist_free_all = (void (*)(struct curl_slist *))dlsym(lib, "curl_slist_free_all");
  api.easy_reset = (void (*)(CURL *))dlsym(lib, "curl_easy_reset");
  if (!api.global_init || !api.easy_init || !api.easy_setopt || !api.easy_perform ||
      !api.easy_getinfo || !api.easy_cleanup || !api.easy_strerror || !api.slist_append ||
      !api.slist_free_all)
    return NULL;
  if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
  loaded = 1;
  return &api;
}

static inline CURLcode dinger_curl_set_long(const dinger_curl_api *api, CURL *curl,
                                            CURLoption option, long value) {
  return api->easy_setopt(curl, option, value);
}

static inline CURLcode dinger_curl_set_pointer(const dinger_curl_api *api, CURL *curl,
                                               CURLoption option, const void *value) {
  return api->easy_setopt(curl, option, value);
}

static inline CURLcode dinger_curl_set_size(const dinger_curl_api *api, CURL *curl,
                                            CURLoption option, curl_off_t value) {
  return api->easy_setopt(curl, option, value);
}

static inline CURLcode dinger_curl_set_write(const dinger_curl_api *api, CURL *curl,
                                             CURLoption option, curl_write_callback value) {
  return api->easy_setopt(curl, option, value);
}

static inline CURLcode dinger_curl_set_progress(const dinger_curl_api *api, CURL *curl,
                                                curl_xferinfo_callback value) {
  return api->easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, value);
}

static inline long dinger_curl_status(const dinger_curl_api *api, CURL *curl) {
  long code = 0;
  api->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

static inline const char *dinger_curl_string_info(const dinger_curl_api *api, CURL *curl,
                                                  CURLINFO info) {
  char *value = NULL;
  api->easy_getinfo(curl, info, &value);
  return value;
}
