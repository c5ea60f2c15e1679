/* libFuzzer target: the Rust demangler (src/inline/rustdemangle.c), on
 * the symbol names a hostile or corrupt object could hold. The input is
 * one name (cut at its first NUL); seeds are the symbols of
 * tests/rust_symbols.txt. Besides crashes and sanitizer reports, a name
 * demangled must be a string of its own length, never empty. */
#include "inline/rustdemangle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sym = malloc(size + 1);
    if (!sym)
        return 0;
    memcpy(sym, data, size);
    sym[size] = '\0';
    char *name = rust_demangle(sym);
    if (name && name[0] == '\0')
        abort();
    free(name);
    free(sym);
    return 0;
}
