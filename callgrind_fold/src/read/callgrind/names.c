/* Names of callgrind.out: takes "spec=" values, "(id) name", hands on
 * interned names (parser.names). */
#include "parser.h"
#include "read/lex.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint32_t lookup_id(struct parser *P, enum name_kind kind, uint64_t id)
{
    uint32_t sid = NO_NAME;
    if (id < DENSE_ID_LIMIT) {
        if (id < P->names.dense_cap[kind])
            sid = P->names.dense_ids[kind][id];
    } else if (!hashmap_get(&P->names.ids[kind], id, 0, &sid)) {
        sid = NO_NAME;
    }
    if (sid == NO_NAME)
        fail(P, "name id (%" PRIu64 ") is used before it is defined", id);
    return sid;
}

static void define_id(struct parser *P, enum name_kind kind, uint64_t id, uint32_t sid)
{
    if (id >= DENSE_ID_LIMIT) {
        hashmap_put(&P->names.ids[kind], id, 0, sid);
        return;
    }
    if (id >= P->names.dense_cap[kind]) {
        size_t old = P->names.dense_cap[kind];
        GROW(P->names.dense_ids[kind], P->names.dense_cap[kind], (size_t)id);
        for (size_t i = old; i < P->names.dense_cap[kind]; i++)
            P->names.dense_ids[kind][i] = NO_NAME;
    }
    P->names.dense_ids[kind][id] = sid;
}

/* "(12)" at p? Sets *id and returns the end of it, or NULL. */
static const char *compressed_id(struct parser *P, const char *p, const char *end,
                                 uint64_t *id)
{
    if (end - p < 3 || p[0] != '(' || !is_digit(p[1]))
        return NULL;
    const char *close = p + 1;
    while (close < end && is_digit(*close))
        close++;
    if (close == end || *close != ')')
        fail(P, "bad compressed name " TOKEN_FMT, TOKEN_ARGS(p, (size_t)(end - p)));
    *id = number_or_fail(P, p + 1, close, "name id");
    return close + 1;
}

/* With --compress-mangled=yes callgrind writes a context name as ids of
 * its parts: "(5)'2'(7)'(9)" stands for "fib'2'main'(below main)". */
static uint32_t intern_function_name(struct parser *P, const char *p, const char *end)
{
    uint64_t id;
    if (!compressed_id(P, p, end, &id))
        return strtab_intern(P->names.tab, p, (size_t)(end - p));
    struct buf *out = &P->names.scratch;
    out->len = 0;
    while (p < end) {
        const char *q = memchr(p, '\'', (size_t)(end - p));
        if (!q)
            q = end;
        const char *after = compressed_id(P, p, q, &id);
        if (after == q) {
            uint32_t sid = lookup_id(P, KIND_FUNCTION, id);
            buf_append(out, strtab_str(P->names.tab, sid),
                       strtab_len(P->names.tab, sid));
        } else {
            buf_append(out, p, (size_t)(q - p));
        }
        if (q < end)
            buf_putc(out, '\'');
        p = q + 1;
    }
    return strtab_intern(P->names.tab, out->data, out->len);
}

/* Value of a "spec=" line: "name", "(id) name" or "(id)". */
uint32_t parse_name(struct parser *P, enum name_kind kind, const char *p,
                           const char *end)
{
    uint64_t id;
    /* Most such lines are a compressed name used again, "cfn=(12)": the
     * id read in one pass (the byte after the line stops the digits,
     * linereader.h) and looked up.  Any other form reads on below. */
    if (P->body.fast_tiers && p[0] == '(') {
        const char *close = scan_udec(p + 1, &id);
        if (close && close[0] == ')' && close + 1 == end)
            return lookup_id(P, kind, id);
    }
    const char *after = compressed_id(P, p, end, &id);
    uint32_t sid;
    if (!after) {
        sid = kind == KIND_FUNCTION ? intern_function_name(P, p, end)
                                    : strtab_intern(P->names.tab, p, (size_t)(end - p));
    } else {
        const char *name = skip_blanks(after, end);
        if (name == end)
            return lookup_id(P, kind, id);
        if (after == name)
            fail(P, "missing space after compressed name id (%" PRIu64 ")", id);
        sid = kind == KIND_FUNCTION ? intern_function_name(P, name, end)
                                    : strtab_intern(P->names.tab, name, (size_t)(end - name));
        define_id(P, kind, id, sid);
    }
    if (kind == KIND_FUNCTION && strtab_len(P->names.tab, sid) == 0)
        fail(P, "empty function name");
    return sid;
}


void names_free(struct parser_names *n)
{
    for (int k = 0; k < KIND_COUNT; k++) {
        hashmap_free(&n->ids[k]);
        free(n->dense_ids[k]);
    }
    buf_free(&n->scratch);
}
