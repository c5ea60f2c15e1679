/* Folded stacks from one part's call graph: call paths grown from the
 * roots, self costs apportioned among them, exact when nothing had to be
 * guessed (fold.h). */
#include "fold.h"
#include "apportion.h"
#include "graph.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_PARENT UINT32_MAX
#define NO_TREE UINT32_MAX

/* The calling-context tree, stored in depth-first preorder. */
struct context_tree {
    uint32_t *node;
    uint32_t *parent;
    uint64_t *weight;
    size_t count, cap;
};

/* One open call on the depth-first walk. */
struct walk_frame {
    uint32_t entry;      /* context-tree entry of this call path */
    uint32_t next;       /* next out-edge to consider */
    uint32_t end;
    uint32_t tree;       /* spanning tree of the node's recursive component */
    uint64_t weight;
    u128 before;         /* apportioned so far: self, then earlier calls */
    uint64_t handed_out; /* apportion_prefix(weight, before, denominator) */
    uint64_t path_bytes; /* length of the stack text of this path */
    u128 denominator;    /* self + calls to functions not on the path */
};

struct walker {
    const struct profile *p;
    struct graph g;
    struct context_tree tree;
    uint32_t *on_path;   /* how often each node is on the current path */
    struct walk_frame *stack;
    size_t depth, stack_cap;
    uint64_t min_weight; /* lighter paths are not followed */
    const uint32_t *frame_len; /* node -> length of its frame text */
    /* node -> the cost of its calls to other functions: push_call's
     * denominator outside recursive components, where no callee but the
     * node itself can be on the path. */
    u128 *out_cost;
    uint64_t stack_bytes; /* text of the stacks with cost found so far */

    /* Where paths start (roots, then entries of unreachable cycles), and
     * for every function the caller it was first found from, preferring
     * costed calls: the path its cost goes to when no weighted path
     * reaches it. */
    uint32_t *starts;
    size_t nstarts;
    uint32_t *found_from;
    bool guessed_entry;  /* a cycle nobody calls had to be entered somewhere */
};

static uint32_t add_entry(struct context_tree *t, uint32_t node, uint32_t parent,
                          uint64_t weight)
{
    if (t->count >= UINT32_MAX - 1)
        out_of_memory();
    if (t->count >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        t->node = xrealloc(t->node, cap * sizeof *t->node);
        t->parent = xrealloc(t->parent, cap * sizeof *t->parent);
        t->weight = xrealloc(t->weight, cap * sizeof *t->weight);
        t->cap = cap;
    }
    t->node[t->count] = node;
    t->parent[t->count] = parent;
    t->weight[t->count] = weight;
    return (uint32_t)t->count++;
}

/* ---- where paths start ---------------------------------------------- */

static const uint64_t *sort_reach; /* qsort has no context argument */

static int by_reach_then_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_reach[x] != sort_reach[y])
        return sort_reach[x] > sort_reach[y] ? -1 : 1;
    return (x > y) - (x < y);
}

/* Breadth-first search from `start`, following costed calls before
 * uncosted ones, recording found_from. Returns true if it found cost. */
static bool discover_from(struct walker *w, uint32_t start, uint32_t *queue,
                          uint32_t *deferred)
{
    const struct profile *p = w->p;
    size_t head = 0, tail = 0, dhead = 0, dtail = 0;
    bool found_cost = false;
    w->found_from[start] = start; /* a start is its own origin */
    queue[tail++] = start;
    for (;;) {
        uint32_t u;
        if (head < tail) {
            u = queue[head++];
        } else if (dhead < dtail) {
            /* Uncosted call, taken only if no costed one reached it. */
            uint32_t e = deferred[dhead++];
            u = p->edges[e].callee;
            if (w->found_from[u] != NO_PARENT)
                continue;
            w->found_from[u] = p->edges[e].caller;
        } else {
            break;
        }
        found_cost |= p->nodes[u].self > 0;
        for (uint32_t i = graph_edges_begin(&w->g, u); i < graph_edges_end(&w->g, u); i++) {
            uint32_t e = w->g.edge[i];
            uint32_t v = p->edges[e].callee;
            if (w->found_from[v] != NO_PARENT)
                continue;
            if (p->edges[e].cost > 0) {
                w->found_from[v] = u;
                queue[tail++] = v;
            } else {
                deferred[dtail++] = e;
            }
        }
    }
    return found_cost;
}

