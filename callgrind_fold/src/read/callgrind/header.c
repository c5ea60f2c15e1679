/* Header lines of callgrind.out and the life cycle of its sections:
 * takes "events:", "positions:", "part:", "totals:" ... (parser.header),
 * hands each finished section to the read target's sink. */
#include "parser.h"
#include "read/lex.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

void resolve_events(struct parser *P)
{
    if (P->header.events_resolved)
        return;
    if (P->header.events.ncolumns == 0)
        fail(P, "no \"events:\" line before the profile data");
    const char *name = read_event_name(P->t, P->header.events.columns[0]);
    if (P->header.events.ncolumns > P->header.weight_cap) {
        P->header.weight_cap = P->header.events.ncolumns;
        P->header.weight =
            xrealloc(P->header.weight, P->header.weight_cap * sizeof *P->header.weight);
    }
    char err[sizeof P->d->msg];
    if (events_resolve(&P->header.events, name, P->header.weight, err, sizeof err))
        fail(P, "%s", err);
    /* Fast path for the common case: the event is one column. */
    P->header.single_column = SIZE_MAX;
    size_t nonzero = 0;
    for (size_t i = 0; i < P->header.events.ncolumns; i++) {
        if (P->header.weight[i]) {
            nonzero++;
            if (P->header.weight[i] == 1)
                P->header.single_column = i;
        }
    }
    if (nonzero != 1)
        P->header.single_column = SIZE_MAX;
    P->header.events_resolved = true;
    if (P->t->opt.all_events)
        add_other_events(P, name);
}

void start_part(struct parser *P)
{
    events_free(&P->header.events);
    events_init(&P->header.events);
    P->header.events_resolved = false;
    P->header.npositions = 1; /* "positions: line" is the default */
    P->addr.instr_pos = SIZE_MAX;
    P->addr.last_instr = 0;
    P->addr.line_pos = 0;
    P->addr.last_line = 0;
    P->header.descs.len = 0;
    section_reset(&P->header.section);
    P->body.jump_pending = false;
    P->header.part_ordinal++;
    P->header.part_number = P->header.part_ordinal;
    P->header.summary_in_header = false;
    P->header.have_totals = false;
    P->body.in_body = false;
    P->body.object = P->body.file = P->names.empty_name;
    P->body.function = NO_NODE;
    P->body.call_object = P->body.call_file = P->body.call_name = NO_NAME;
    P->body.call_pending = false;
    P->body.inlined = NO_NODE;
    hashmap_clear(&P->body.inlined_nodes);
    section_graph_reset(&P->body.part);
    for (size_t i = 0; i < P->body.node_memo_cap; i++) /* the part's nodes are gone */
        P->body.node_memo[i].node = NO_NODE;
    call_edge_memo_forget(&P->body.edge_memo);
    P->all.nothers = 0; /* set up again with the part's events */
}

/* The section's header, for the sink. */
static struct section_info section_info_of(struct parser *P)
{
    struct section_info info = {.number = P->header.part_number, .descs = P->header.descs.data,
                             .descs_len = P->header.descs.len};
    section_fill_info(P->t, &P->header.section, &info);
    return info;
}

/* describe_sections: a section without costs, handed over all the same
 * (a report reads its "desc:" lines). */
static void hand_over_empty(struct parser *P)
{
    char err[sizeof P->d->msg];
    struct section_info info = section_info_of(P);
    if (read_section_stacks(P->t, &info, NULL, err, sizeof err))
        fail(P, "%s", err);
}

/* The section's header is complete: checked against its part's other
 * sections; whether --thread selects it. */
static bool thread_wanted(struct parser *P, bool part_wanted)
{
    char err[sizeof P->d->msg];
    uint64_t line;
    bool wanted;
    P->header.section.number = P->header.part_number;
    if (section_end_header(P->t, &P->header.section, P->d->file, part_wanted, &wanted, err,
                           sizeof err, &line))
        fail_at(P, line ? line : P->r->lineno, err);
    return wanted;
}

/* A section without costs (a harness's metadata, the program's end,
 * a thread idle since the last dump): a report still reads its "desc:"
 * lines. */
