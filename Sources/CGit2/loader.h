/* The table stubs.c calls through (private to CGit2). */
#include "shim.h"

/* libgit2's function number `index` in dinger_git2_names, loading libgit2 on first use. */
void *dinger_git2_function(unsigned index);

extern const unsigned dinger_git2_count;
extern const char *const dinger_git2_names[];
extern void *dinger_git2_slots[];
