/* libFuzzer target: what --inline and --frame=short do to symbol names
 * a hostile or corrupt object or profile could hold: the Rust demangler
 * (src/inline/rustdemangle.c) and the labels of C++ and Rust names
 * (src/stacks/symlabel.c), of the input and of its demangled name. The
 * input is one name (cut at its first NUL); seeds are the symbols of
 * tests/rust_symbols.txt. Besides crashes and sanitizer reports, a name
 * demangled must be a string of its own length, never empty, and a label
 * is never empty for a name that is not. */
#include "inline/rustdemangle.h"
#include "stacks/stacks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void label(const char *name)
{
    struct buf out = {0};
    size_t n = strlen(name);
    if (symbol_label(&out, name, n) && n && out.len == 0)
        abort();
    buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sym = malloc(size + 1);
    if (!sym)
        return 0;
    memcpy(sym, data, size);
    sym[size] = '\0';
    label(sym);
    char *name = rust_demangle(sym);
    if (name && name[0] == '\0')
        abort();
    if (name)
        label(name);
    free(name);
    free(sym);
    return 0;
}