static void finish_empty_section(struct parser *P)
{
    struct read_target *t = P->t;
    bool part_wanted = t->opt.part == ALL_PARTS || t->opt.part == P->header.part_number;
    if (thread_wanted(P, part_wanted) && part_wanted && t->opt.describe_sections)
        hand_over_empty(P);
}

void finish_part(struct parser *P)
{
    if (P->body.call_pending)
        fail_at(P, P->body.call_line,
                "\"calls=\" line without the cost line that must follow it "
                "(truncated file?)");
    struct read_target *t = P->t;
    if (!P->body.in_body) {
        finish_empty_section(P);
        return;
    }
    bool part_wanted = t->opt.part == ALL_PARTS || t->opt.part == P->header.part_number;
    bool wanted = thread_wanted(P, part_wanted) && part_wanted;
    /* By address, the self costs are not in the graph yet: their sum is
     * kept beside them. */
    uint64_t total =
        P->body.part.by_address ? P->body.part.addr_total[0] : P->body.prof->total_self;
    sum_other_events(P);
    if (P->header.have_totals) {
        if (P->header.totals != total) {
            P->d->line = P->header.totals_line;
            fail(P, "\"totals:\" says %" PRIu64 " but the cost lines sum to %" PRIu64
                 " (truncated or corrupt file?)", P->header.totals, total);
        }
        for (size_t k = 0; k < P->all.nothers; k++) {
            if (P->all.totals[k] != P->all.sums[k]) {
                P->d->line = P->header.totals_line;
                fail(P, "\"totals:\" says %" PRIu64 " but the cost lines sum to %" PRIu64
                     " (truncated or corrupt file?)", P->all.totals[k], P->all.sums[k]);
            }
        }
    } else if (P->header.summary_in_header) {
        /* callgrind always ends a part with "totals:" */
        fail(P, "part ends without its \"totals:\" line (truncated file?)");
    }
    t->parts_read++;
    if (part_wanted)
        t->part_matched = true;
    if (!wanted)
        return;
    for (size_t i = 0; i < P->header.descs.len;) {
        const char *nl = memchr(P->header.descs.data + i, '\n', P->header.descs.len - i);
        size_t n = (size_t)(nl - (P->header.descs.data + i));
        notes_comment(t, "desc", P->header.descs.data + i, n);
        i += n + 1;
    }
    char err[sizeof P->d->msg];
    struct section_info info = section_info_of(P);
    P->body.part.number = P->header.part_number;
    if (read_section_graph(t, &info, &P->body.part, err, sizeof err))
        fail(P, "%s", err);
}

void start_body(struct parser *P)
{
    resolve_events(P);
    addr_check_positions(P);
    P->body.in_body = true;
}

static const char *const header_keys[] = {
    "version", "creator", "pid", "cmd", "part", "thread", "desc",
    "positions", "events", "event", "summary", "totals", NULL};

static const char *const position_keys[] = {
    "ob", "fl", "fi", "fe", "fn", "cob", "cfi", "cfl", "cfn", "cfni", "calls",
    "jump", "jcnd", "jfi", "jfn", "frfn", "rec", "ln", "bb", NULL};

static bool in_list(const char *const *list, const char *key, size_t n)
{
    for (; *list; list++)
        if (key_is(key, n, *list))
            return true;
    return false;
}

static void set_positions(struct parser *P, const char *p, const char *end)
{
    size_t n = 0;
    P->addr.instr_pos = SIZE_MAX;
    P->addr.line_pos = SIZE_MAX;
    for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
        const char *t = token_end(p, end);
        size_t len = (size_t)(t - p);
        if (!key_is(p, len, "instr") && !key_is(p, len, "line") && !key_is(p, len, "bb"))
            fail(P, "unknown position type " TOKEN_FMT " in \"positions:\"",
                 TOKEN_ARGS(p, len));
        if (key_is(p, len, "instr") && P->addr.instr_pos == SIZE_MAX)
            P->addr.instr_pos = n;
        if (key_is(p, len, "line") && P->addr.line_pos == SIZE_MAX)
            P->addr.line_pos = n;
        n++;
        p = t;
    }
    P->header.npositions = n;
}

