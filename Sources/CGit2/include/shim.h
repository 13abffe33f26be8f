#include <git2.h>
#include <git2/sys/transport.h>
#include <git2/sys/credential.h>
#include <git2/sys/remote.h>

/* libgit2 is loaded with dlopen on the first call of any of its functions (stubs.c, loader.c):
   dinger carries no DT_NEEDED on it, so commands that never use it don't load its 15 libraries.
   git_libgit2_opts is variadic, which neither Swift nor a stub can forward: one fixed-signature
   wrapper per option used, in loader.c. */

/* Objects read from the object database are not hashed again to verify them: git does not either
   (fsck does), and it was a fifth of the time of a log walk. */
int dinger_git_verify_object_hashes(int enabled);

/* Trees up to `bytes` stay in libgit2's object cache (its default keeps none above 4 KiB, so a
   folder of a thousand meetings was inflated and parsed again for every commit that touched it). */
int dinger_git_cache_trees_up_to(size_t bytes);

/* Whether libgit2 itself refuses a repository another user owns. dinger checks ownership itself,
   as git does (Repository.checkOwnership: safe.directory with `*`, and git's message), and turns
   libgit2's own check off (1.5 ignores `*` and reports its refusal as a missing config value). */
int dinger_git_validate_owner(int enabled);

/* Whether libgit2 has been loaded in this process (tests: commands that don't need it don't
   load it). */
int dinger_git2_loaded(void);
