/* --inline: C++ names demangled, for the frames of inlined scopes
 * (names.c) and for matching callgrind's names with ELF symbols
 * (bias.c). */
#include "demangle.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Callgrind shows C++ names demangled by Valgrind's copy of libiberty's
 * demangler; libstdc++'s __cxa_demangle is the same code. It is looked up
 * at run time so that callgrind_fold does not depend on libstdc++. */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static void *demangle_lib;
static demangle_fn demangler;
static bool demangler_tried;

char *demangle(const char *mangled)
{
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