/* "event: NAME [= EXPR] : LONG NAME": the long name tells a unit. */
static void note_long_name(struct read_target *t, const char *p, const char *end)
{
    const char *name, *lng;
    size_t nlen, llen;
    if (events_long_name(p, end, &name, &nlen, &lng, &llen))
        notes_event_long(t, name, nlen, lng, llen);
}

void header_line(struct parser *P, const char *key, size_t keylen,
                        const char *value, const char *end)
{
    bool trailer = key_is(key, keylen, "totals") || key_is(key, keylen, "summary");
    if (P->body.in_body && !trailer) {
        if (!in_list(header_keys, key, keylen))
            return; /* unknown header line: ignored wherever it is */
        finish_part(P);
        start_part(P);
    }
    value = skip_blanks(value, end);
    char err[sizeof P->d->msg];
    if (key_is(key, keylen, "events")) {
        size_t len = (size_t)(end - value);
        if (events_set_columns(&P->header.events, value, len, err, sizeof err))
            fail(P, "%s", err);
        P->header.events_resolved = false;
        P->header.saw_events = true;
        for (size_t i = 0; i < P->header.events.ncolumns; i++)
            notes_event(P->t, P->header.events.columns[i], strlen(P->header.events.columns[i]));
    } else if (key_is(key, keylen, "event")) {
        size_t len = (size_t)(end - value);
        if (events_add_definition(&P->header.events, value, len, err, sizeof err))
            fail(P, "%s", err);
        P->header.events_resolved = false;
        note_long_name(P->t, value, end);
    } else if (key_is(key, keylen, "positions")) {
        set_positions(P, value, end);
    } else if (key_is(key, keylen, "part")) {
        if (!P->body.in_body && P->header.have_totals) {
            /* the section before had no costs: closed here, not merged */
            finish_empty_section(P);
            P->header.descs.len = 0;
            P->header.have_totals = false;
            P->header.summary_in_header = false;
            section_reset(&P->header.section);
        }
        P->header.part_number = number_or_fail(P, value, token_end(value, end), "part number");
        if (skip_blanks(token_end(value, end), end) != end)
            fail(P, "junk after the part number");
        P->header.section.start_line = P->r->lineno;
    } else if (key_is(key, keylen, "thread")) {
        if (section_thread(&P->header.section, value, end, P->r->lineno, err, sizeof err))
            fail(P, "%s", err);
    } else if (key_is(key, keylen, "pid")) {
        section_pid(&P->header.section, value, end);
    } else if (key_is(key, keylen, "totals") ||
               (key_is(key, keylen, "summary") && P->body.in_body)) {
        /* Cachegrind writes its total as a trailing "summary:". */
        if (key_is(key, keylen, "summary") && P->header.have_totals)
            return;
        resolve_events(P);
        P->header.totals = parse_costs(P, value, end);
        for (size_t k = 0; k < P->all.nothers; k++) {
            size_t column = P->all.other_columns[k];
            P->all.totals[k] = column < P->body.ncols ? P->body.cols[column] : 0;
        }
        P->header.have_totals = true;
        P->header.totals_line = P->r->lineno;
    } else if (key_is(key, keylen, "cmd")) {
        notes_comment(P->t, "cmd", value, (size_t)(end - value));
    } else if (key_is(key, keylen, "desc")) {
        section_desc(&P->header.section, value, end, P->r->lineno);
        if (P->t->opt.keep_notes || P->t->opt.describe_sections) {
            buf_append(&P->header.descs, value, (size_t)(end - value));
            buf_putc(&P->header.descs, '\n');
        }
    } else if (key_is(key, keylen, "summary")) {
        P->header.summary_in_header = true;
        if (P->header.events.ncolumns) {
            resolve_events(P);
            parse_costs(P, value, end); /* checked, not needed */
        }
    }
    /* version, creator and unknown keys: nothing to do for folding. */
}

int is_callgrind_line(const char *line, size_t len)
{
    size_t n = 0;
    while (n < len && (isalpha((unsigned char)line[n]) || line[n] == '_'))
        n++;
    if (n == 0 || n == len)
        return 0;
    if (line[n] == ':')
        return in_list(header_keys, line, n);
    if (line[n] == '=')
        return in_list(position_keys, line, n);
    return 0;
}