static void find_starts(struct walker *w)
{
    size_t n = w->p->nnodes;
    w->starts = xmalloc(n * sizeof *w->starts);
    w->found_from = xmalloc(n * sizeof *w->found_from);
    for (size_t i = 0; i < n; i++)
        w->found_from[i] = NO_PARENT;
    uint32_t *queue = xmalloc(n * sizeof *queue);
    uint32_t *deferred = xmalloc((w->p->nedges + 1) * sizeof *deferred);
    uint32_t *order = xmalloc(n * sizeof *order);

    size_t nroots = 0;
    for (size_t i = 0; i < n; i++)
        if (w->g.in_degree[i] == 0)
            order[nroots++] = (uint32_t)i;
    sort_reach = w->g.reach;
    qsort(order, nroots, sizeof *order, by_reach_then_index);
    for (size_t i = 0; i < nroots; i++) {
        w->starts[w->nstarts++] = order[i];
        discover_from(w, order[i], queue, deferred);
    }
    /* What is left is only reachable through cycles without an entry:
     * start each at its costliest (most inclusive, so outermost) member. */
    size_t nleft = 0;
    for (size_t i = 0; i < n; i++)
        if (w->found_from[i] == NO_PARENT)
            order[nleft++] = (uint32_t)i;
    qsort(order, nleft, sizeof *order, by_reach_then_index);
    for (size_t i = 0; i < nleft; i++) {
        if (w->found_from[order[i]] != NO_PARENT)
            continue;
        w->starts[w->nstarts++] = order[i];
        w->guessed_entry |= discover_from(w, order[i], queue, deferred);
    }
    free(queue);
    free(deferred);
    free(order);
}

/* ---- the weighted walk ------------------------------------------------ */

/* Enter `node` on the current path with the given weight. */
static void push_call(struct walker *w, uint32_t node, uint32_t parent_entry,
                      uint64_t weight, uint32_t tree)
{
    const struct profile *p = w->p;
    uint32_t entry = add_entry(&w->tree, node, parent_entry, weight);
    w->on_path[node]++;
    /* A call back into the path (recursion) is left out: its inclusive
     * cost is already inside the outer call and would count twice. */
    u128 denominator = p->nodes[node].self;
    uint32_t begin = graph_edges_begin(&w->g, node), end = graph_edges_end(&w->g, node);
    if (w->g.comp_size[w->g.component[node]] == 1) {
        denominator += w->out_cost[node];
    } else {
        for (uint32_t i = begin; i < end; i++) {
            const struct call_edge *e = &p->edges[w->g.edge[i]];
            if (!w->on_path[e->callee])
                denominator += e->cost;
        }
    }
    if (w->depth >= w->stack_cap)
        GROW(w->stack, w->stack_cap, w->depth);
    u128 self = p->nodes[node].self;
    uint64_t path_bytes = w->frame_len[node] +
                          (w->depth ? w->stack[w->depth - 1].path_bytes + 1 : 0);
    if (self > 0)
        w->stack_bytes += path_bytes;
    w->stack[w->depth++] = (struct walk_frame){
        .path_bytes = path_bytes,
        .entry = entry, .next = begin, .end = end, .tree = tree, .weight = weight,
        .before = self, .handed_out = apportion_prefix(weight, self, denominator),
        .denominator = denominator};
}

/* Bound on the calling-context tree. A deep chain below a wide fan of
 * paths can make the number of paths explode even above min_weight; when
 * the tree would outgrow this, the walk restarts with a coarser min_weight.
 * Each entry costs 16 bytes. */
#define MAX_CONTEXTS ((size_t)1 << 22)
/* Bound on the text of the stacks that will be printed, for the same
 * reason: deep paths make long lines. */
#define MAX_STACK_BYTES ((uint64_t)1 << 28)

