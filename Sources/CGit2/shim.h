#include <git2.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one fixed-signature wrapper per option used. */

/* Objects read from the object database are not hashed again to verify them: git does not either
   (fsck does), and it was a fifth of the time of a log walk. */
static inline int dinger_git_verify_object_hashes(int enabled) {
  return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}
