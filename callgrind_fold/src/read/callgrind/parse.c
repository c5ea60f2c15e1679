/* Reader for the callgrind profile format, the driver: takes the line
 * reader's lines, hands each to the fast tiers (costrun.c) or the exact
 * readers (header.c, body.c, grammar.c), and each finished part on.
 *
 * Only what folding needs is kept: each function's self cost and the
 * inclusive cost of its calls, for the selected event. Positions are
 * checked for syntax but not stored, so memory depends on the number of
 * distinct names, not on the size of the file. */
#include "parser.h"
#include "read/lex.h"
#include "costblocks.h"
#include "read/tiers.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* isalpha() of the C locale (the program never sets another), without
 * its call through the locale's table: it runs on every key of a line. */
static inline bool is_ascii_alpha(char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

static void parse_line(struct parser *P, const char *line, size_t len)
{
    const char *end = line + len;
    if (len == 0 || line[0] == '#')
        return;
    char c = line[0];
    /* Cost lines reject a NUL byte as a bad number; other lines keep
     * names, which must not hide one. */
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
        if (!P->body.in_body)
            start_body(P);
        cost_line(P, line, end);
        return;
    }
    if (memchr(line, '\0', len))
        fail(P, "NUL byte in line (binary file?)");
    if (is_ascii_alpha(c)) {
        size_t n = 1;
        while (n < len && (is_ascii_alpha(line[n]) || is_digit(line[n]) || line[n] == '_'))
            n++;
        if (n < len && line[n] == ':') {
            header_line(P, line, n, line + n + 1, end);
            return;
        }
        if (n < len && line[n] == '=') {
            if (!P->body.in_body)
                start_body(P);
            position_line(P, line, n, line + n + 1, end);
            return;
        }
    }
    if (skip_blanks(line, end) == end)
        return; /* a line of blanks counts as empty */
    fail(P, "malformed line " TOKEN_FMT, TOKEN_ARGS(line, len));
}

static void free_parser(struct parser *P)
{
    names_free(&P->names);
    hashmap_free(&P->body.inlined_nodes);
    buf_free(&P->header.descs);
    section_free(&P->header.section);
    events_free(&P->header.events);
    free(P->header.weight);
    free(P->body.cols);
    free(P->body.node_memo);
    call_edge_memo_free(&P->body.edge_memo);
    section_graph_free(&P->body.part);
    all_events_free(&P->all);
    free(P);
}

int read_callgrind(struct linereader *r, const char *first, size_t first_len,
                   struct read_target *t, struct diag *d)
{
    struct parser *P = xcalloc(1, sizeof *P);
    P->t = t;
    P->names.tab = t->names;
    P->d = d;
    P->r = r;
    for (int k = 0; k < KIND_COUNT; k++)
        hashmap_init(&P->names.ids[k]);
    hashmap_init(&P->body.inlined_nodes);
    events_init(&P->header.events);
    section_graph_init(&P->body.part);
    P->body.prof = &P->body.part.prof;
    P->body.part.by_address = t->opt.by_address;
    P->body.part.want_lines = t->opt.want_lines;
    P->body.fast_tiers = !read_exact();
    P->body.cost_blocks = read_cost_blocks();
    if (t->opt.by_address)
        section_graph_expect_bytes(&P->body.part, t->input_bytes);
    profile_expect_bytes(P->body.prof, t->input_bytes);
    if (t->opt.want_lines && !t->opt.by_address)
        line_table_expect_bytes(&P->body.part.lines, t->input_bytes);
    P->names.empty_name = strtab_intern(t->names, "", 0);
    P->failure.d = d;
    P->failure.r = r;
    if (setjmp(P->failure.jump)) {
        free_parser(P);
        return -1;
    }
    start_part(P);
    parse_line(P, first, first_len);
    for (;;) {
        if (P->body.in_body && P->body.fast_tiers)
            cost_run(P);
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF)
            break;
        if (st == LR_TOO_LONG)
            fail_at(P, r->lineno + 1, "line longer than 64 MiB");
        if (st == LR_READ_ERROR)
            fail_at(P, r->lineno + 1, "read error");
        parse_line(P, line, len);
    }
    finish_part(P);
    if (!P->header.saw_events)
        fail(P, "no \"events:\" line: not a callgrind profile");
    free_parser(P);
    return 0;
}

