/* --inline, rustdemangle.c: Rust symbol names demangled as callgrind
 * shows them.
 *
 * Takes: an ELF symbol or DWARF linkage name. Hands on: the name as
 * Valgrind's demangler (libiberty's, without DMGL_VERBOSE, as `c++filt
 * -i` prints it) writes it, for both of rustc's manglings: legacy
 * ("_ZN2wc11count_words17h0123456789abcdefE": "wc::count_words", the
 * hash left out) and v0 ("_RNvCs1234_2wc11count_words": crate
 * disambiguators left out, "<T as Trait>", "{closure#0}"). A suffix
 * after the mangled name (".llvm.123") is ignored, as there. */
#ifndef CF_INLINE_RUSTDEMANGLE_H
#define CF_INLINE_RUSTDEMANGLE_H

/* The demangled name (malloc'ed), or NULL when `mangled` is not a Rust
 * symbol, is malformed or demangles to nothing (C++ names with a legacy
 * Rust shape but no hash are not Rust's). Never reads past the NUL. */
char *rust_demangle(const char *mangled);

#endif
