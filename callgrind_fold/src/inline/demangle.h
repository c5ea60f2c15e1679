/* --inline, demangle.c: C++ and Rust names demangled as callgrind shows
 * them.
 *
 * Takes: a linkage name (of a DWARF scope, names.c, or of an ELF symbol,
 * bias.c). Hands on: the name demangled, Rust's by rustdemangle.c (tried
 * first, as Valgrind does), C++'s through libstdc++'s demangler loaded at
 * run time. */
#ifndef CF_INLINE_DEMANGLE_H
#define CF_INLINE_DEMANGLE_H

/* A Rust or C++ name demangled (malloc'ed), or NULL when it is not
 * mangled or no demangler is at hand. */
char *demangle(const char *mangled);
/* Unloads the demangler (inline_free). */
void demangle_unload(void);

#endif
