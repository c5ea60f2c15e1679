/* --inline: C++ and Rust names demangled, for the frames of inlined
 * scopes (names.c) and for matching callgrind's names with ELF symbols
 * (bias.c). */
#include "demangle.h"
#include "rustdemangle.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Callgrind shows names demangled by Valgrind's copy of libiberty's
 * demangler, which tries Rust's manglings first (a legacy Rust symbol is
 * also a valid C++ name, "wc::count_words::h0123456789abcdef"), then
 * C++'s. Rust's are rustdemangle.c's; for C++, libstdc++'s __cxa_demangle
 * is libiberty's code. It is looked up at run time so that callgrind_fold
 * does not depend on libstdc++. */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static void *demangle_lib;
static demangle_fn demangler;
static bool demangler_tried;

char *demangle(const char *mangled)
{
    char *rust = rust_demangle(mangled);
    if (rust)
        return rust;
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL; /* not mangled: no need to load libstdc++ */
    if (!demangler_tried) {
        demangler_tried = true;
        demangle_lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (demangle_lib) {
            void *sym = dlsym(demangle_lib, "__cxa_demangle");
            memcpy(&demangler, &sym, sizeof demangler);
        }
    }
    if (!demangler)
        return NULL;
    int status = -1;
    char *s = demangler(mangled, NULL, NULL, &status);
    if (status != 0) {
        free(s);
        return NULL;
    }
    return s;
}

void demangle_unload(void)
{
    if (demangle_lib)
        dlclose(demangle_lib);
    demangle_lib = NULL;
    demangler = NULL;
    demangler_tried = false;
}
