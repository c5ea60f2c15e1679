/* --inline: the load bias of an object, the difference between the
 * addresses callgrind wrote and the object's ELF virtual addresses.
 *
 * Callgrind writes instruction addresses as the object's ELF virtual
 * addresses (it subtracts the load bias it knows from Valgrind's debug
 * info), so the bias to undo is normally 0. It is not assumed: per
 * object, the first address seen in up to 64 functions is checked against
 * the ELF symbol table (the symbol at the address must be the function
 * callgrind named); if most do not match, the bias is taken from the
 * symbols themselves (the most common difference between a function's
 * lowest address and its symbol's value, then checked the same way). An
 * object whose addresses match no bias is not expanded. */
#include "bias.h"
#include "context.h"
#include "demangle.h"
#include "objects.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

/* "name@VERSION" and "name@@VERSION" (callgrind shows symbol versions). */
static size_t unversioned(const char *s, size_t n)
{
    const char *at = memchr(s, '@', n);
    return at ? (size_t)(at - s) : n;
}

static bool same_name(const char *a, size_t alen, const char *b, bool mangled)
{
    char *d = mangled ? NULL : demangle(b);
    const char *s = d ? d : b;
    size_t n = unversioned(s, strlen(s));
    alen = unversioned(a, alen);
    bool same = n == alen && memcmp(a, s, n) == 0;
    free(d);
    return same;
}

struct symbol {
    uint64_t addr, size;  /* ELF virtual address */
    const char *name;     /* in the module's string table */
};

/* The object's function symbols, read once for the bias. */
static struct symbol *read_symbols(struct object *o, size_t *count)
{
    struct symbol *syms = NULL;
    size_t n = 0, cap = 0;
    int nsyms = dwfl_module_getsymtab(o->mod);
    for (int i = 1; i < nsyms; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr, NULL, NULL, NULL);
        int type = GELF_ST_TYPE(sym.st_info);
        if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
            sym.st_shndx == SHN_UNDEF)
            continue;
        GROW(syms, cap, n);
        syms[n++] = (struct symbol){addr - o->elf_bias, sym.st_size, name};
    }
    *count = n;
    return syms;
}

static int sample_by_addr(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Samples whose address (minus bias) lies in a symbol of the same name;
 * aliases at the same address all count. */
static size_t count_matches(struct inline_ctx *ix, const struct symbol *syms, size_t nsyms,
                            const struct sample *s, size_t n, uint64_t bias)
{
    /* The samples (a few dozen) by address, each symbol's extent looked
     * up among them: cheaper than sorting libc's 12,000 symbols. */
    struct sample *by_addr = xmalloc((n ? n : 1) * sizeof *by_addr);
    bool *matched = xcalloc(n ? n : 1, sizeof *matched);
    for (size_t i = 0; i < n; i++) {
        by_addr[i] = s[i];
        by_addr[i].addr -= bias;
    }
    qsort(by_addr, n, sizeof *by_addr, sample_by_addr);
    for (size_t k = 0; k < nsyms; k++) {
        const struct symbol *y = &syms[k];
        uint64_t end = y->addr + (y->size ? y->size : 1);
        size_t lo = 0, hi = n; /* first sample at or above the symbol */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (by_addr[mid].addr < y->addr)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t i = lo; i < n && by_addr[i].addr < end; i++)
            if (!matched[i])
                matched[i] = same_name(by_addr[i].name, by_addr[i].len, y->name,
                                       ix->mangled_names);
    }
    size_t matches = 0;
    for (size_t i = 0; i < n; i++)
        matches += matched[i];
    free(by_addr);
    free(matched);
    return matches;
}

/* Bias from the symbol table: for each sample function, its lowest
 * address minus its symbol's value; the most common one wins. */
static bool bias_from_symbols(struct inline_ctx *ix, const struct symbol *syms,
                              size_t nsyms, const struct sample *s, size_t n,
                              uint64_t *bias)
{
    struct hashmap by_name, votes;
    hashmap_init(&by_name);
    hashmap_init(&votes);
    for (size_t i = 0; i < nsyms; i++) {
        char *d = ix->mangled_names ? NULL : demangle(syms[i].name);
        const char *shown = d ? d : syms[i].name;
        uint64_t h = hash_bytes(shown, unversioned(shown, strlen(shown)));
        free(d);
        bool inserted;
        hashmap_upsert(&by_name, h, 0, (uint32_t)i, &inserted);
    }
    uint64_t best = 0;
    uint32_t best_votes = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (!hashmap_get(&by_name, hash_bytes(s[i].name, unversioned(s[i].name, s[i].len)),
                         0, &v))
            continue;
        uint64_t candidate = s[i].addr - syms[v].addr;
        bool inserted;
        uint32_t *count = hashmap_upsert(&votes, candidate, 0, 0, &inserted);
        if (++*count > best_votes) {
            best_votes = *count;
            best = candidate;
        }
    }
    hashmap_free(&by_name);
    hashmap_free(&votes);
    if (best_votes == 0)
        return false;
    size_t m = count_matches(ix, syms, nsyms, s, n, best);
    *bias = best;
    return m > 0 && 2 * m >= n;
}

/* The function symbols in the object file's own symbol tables (for a
 * stripped library, only .dynsym): read directly, a small part of what
 * read_symbols costs (libdwfl also loads the debug file's .symtab). */
static struct symbol *file_symbols(struct object *o, size_t *count)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(o->mod, &bias);
    struct symbol *syms = NULL;
    size_t n = 0, cap = 0;
    for (Elf_Scn *scn = NULL; elf && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
            sh.sh_entsize == 0 || !(data = elf_getdata(scn, NULL)))
            continue;
        size_t nsym = sh.sh_size / sh.sh_entsize;
        for (size_t i = 1; i < nsym; i++) {
            GElf_Sym sym;
            const char *name;
            int type;
            if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
                ((type = GELF_ST_TYPE(sym.st_info)) != STT_FUNC && type != STT_GNU_IFUNC) ||
                !(name = elf_strptr(elf, sh.sh_link, sym.st_name)) || !*name)
                continue;
            GROW(syms, cap, n);
            syms[n++] = (struct symbol){sym.st_value, sym.st_size, name};
        }
    }
    *count = n;
    return syms;
}

void find_bias(struct inline_ctx *ix, struct object *o, const struct sample *s,
               size_t n)
{
    o->bias_known = true;
    o->bias = 0;
    if (n == 0)
        return; /* only unnamed functions: trust callgrind's ELF addresses */
    /* Mostly callgrind's addresses are the file's and most samples are
     * in the file's own symbol tables: then that settles it (the full
     * table, a superset, would match as many). */
    size_t nsyms;
    struct symbol *syms = file_symbols(o, &nsyms);
    size_t own = count_matches(ix, syms, nsyms, s, n, 0);
    free(syms);
    if (own > 0 && 2 * own >= n)
        return;
    syms = read_symbols(o, &nsyms);
    size_t m = count_matches(ix, syms, nsyms, s, n, 0);
    uint64_t bias;
    bool found = m > 0 && 2 * m >= n;
    if (!found && bias_from_symbols(ix, syms, nsyms, s, n, &bias)) {
        o->bias = bias;
        found = true;
    }
    free(syms);
    if (found)
        return;
    fail_object(o, "%s", "its addresses do not match its symbol table "
                "(a different build of the file?)");
}
