/* Loads libgit2 with dlopen the first time dinger calls one of its functions, and fills the
   table stubs.c calls through. If it can't be loaded, dinger says so and exits 1 (where the
   dynamic loader would have refused to start it at all). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "loader.h"

#define DINGER_GIT2_SONAME "libgit2.so." LIBGIT2_SOVERSION

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int (*opts)(int, ...);
static int loaded;

static void fail(const char *what) {
  fprintf(stderr,
          "dinger: can't load %s (%s)\n"
          "  Install libgit2 %s: apt-get install libgit2-%s\n",
          DINGER_GIT2_SONAME, what, LIBGIT2_SOVERSION, LIBGIT2_SOVERSION);
  exit(1);
}

static void load(void) {
  void *lib = dlopen(DINGER_GIT2_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) fail(dlerror());
  for (unsigned i = 0; i < dinger_git2_count; i++) {
    void *function = dlsym(lib, dinger_git2_names[i]);
    if (!function) fail(dinger_git2_names[i]);
    __atomic_store_n(&dinger_git2_slots[i], function, __ATOMIC_RELEASE);
  }
  opts = (int (*)(int, ...))dlsym(lib, "git_libgit2_opts");
  if (!opts) fail("git_libgit2_opts");
  __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

void *dinger_git2_function(unsigned index) {
  void *function = __atomic_load_n(&dinger_git2_slots[index], __ATOMIC_ACQUIRE);
  if (__builtin_expect(function != NULL, 1)) return function;
  pthread_once(&once, load);
  return dinger_git2_slots[index];
}

int dinger_git2_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

static int (*options(void))(int, ...) {
  pthread_once(&once, load);
  return opts;
}

int dinger_git_verify_object_hashes(int enabled) {
  return options()(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

int dinger_git_cache_trees_up_to(size_t bytes) {
  return options()(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, bytes);
}

int dinger_git_validate_owner(int enabled) {
  return options()(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