/* Returns false if the walk was cut short by MAX_CONTEXTS. */
static bool walk_from(struct walker *w, uint32_t start)
{
    const struct profile *p = w->p;
    struct graph *g = &w->g;
    uint32_t start_tree = g->comp_size[g->component[start]] > 1 ? graph_tree(g, start) : NO_TREE;
    push_call(w, start, NO_PARENT, g->reach[start], start_tree);
    while (w->depth > 0) {
        struct walk_frame *f = &w->stack[w->depth - 1];
        uint32_t node = w->tree.node[f->entry];
        if (f->next == f->end) {
            w->on_path[node]--;
            w->depth--;
            continue;
        }
        if (w->tree.count >= MAX_CONTEXTS || w->stack_bytes > MAX_STACK_BYTES) {
            while (w->depth > 0)
                w->on_path[w->tree.node[w->stack[--w->depth].entry]]--;
            return false;
        }
        const struct call_edge *e = &p->edges[g->edge[f->next++]];
        uint32_t callee = e->callee;
        if (w->on_path[callee])
            continue;
        /* Calls come costliest first: once one cannot get min_weight
         * (its share is at most weight*cost/denominator + 1), none can. */
        if ((u128)f->weight * e->cost < (u128)(w->min_weight - 1) * f->denominator) {
            f->next = f->end;
            continue;
        }
        f->before += e->cost;
        uint64_t upto = apportion_prefix(f->weight, f->before, f->denominator);
        uint64_t share = upto - f->handed_out;
        f->handed_out = upto;
        if (share == 0 || share < w->min_weight)
            continue;
        uint32_t tree = NO_TREE;
        if (g->component[callee] == g->component[node]) {
            /* Inside a recursive component only its spanning tree is
             * followed; the callee's cost is reached along its tree path. */
            if (g->pool[f->tree + g->member[callee]] != node)
                continue;
            tree = f->tree;
        } else if (g->comp_size[g->component[callee]] > 1) {
            tree = graph_tree(g, callee);
        }
        push_call(w, callee, f->entry, share, tree);
    }
    return true;
}

/* Grow the calling-context tree from every start, with paths down to
 * 1/resolution of the total start weight (coarser if it gets too big). */
static void walk_all(struct walker *w, uint64_t resolution)
{
    u128 total = 0;
    for (size_t i = 0; i < w->nstarts; i++)
        total += w->g.reach[w->starts[i]];
    u128 min = resolution ? total / resolution : 0;
    w->min_weight = min == 0 ? 1 : min > UINT64_MAX ? UINT64_MAX : (uint64_t)min;
    for (;;) {
        bool complete = true;
        w->tree.count = 0;
        w->stack_bytes = 0;
        for (size_t i = 0; i < w->nstarts && complete; i++)
            complete = walk_from(w, w->starts[i]);
        if (complete || w->min_weight == UINT64_MAX)
            return;
        w->min_weight = w->min_weight > UINT64_MAX / 2 ? UINT64_MAX : w->min_weight * 2;
    }
}

/* ---- exact or estimated ------------------------------------------------ */

/* The stacks are exact when every function with cost has a single call
 * path of costed calls from a root: then nothing was apportioned. Returns
 * the first function that breaks this, or NO_NODE. */
