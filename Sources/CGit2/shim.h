#include <git2.h>
#include <git2/sys/transport.h>
#include <git2/sys/credential.h>
#include <git2/sys/remote.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one fixed-signature wrapper per option used. */

/* Objects read from the object database are not hashed again to verify them: git does not either
   (fsck does), and it was a fifth of the time of a log walk. */
static inline int dinger_git_verify_object_hashes(int enabled) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

/* Trees up to `bytes` stay in libgit2's object cache (its default keeps none above 4 KiB, so a
   folder of a thousand meetings was inflated and parsed again for every commit that touched it). */
static inline int dinger_git_cache_trees_up_to(size_t bytes) {
  return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, bytes);
}

/* Where TLS certificate authorities are (git's http.sslCAInfo / http.sslCAPath); NULL keeps
   that one as it is. */
static inline int dinger_git_set_ssl_cert_locations(const char *file, const char *path) {
  return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}