static uint32_t first_guess(const struct walker *w, const char **why)
{
    const struct profile *p = w->p;
    const struct graph *g = &w->g;
    size_t n = p->nnodes;
    uint8_t *costed_callers = xcalloc(n, 1); /* saturates at 2 */
    uint8_t *guess = xcalloc(n, 1);
    uint32_t *queue = xmalloc((n + 1) * sizeof *queue);
    size_t tail = 0;
    for (size_t e = 0; e < p->nedges; e++) {
        const struct call_edge *ce = &p->edges[e];
        if (ce->cost == 0)
            continue;
        if (ce->caller == ce->callee) {
            guess[ce->callee] = 1; /* recursion depth is folded */
        } else if (costed_callers[ce->callee] < 2) {
            costed_callers[ce->callee]++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (costed_callers[i] >= 2 || g->comp_size[g->component[i]] > 1 ||
            (p->nodes[i].self > 0 && g->in_degree[i] > 0 && costed_callers[i] == 0))
            guess[i] = 1;
        if (guess[i])
            queue[tail++] = (uint32_t)i;
    }
    /* Everything below a guess along costed calls is a guess too. */
    uint32_t result = NO_NODE;
    for (size_t head = 0; head < tail && result == NO_NODE; head++) {
        uint32_t u = queue[head];
        if (p->nodes[u].self > 0)
            result = u;
        for (uint32_t i = graph_edges_begin(g, u); i < graph_edges_end(g, u); i++) {
            const struct call_edge *e = &p->edges[g->edge[i]];
            if (e->cost > 0 && !guess[e->callee]) {
                guess[e->callee] = 1;
                queue[tail++] = e->callee;
            }
        }
    }
    if (result != NO_NODE) {
        if (g->comp_size[g->component[result]] > 1)
            *why = "is recursive";
        else if (costed_callers[result] >= 2)
            *why = "has several callers";
        else if (costed_callers[result] == 0 && g->in_degree[result] > 0)
            *why = "has cost but no costed call";
        else
            *why = "is called from an estimated path";
    }
    free(costed_callers);
    free(guess);
    free(queue);
    return result;
}

/* ---- output -------------------------------------------------------------- */

struct emitter {
    const struct walker *w;
    struct fold_target *t;
    uint32_t *frame;     /* node -> output frame id */
    uint32_t *frame_len; /* node -> length of its frame text */
    uint32_t *path;      /* frame ids of the current stack */
    size_t path_len;
};

/* Frame of every function: its text made once per out (frame_of). */
static void build_frames(struct emitter *em, const struct profile *p)
{
    struct fold_target *ft = em->t;
    size_t n = p->nnodes;
    struct buf text = {0};
    em->frame = xmalloc((n ? n : 1) * sizeof *em->frame);
    em->frame_len = xmalloc((n ? n : 1) * sizeof *em->frame_len);
    for (size_t i = 0; i < n; i++) {
        const struct fn_node *fn = &p->nodes[i];
        uint32_t frame;
        if (!hashmap_get(&ft->frame_of, fn->name, fn->object, &frame)) {
            text.len = 0;
            frame_append(&text, strtab_str(ft->names, fn->name),
                         strtab_len(ft->names, fn->name), strtab_str(ft->names, fn->object),
                         strtab_len(ft->names, fn->object), &ft->style);
            frame = stacks_frame(ft->out, text.data ? text.data : "", text.len);
            hashmap_put(&ft->frame_of, fn->name, fn->object, frame);
        }
        size_t len;
        stacks_frame_text(ft->out, frame, &len);
        em->frame[i] = frame;
        em->frame_len[i] = (uint32_t)len;
        stacks_frame_source(ft->out, frame, fn->object, fn->file, fn->line);
    }
    buf_free(&text);
}

void fold_set_out(struct fold_target *t, struct stacks *out)
{
    t->out = out;
    hashmap_clear(&t->frame_of);
}

void fold_target_free(struct fold_target *t)
{
    hashmap_free(&t->frame_of);
}

/* Stack of a function no weighted path reached: its discovery path. */
static void fallback_path(struct emitter *em, uint32_t node)
{
    const uint32_t *from = em->w->found_from;
    size_t depth = 0;
    for (uint32_t u = node;; u = from[u]) {
        depth++;
        if (from[u] == u || from[u] == NO_PARENT || depth > em->w->p->nnodes)
            break;
    }
    size_t i = depth;
    for (uint32_t u = node; i > 0; u = from[u])
        em->path[--i] = em->frame[u];
    em->path_len = depth;
}

/* Apportion every function's self cost among its paths by weight and add
 * the stacks to the output. Returns -1 on count overflow. */
static int emit_stacks(struct emitter *em, size_t col)
{
    const struct walker *w = em->w;
    const struct profile *p = w->p;
    const struct context_tree *t = &w->tree;
    struct fold_target *ft = em->t;
    struct stacks *out = ft->out; /* in registers: the loop's stores may alias ft */
    size_t n = p->nnodes;

    u128 *weight_sum = xcalloc(n, sizeof *weight_sum);
    u128 *weight_done = xcalloc(n, sizeof *weight_done);
    for (size_t i = 0; i < t->count; i++)
        weight_sum[t->node[i]] += t->weight[i];

    /* The preorder lets one array hold the current path: an entry's
     * parent is always on it, and so does the hash of its words
     * (stacks_path_hash): each path's hash takes a step from its
     * parent's, not a pass over the path. */
    uint32_t *open_entry = xmalloc((t->count + 1) * sizeof *open_entry);
    size_t costed = 0; /* paths that may be new stacks: those ending in self cost */
    for (size_t i = 0; i < t->count; i++)
        costed += p->nodes[t->node[i]].self > 0;
    stacks_reserve(out, costed);
    uint64_t *words = xmalloc((n / 2 + 2) * sizeof *words);
    words[0] = HASH_START;
    size_t depth = 0;
    int rc = 0;
    for (size_t i = 0; i < t->count && rc == 0; i++) {
        uint32_t node = t->node[i];
        while (depth > 0 && open_entry[depth - 1] != t->parent[i])
            depth--;
        open_entry[depth] = (uint32_t)i;
        em->path[depth++] = em->frame[node];
        if (depth % 2 == 0)
            words[depth / 2] = stacks_path_word(words, em->path, depth / 2 - 1);

        uint64_t self = p->nodes[node].self;
        if (self == 0 || weight_sum[node] == 0)
            continue;
        uint64_t share = apportion_share(self, weight_done[node], t->weight[i],
                                         weight_sum[node]);
        weight_done[node] += t->weight[i];
        if (share > 0 && !stacks_add_hashed(out, col, em->path, depth,
                                            stacks_path_hash(words, em->path, depth), share))
            rc = -1;
    }
    free(words);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (p->nodes[i].self == 0 || weight_sum[i] > 0)
            continue;
        fallback_path(em, (uint32_t)i);
        if (!stacks_add(out, col, em->path, em->path_len, p->nodes[i].self))
            rc = -1;
    }
    free(open_entry);
    free(weight_sum);
    free(weight_done);
    return rc;
}

/* fold_profile() of column 0 of p, into stacks column `col`. */
static int fold_column(const struct profile *p, size_t col, struct fold_target *t, char *err,
                       size_t errlen)
{
    if (p->total_self == 0)
        return 0;
    struct walker w;
    memset(&w, 0, sizeof w);
    w.p = p;
    graph_build(&w.g, p);
    w.on_path = xcalloc(p->nnodes, sizeof *w.on_path);
    w.out_cost = xcalloc(p->nnodes ? p->nnodes : 1, sizeof *w.out_cost);
    for (uint32_t u = 0; u < p->nnodes; u++)
        for (uint32_t i = graph_edges_begin(&w.g, u); i < graph_edges_end(&w.g, u); i++) {
            const struct call_edge *e = &p->edges[w.g.edge[i]];
            if (e->callee != u)
                w.out_cost[u] += e->cost;
        }
    struct emitter em = {.w = &w, .t = t};
    build_frames(&em, p);
    w.frame_len = em.frame_len;
    /* Paths never repeat a function: nnodes frames are enough. */
    em.path = xmalloc((p->nnodes + 1) * sizeof *em.path);
    find_starts(&w);
    walk_all(&w, t->resolution);

    uint64_t before = stacks_col_total(t->out, col);
    int rc = emit_stacks(&em, col);
    if (rc != 0) {
        snprintf(err, errlen, "summed costs overflow 64 bits");
    } else if (stacks_col_total(t->out, col) - before != p->total_self) {
        /* Cannot happen by construction; refuse to print a wrong sum. */
        snprintf(err, errlen,
                 "internal error: folded stacks do not sum to the part's total");
        rc = -1;
    }

    const char *why = NULL;
    uint32_t guess = first_guess(&w, &why);
    if (guess != NO_NODE || w.guessed_entry) {
        if (!t->estimated) {
            if (guess != NO_NODE)
                snprintf(t->estimate_reason, sizeof t->estimate_reason, "%s %s",
                         strtab_str(t->names, p->nodes[guess].name), why);
            else
                snprintf(t->estimate_reason, sizeof t->estimate_reason,
                         "a call cycle has no entry from outside");
        }
        t->estimated = true;
    }

    free(em.frame);
    free(em.frame_len);
    free(em.path);
    graph_free(&w.g);
    free(w.tree.node);
    free(w.tree.parent);
    free(w.tree.weight);
    free(w.on_path);
    free(w.out_cost);
    free(w.stack);
    free(w.starts);
    free(w.found_from);
    return rc;
}

int fold_profile(const struct profile *p, const size_t *columns, struct fold_target *t,
                 char *err, size_t errlen)
{
    int rc = fold_column(p, columns[0], t, err, errlen);
    if (p->ncols == 1 || rc != 0)
        return rc;
    /* Each column is folded with its own weights: the paths of one
     * event's costs are not those of another's. */
    struct profile column;
    profile_init(&column);
    for (size_t c = 1; c < p->ncols && rc == 0; c++) {
        profile_column(&column, p, c);
        rc = fold_column(&column, columns[c], t, err, errlen);
    }
    profile_free(&column);
    return rc;
}
