/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                     folded.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   --dump-folded: exact call paths, written next to each callgrind.out
   file as a folded tree (or as folded stacks text).

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program; if not, see <http://www.gnu.org/licenses/>.

   The GNU General Public License is contained in the file COPYING.
*/

/* callgrind.out holds a call graph, not call paths: a flamegraph built
 * from it has to guess how a function's cost splits among its callers.
 * Here the real path is known at every instant.  Each thread keeps a
 * tree of the call paths seen (a node per path: parent path + function),
 * and its exec state points at the node of the current path.  A call
 * keeps the running cost of each kept event in its call stack entry, and
 * its return adds what it grew by to the node of the path the call
 * entered: O(events) per call and return, one node touched, and a node's
 * costs add up to those spent in it and below it ("Active paths" below
 * for signal handlers, dumps and zeroing).  When writing, each node's own
 * costs are its costs less its children's.
 *
 * Skipped functions push no path, so their costs stay with their caller,
 * as in callgrind.out; recursion makes repeated frames.
 *
 * Each dump writes the nodes with a cost as a tree (docs: "The folded
 * tree format" in the manual): one line per path, so the file grows with
 * the number of paths, not with their depth. */

#include "config.h"
#include "global.h"

#include "pub_tool_libcfile.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"


/* kept events: their number and offsets in the full cost */
Int CLG_(folded_count) = 0;
Int CLG_(folded_hooks) = 0;
Int CLG_(folded_offset)[FOLDED_MAX_EVENTS];
static HChar* kept_names = 0;   /* "Ir Dr", for the tree's header */

/* Recent calls no path remembered (a path with more than
 * FOLDED_NODE_CALLS callees in turn): a call <jcc> made on path <from>
 * that led to path <to>, by hash of (from, jcc). */
typedef struct { folded_node *from, *to; jCC* jcc; } folded_hop;
#define HOP_BITS 14
static folded_hop hops[1 << HOP_BITS];

/* all nodes, in creation order (a parent before its children) */
static folded_node** nodes = 0;
static UInt nodes_used = 0, nodes_size = 0;
static Bool limit_warned = False;
static ULong slow_enters = 0;   /* calls no path or hop knew */

/* Nodes are carved from big blocks: they are never freed, and a node is
 * small (its costs are inline), so one allocation each would cost more in
 * allocator overhead than the node itself. */
#define NODE_BLOCK (1 << 20)
static UChar* node_block = 0;
static SizeT node_block_left = 0;
static SizeT node_size = 0;

/* (parent, fn) -> node, for every node: open addressing, each slot with
 * a tag of the key's hash, so that a lookup reads the nodes of matching
 * tags only (a node read is a cache miss: a chained hash made calls of
 * a compiler 10% slower), kept at most half full. */
static folded_node** table = 0;
static UInt* tags = 0;          /* 0: empty slot */
static UInt table_bits = 0, table_used = 0;

static folded_node** roots = 0; /* per thread id */

/* Functions are frames by name: distinct functions with the same name (a
 * static function in two objects) are the same frame, as in a folded
 * file.  canon[fn->number] is the first function seen with fn's name. */
static fn_node** canon = 0;
static UInt canon_size = 0;
static fn_node** by_name = 0;   /* open hash of the canonical functions */
static UInt by_name_size = 0, by_name_used = 0;

static fn_node* canonical_by_name(fn_node* fn)
{
   UInt i;

   if (2 * (by_name_used + 1) > by_name_size) {
      fn_node** old = by_name;
      UInt old_size = by_name_size, j;
      by_name_size = by_name_size ? 2 * by_name_size : 1024;
      by_name = VG_(calloc)("cl.folded.names", by_name_size, sizeof(fn_node*));
      for (j = 0; j < old_size; j++) {
         if (!old[j]) continue;
         for (i = CLG_(string_hash)(old[j]->name) & (by_name_size - 1);
              by_name[i];
              i = (i + 1) & (by_name_size - 1)) ;
         by_name[i] = old[j];
      }
      if (old) VG_(free)(old);
   }
   for (i = CLG_(string_hash)(fn->name) & (by_name_size - 1); by_name[i];
        i = (i + 1) & (by_name_size - 1))
      if (VG_(strcmp)(by_name[i]->name, fn->name) == 0)
         return by_name[i];
   by_name[i] = fn;
   by_name_used++;
   return fn;
}

static fn_node* canonical(fn_node* fn)
{
   if (fn->number >= canon_size) {
      UInt old = canon_size;
      while (fn->number >= canon_size) canon_size = canon_size ? 2 * canon_size : 1024;
      canon = VG_(realloc)("cl.folded.canon", canon, canon_size * sizeof(fn_node*));
      VG_(memset)(canon + old, 0, (canon_size - old) * sizeof(fn_node*));
   }
   if (!canon[fn->number])
      canon[fn->number] = canonical_by_name(fn);
   return canon[fn->number];
}

static ULong key_hash(folded_node* parent, fn_node* fn)
{
   /* heap addresses: mix all bits */
   return ((ULong)(UWord)parent ^ ((ULong)(UWord)fn << 21)) * 0x9E3779B97F4A7C15ULL;
}

/* The slot of (parent, fn): its node's, or the empty one to put it in. */
static UInt find_slot(folded_node* parent, fn_node* fn)
{
   ULong h = key_hash(parent, fn);
   UInt mask = (1u << table_bits) - 1;
   UInt i = (UInt)(h >> (64 - table_bits));
   UInt tag = (UInt)(h >> 8) | 1;

   for (; tags[i]; i = (i + 1) & mask)
      if (tags[i] == tag && table[i]->parent == parent && table[i]->fn == fn)
         break;
   return i;
}

static void table_put(UInt slot, folded_node* n)
{
   table[slot] = n;
   tags[slot] = (UInt)(key_hash(n->parent, n->fn) >> 8) | 1;
   table_used++;
}

static void grow_table(void)
{
   UInt i, old_size = table_bits ? 1u << table_bits : 0;
   folded_node** old = table;
   UInt* old_tags = tags;

   table_bits = table_bits ? table_bits + 1 : 14;
   table = VG_(malloc)("cl.folded.table", sizeof(folded_node*) << table_bits);
   tags = VG_(calloc)("cl.folded.tags", 1u << table_bits, sizeof(UInt));
   table_used = 0;
   for (i = 0; i < old_size; i++)
      if (old_tags[i])
         table_put(find_slot(old[i]->parent, old[i]->fn), old[i]);
   if (old) {
      VG_(free)(old);
      VG_(free)(old_tags);
   }
}

static folded_node* new_node(folded_node* parent, fn_node* fn, UInt tree)
{
   folded_node* n;

   if (node_block_left < node_size) {
      /* cache-line aligned */
      node_block = VG_(malloc)("cl.folded.node", NODE_BLOCK + 64);
      node_block += (64 - (UWord)node_block % 64) % 64;
      node_block_left = NODE_BLOCK;
   }
   n = (folded_node*)node_block;
   node_block += node_size;
   node_block_left -= node_size;
   VG_(memset)(n, 0, node_size);
   n->fn = fn;
   n->parent = parent;
   n->tree = tree;
   if (nodes_used == nodes_size) {
      nodes_size = nodes_size ? 2 * nodes_size : 4096;
      nodes = VG_(realloc)("cl.folded.nodes", nodes,
                           nodes_size * sizeof(folded_node*));
   }
   n->index = nodes_used;
   nodes[nodes_used++] = n;
   return n;
}

/* The tree of the current thread's paths: all threads share one unless
 * their dumps are separate, as in callgrind.out. */
static UInt current_tree(void)
{
   return CLG_(clo).separate_threads ? CLG_(current_tid) : 1;
}

static folded_node* tree_root(UInt tree)
{
   if (!roots)
      roots = VG_(calloc)("cl.folded.roots", VG_N_THREADS, sizeof(folded_node*));
   if (!roots[tree])
      roots[tree] = new_node(0, 0, tree);
   return roots[tree];
}

/* The node of path <n>: 0 in an exec state or a call stack entry means
 * the root of the current thread's tree. */
static folded_node* node_or_root(folded_node* n)
{
   return n ? n : tree_root(current_tree());
}

static folded_node* current_node(void)
{
   return node_or_root(CLG_(current_state).fnode);
}

/*------------------------------------------------------------*/
/*--- Active paths                                         ---*/
/*------------------------------------------------------------*/

/* A path is active while the program runs in it or below it.  Each call
 * stack entry whose call changed the current path keeps the path it
 * entered active (or the path the next block entered, for the first
 * function after instrumentation starts), and the running costs of that
 * moment (its mark); each exec state keeps active the path it started on
 * and all its ancestors: a thread's root path, or for a signal handler
 * the interrupted path, whose own activations do not see the handler's
 * costs (their exec state's running cost stands still meanwhile).  An
 * activation of the latter kind subtracts the running costs of its exec
 * state from its node when it begins and adds them when it ends.  Either
 * way a node's costs add up to the costs spent in it and below it.  When
 * a dump is written, the active ones end, and begin again after it. */

/* the running cost of the kept events in <cost>, less <held> (0: none) */
static void kept_cost(ULong* v, const ULong* cost, const ULong* held)
{
   Int k;
   for (k = 0; k < CLG_(folded_count); k++)
      v[k] = cost[CLG_(folded_offset)[k]] - (held ? held[k] : 0);
}

/* an activation of <n> ends (<end>) or begins at the running cost <v> */
static void shift(folded_node* n, Bool end, const ULong* v)
{
   Int k;
   if (end)
      for (k = 0; k < CLG_(folded_count); k++) n->cost[k] += v[k];
   else
      for (k = 0; k < CLG_(folded_count); k++) n->cost[k] -= v[k];
}

/* Call stack entries keep the marks of the kept events after the first
 * (CLG_(folded_mark) in global.h keeps the first). */
static void new_marks(call_entry* e)
{
   e->fmarks = VG_(malloc)("cl.folded.marks", FOLDED_MAX_EVENTS * sizeof(ULong));
}

void CLG_(folded_mark_more)(call_entry* e)
{
   Int k;
   if (!e->fmarks) new_marks(e);
   for (k = 1; k < CLG_(folded_count); k++)
      e->fmarks[k - 1] = CLG_(current_state).cost[CLG_(folded_offset)[k]];
}

/* The return of entry <e> from path <n>: the events after the first. */
void CLG_(folded_credit_more)(folded_node* n, call_entry* e)
{
   Int k;
   if (!e->fmarks) return;
   for (k = 1; k < CLG_(folded_count); k++)
      n->cost[k] += CLG_(current_state).cost[CLG_(folded_offset)[k]]
                    - e->fmarks[k - 1];
}

/* an entry's activation of <n> ends (<end>: <n> gets the costs since
 * its mark) or begins at the running cost <v> */
static void shift_entry(call_entry* e, folded_node* n, Bool end,
                        const ULong* v)
{
   Int k;
   if (end) {
      n->cost[0] += v[0] - e->fmark;
      if (e->fmarks)
         for (k = 1; k < CLG_(folded_count); k++)
            n->cost[k] += v[k] - e->fmarks[k - 1];
   } else {
      e->fmark = v[0];
      if (CLG_(folded_count) > 1 && !e->fmarks) new_marks(e);
      for (k = 1; k < CLG_(folded_count); k++) e->fmarks[k - 1] = v[k];
   }
}

/* the path <n> and all its ancestors */
static void shift_chain(folded_node* n, Bool end, const ULong* v)
{
   for (n = node_or_root(n); n; n = n->parent)
      shift(n, end, v);
}

/* Every activation of exec state <i> of the current thread (the last one
 * runs): the path it started on, with its ancestors, and those of its
 * call stack entries. */
static void shift_state(Int i, Bool end, const ULong* v)
{
   Int last = CLG_(exec_state_count)() - 1, j;
   Int first = CLG_(exec_state_at)(i)->call_stack_bottom;
   Int past = i < last ? CLG_(exec_state_at)(i + 1)->call_stack_bottom
                       : CLG_(current_call_stack).sp;
   folded_node* now_at = i < last ? CLG_(exec_state_at)(i)->fnode
                                  : CLG_(current_state).fnode;
   call_entry* e = CLG_(current_call_stack).entry;

   shift_chain(first < past ? e[first].fnode : now_at, end, v);
   for (j = first; j < past; j++) {
      folded_node* after = j + 1 < past ? e[j + 1].fnode : now_at;
      if (after != e[j].fnode)
         shift_entry(&e[j], node_or_root(after), end, v);
   }
}

/* Every activation of the current thread; <held> is left out of the
 * running cost of the running exec state. */
static void shift_thread(Bool end, const ULong* held)
{
   Int i, last = CLG_(exec_state_count)() - 1;
   ULong v[FOLDED_MAX_EVENTS];

   for (i = 0; i <= last; i++) {
      kept_cost(v, CLG_(exec_state_at)(i)->cost, i == last ? held : 0);
      shift_state(i, end, v);
   }
}

/* The costs held back from a dump (or kept by a zeroing) of the current
 * thread.  The block running now may have logged costs (cache, branch and
 * system-call simulation log them as its instructions run) into a BBCC
 * that has no execution counted yet: an execution is counted when the
 * next block starts.  Dumping skips, and zeroing keeps, such a BBCC, so
 * callgrind.out counts those costs with a later dump, or never after the
 * last one.  The tree does the same. */
static void held_cost(ULong* held, Bool for_dump)
{
   BBCC* bbcc = CLG_(current_state).bbcc;
   Int k;

   VG_(memset)(held, 0, FOLDED_MAX_EVENTS * sizeof(ULong));
   if (bbcc && bbcc->ecounter_sum == 0 && bbcc->ret_counter == 0 &&
       !(for_dump && bbcc->skipped &&
         !CLG_(is_zero_cost)(CLG_(sets).full, bbcc->skipped))) {
      FullCost sum = CLG_(get_eventset_cost)(CLG_(sets).full);
      UInt i;
      CLG_(zero_cost)(CLG_(sets).full, sum);
      for (i = 0; i < bbcc->bb->instr_count; i++) {
         InstrInfo* ii = &bbcc->bb->instr[i];
         if (ii->eventset)
            CLG_(add_cost2)(CLG_(sets).full, sum, ii->eventset,
                            bbcc->cost + ii->cost_offset);
      }
      for (k = 0; k < CLG_(folded_count); k++)
         held[k] = sum[CLG_(folded_offset)[k]];
   }
}

/* The activations of the running exec state end at the running costs
 * <end_at> and begin again at <begin_at>. */
static void restart_state(const ULong* end_at, const ULong* begin_at)
{
   Int top = CLG_(exec_state_count)() - 1;

   shift_state(top, True, end_at);
   shift_state(top, False, begin_at);
}

/* The running exec state's path and its ancestors end at the running
 * costs; it goes on at path <to> (0: the root), which begins. */
static void move_start(folded_node* to)
{
   ULong v[FOLDED_MAX_EVENTS];

   kept_cost(v, CLG_(current_state).cost, 0);
   shift_chain(CLG_(current_state).fnode, True, v);
   CLG_(current_state).fnode = to;
   shift_chain(to, False, v);
}

/* Threads whose activations ended for a dump, and the costs held back */
static Bool* closed = 0;
static ULong (*closed_held)[FOLDED_MAX_EVENTS] = 0;

/* Before a dump: the current thread's activations end. */
void CLG_(folded_close_thread)(void)
{
   ThreadId tid = CLG_(current_tid);

   if (!CLG_(clo).dump_folded) return;
   if (!closed) {
      closed = VG_(calloc)("cl.folded.closed", VG_N_THREADS, sizeof(Bool));
      closed_held = VG_(calloc)("cl.folded.held", VG_N_THREADS,
                                sizeof(closed_held[0]));
   }
   held_cost(closed_held[tid], True);
   shift_thread(True, closed_held[tid]);
   closed[tid] = True;
}

/* After a dump: the current thread's activations begin again, unless
 * they did when its tree was zeroed. */
void CLG_(folded_reopen_thread)(void)
{
   ThreadId tid = CLG_(current_tid);

   if (!closed || !closed[tid]) return;
   shift_thread(False, closed_held[tid]);
   closed[tid] = False;
}

/* The current thread's call stack is about to be unwound (at exit, of the
 * thread or the program): its last block will not start another, so
 * callgrind.out never counts the costs held in it.  Nor does the tree. */
void CLG_(folded_drop_held)(void)
{
   ULong held[FOLDED_MAX_EVENTS], end_at[FOLDED_MAX_EVENTS],
         begin_at[FOLDED_MAX_EVENTS];

   if (!CLG_(clo).dump_folded) return;
   held_cost(held, True);
   kept_cost(end_at, CLG_(current_state).cost, held);
   kept_cost(begin_at, CLG_(current_state).cost, 0);
   restart_state(end_at, begin_at);
}

/* The running exec state, its call stack unwound, starts again at the
 * root. */
void CLG_(folded_restart)(void)
{
   if (CLG_(clo).dump_folded) move_start(0);
}

/* The running cost of the running exec state is about to be zeroed: its
 * activations end, and begin again at zero. */
void CLG_(folded_close_state)(void)
{
   static const ULong zero[FOLDED_MAX_EVENTS];
   ULong v[FOLDED_MAX_EVENTS];

   if (!CLG_(clo).dump_folded) return;
   kept_cost(v, CLG_(current_state).cost, 0);
   restart_state(v, zero);
}

/* A signal handler returns, its calls returned: the path it started on
 * and the callers of that path get its costs. */
void CLG_(folded_handler_done)(void)
{
   ULong v[FOLDED_MAX_EVENTS];

   if (!CLG_(clo).dump_folded) return;
   kept_cost(v, CLG_(current_state).cost, 0);
   shift_chain(CLG_(current_state).fnode, True, v);
}

/* The path of a call of <fn> from <parent>: 0 if it is new and
 * --folded-max-paths is reached. */
static folded_node* path_of(folded_node* parent, fn_node* fn)
{
   folded_node* n;
   UInt slot;

   slow_enters++;
   fn = canonical(fn);
   if (!table) grow_table();
   slot = find_slot(parent, fn);
   n = tags[slot] ? table[slot] : 0;
   if (!n) {
      if (nodes_used >= (UInt)CLG_(clo).folded_max_paths) {
         /* charge deeper new paths to their deepest known ancestor */
         if (!limit_warned) {
            VG_(message)(Vg_UserMsg,
                         "Warning: --folded-max-paths=%d reached; costs of "
                         "new deeper paths go to their deepest known "
                         "ancestor (totals stay exact)\n",
                         CLG_(clo).folded_max_paths);
            limit_warned = True;
         }
         return 0;
      }
      n = new_node(parent, fn, parent->tree);
      table_put(slot, n);
      if (2 * table_used > (1u << table_bits)) grow_table();
   }
   return n;
}

/* A call of <fn> from the current path: the path it enters (the call
 * stack entry keeps its mark, CLG_(folded_mark)). */
void CLG_(folded_enter)(fn_node* fn)
{
   folded_node* n = path_of(current_node(), fn);

   if (n) CLG_(current_state).fnode = n;
}

/* The first function run in an exec state (a thread starts, a signal
 * handler, instrumentation on): its path is active as long as the
 * top call stack entry of the exec state, or as the exec state itself if
 * it has none. */
void CLG_(folded_enter_first)(fn_node* fn)
{
   Int first = CLG_(exec_state_at)(CLG_(exec_state_count)() - 1)
                  ->call_stack_bottom;
   Int sp = CLG_(current_call_stack).sp;
   folded_node* n = path_of(current_node(), fn);
   ULong v[FOLDED_MAX_EVENTS];

   if (!n) return;
   CLG_(current_state).fnode = n;
   if (sp > first)
      CLG_(folded_mark)(&CLG_(current_call_stack).entry[sp - 1],
                        CLG_(folded_hooks));
   else {
      kept_cost(v, CLG_(current_state).cost, 0);
      shift(n, False, v);
   }
}

/* The running exec state returned below the calls it knows: the function
 * it runs in starts a new path at the root. */
void CLG_(folded_reroot)(fn_node* fn)
{
   move_start(path_of(tree_root(current_tree()), fn));
}

/* CLG_(folded_call) in global.h looks at each remembered call in turn */
STATIC_ASSERT(FOLDED_NODE_CALLS == 3);

/* <from> remembers that <jcc> led to <to>, as its last call */
static void remember_call(folded_node* from, jCC* jcc, folded_node* to)
{
   Int i;
   for (i = FOLDED_NODE_CALLS - 1; i > 0; i--) {
      from->call_jcc[i] = from->call_jcc[i - 1];
      from->call_to[i] = from->call_to[i - 1];
   }
   from->call_jcc[0] = jcc;
   from->call_to[0] = to;
}

/* The call <jcc> of <fn> from the current path, which the path did not
 * remember (CLG_(folded_call) in global.h). */
void CLG_(folded_call_slow)(jCC* jcc, fn_node* fn)
{
   folded_node* from = CLG_(current_state).fnode;
   folded_hop* hop;
   ULong h;

   if (!from) {  /* the root: a different path in each thread */
      CLG_(folded_enter)(fn);
      return;
   }
   /* nodes and jCCs are carved from few blocks, so their addresses
    * share most bits: a multiply spreads them (a xor of the two made a
    * third of the calls of a small program collide) */
   h = ((ULong)(UWord)from ^ ((ULong)(UWord)jcc << 29)) * 0x9E3779B97F4A7C15ULL;
   hop = &hops[h >> (64 - HOP_BITS)];
   if (hop->from == from && hop->jcc == jcc)
      CLG_(current_state).fnode = hop->to;
   else {
      CLG_(folded_enter)(fn);
      if (CLG_(current_state).fnode == from) return;  /* path limit */
      hop->from = from;
      hop->jcc = jcc;
      hop->to = CLG_(current_state).fnode;
   }
   remember_call(from, jcc, hop->to);
}

/* Forget the costs of the current thread's tree (the shared tree unless
 * --separate-threads=yes), as dumps and CALLGRIND_ZERO_STATS do for
 * callgrind.out: the active paths of the threads on it begin again. */
void CLG_(folded_zero)(void)
{
   UInt i, tree;
   ThreadId t, me = CLG_(current_tid);

   if (!CLG_(clo).dump_folded) return;
   tree = current_tree();
   for (i = 0; i < nodes_used; i++)
      if (nodes[i]->tree == tree)
         VG_(memset)(nodes[i]->cost, 0, CLG_(folded_count) * sizeof(ULong));
   for (t = 1; t < VG_N_THREADS; t++) {
      ULong held[FOLDED_MAX_EVENTS];
      if (!CLG_(get_threads)()[t]) continue;
      CLG_(switch_thread)(t);
      if (current_tree() != tree) continue;
      if (closed && closed[t])
         CLG_(folded_reopen_thread)();
      else {
         held_cost(held, False);
         shift_thread(False, held);
      }
   }
   CLG_(switch_thread)(me);
}

/* Before writing, the activations ended: a node's costs become its own,
 * less its children's.  A parent comes before its children, so each
 * child's costs are still inclusive when taken from its parent's. */
static void own_costs(UInt tree)
{
   UInt i;
   Int k;

   for (i = 0; i < nodes_used; i++) {
      folded_node* n = nodes[i];
      if (n->tree != tree || !n->parent) continue;
      for (k = 0; k < CLG_(folded_count); k++)
         n->parent->cost[k] -= n->cost[k];
   }
}

/* An own cost below zero would be a bug of the accounting above: said
 * once rather than written as a huge count unnoticed. */
static void check_own_costs(folded_node* n)
{
   static Bool warned = False;
   Int k;

   for (k = 0; k < CLG_(folded_count) && !warned; k++)
      if ((Long)n->cost[k] < 0) {
         VG_(message)(Vg_UserMsg, "Warning: --dump-folded: a path's own "
                      "cost came out negative (a bug; please report it)\n");
         warned = True;
      }
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

/* Buffered output: files are large, so lines are copied into a buffer
 * written in big chunks. */
#define OUT_BUF_SIZE (1 << 20)
static Int out_fd = -1;
static HChar* out_buf = 0;
static SizeT out_len = 0;

static void out_flush(void)
{
   SizeT done = 0;
   while (done < out_len) {
      Int n = VG_(write)(out_fd, out_buf + done, out_len - done);
      if (n <= 0) break;
      done += n;
   }
   out_len = 0;
}

static void out_put(const HChar* s, SizeT n)
{
   while (n > 0) {
      SizeT chunk = OUT_BUF_SIZE - out_len;
      if (chunk > n) chunk = n;
      VG_(memcpy)(out_buf + out_len, s, chunk);
      out_len += chunk;
      s += chunk;
      n -= chunk;
      if (out_len == OUT_BUF_SIZE) out_flush();
   }
}

static void out_str(const HChar* s)
{
   out_put(s, VG_(strlen)(s));
}

/* <v> in decimal: numbers are most of a tree file, and VG_(sprintf)
 * parses its format for each */
static void out_digits(ULong v)
{
   HChar buf[24];
   Int i = sizeof(buf);
   do buf[--i] = '0' + (HChar)(v % 10); while ((v /= 10) != 0);
   out_put(buf + i, sizeof(buf) - i);
}

/* " <v>" */
static void out_num(ULong v)
{
   out_put(" ", 1);
   out_digits(v);
}

/* a name on one line: a newline would end it */
static void out_name(const HChar* name)
{
   for (; *name; name++)
      out_put(*name == '\n' ? " " : name, 1);
}

/* The nodes of <tree> that are written: those with a cost, and their
 * ancestors.  Children lists (index + 1, 0 for none) link them. */
static UChar* live = 0;
static UInt *first_child = 0, *next_sibling = 0;
static UInt links_size = 0;

static Bool has_cost(folded_node* n)
{
   Int k;
   for (k = 0; k < CLG_(folded_count); k++)
      if (n->cost[k]) return True;
   return False;
}

static void link_tree(UInt tree)
{
   Int i;

   if (links_size < nodes_used) {
      links_size = nodes_used;
      live = VG_(realloc)("cl.folded.live", live, links_size);
      first_child = VG_(realloc)("cl.folded.first", first_child,
                                 links_size * sizeof(UInt));
      next_sibling = VG_(realloc)("cl.folded.next", next_sibling,
                                  links_size * sizeof(UInt));
   }
   VG_(memset)(live, 0, nodes_used);
   VG_(memset)(first_child, 0, nodes_used * sizeof(UInt));
   /* a node comes after its parent: walking backwards sees it first */
   for (i = (Int)nodes_used - 1; i >= 0; i--) {
      folded_node* n = nodes[i];
      if (n->tree != tree) continue;
      check_own_costs(n);
      if (!(live[i] || has_cost(n)) || !n->parent)
         continue;
      live[i] = 1;
      live[n->parent->index] = 1;
      next_sibling[i] = first_child[n->parent->index];
      first_child[n->parent->index] = i + 1;
   }
}

/* The function ids of the tree file being written: the canonical
 * function numbered N has id fn_id[N] in the file if fn_id_file[N] is the
 * file's generation.  Id 1 is "(unknown)", the cost left at a root. */
static UInt *fn_id = 0, *fn_id_file = 0;
static UInt fn_id_size = 0, file_generation = 0, next_fn_id = 0;
static Bool unknown_defined = False;

static UInt id_of(fn_node* fn)
{
   if (!fn) {
      if (!unknown_defined) {
         out_str("fn: 1 (unknown)\n");
         unknown_defined = True;
      }
      return 1;
   }
   if (fn->number >= fn_id_size) {
      UInt old = fn_id_size;
      while (fn->number >= fn_id_size) fn_id_size = fn_id_size ? 2 * fn_id_size : 1024;
      fn_id = VG_(realloc)("cl.folded.ids", fn_id, fn_id_size * sizeof(UInt));
      fn_id_file = VG_(realloc)("cl.folded.idfile", fn_id_file,
                                fn_id_size * sizeof(UInt));
      VG_(memset)(fn_id_file + old, 0, (fn_id_size - old) * sizeof(UInt));
   }
   if (fn_id_file[fn->number] != file_generation) {
      fn_id_file[fn->number] = file_generation;
      fn_id[fn->number] = next_fn_id++;
      out_str("fn:");
      out_num(fn_id[fn->number]);
      out_put(" ", 1);
      out_name(fn->name);
      out_put("\n", 1);
   }
   return fn_id[fn->number];
}

/* "DEPTH ID COSTS", trailing zero costs left out */
static void write_node(UInt depth, UInt id, folded_node* n, ULong* totals)
{
   Int k, last = CLG_(folded_count) - 1;

   while (last >= 0 && n->cost[last] == 0) last--;
   out_digits(depth);
   out_num(id);
   for (k = 0; k <= last; k++) {
      out_num(n->cost[k]);
      totals[k] += n->cost[k];
   }
   out_put("\n", 1);
}

/* The live nodes of <root>'s tree, depth first, with an explicit stack
 * (recursions make deep trees). */
static void write_tree(folded_node* root, ULong* totals)
{
   UInt *cursor, size = 256, sp = 0;

   if (has_cost(root))
      write_node(1, id_of(0), root, totals);
   cursor = VG_(malloc)("cl.folded.cursor", size * sizeof(UInt));
   cursor[0] = first_child[root->index];
   while (1) {
      UInt c = cursor[sp], id;
      folded_node* n;
      if (!c) {
         if (sp == 0) break;
         sp--;
         continue;
      }
      n = nodes[c - 1];
      cursor[sp] = next_sibling[c - 1];
      id = id_of(n->fn);
      write_node(sp + 1, id, n, totals);
      if (first_child[c - 1]) {
         if (++sp == size) {
            size *= 2;
            cursor = VG_(realloc)("cl.folded.cursor", cursor, size * sizeof(UInt));
         }
         cursor[sp] = first_child[c - 1];
      }
   }
   VG_(free)(cursor);
}

/* Returns the part's total of the first kept event. */
static ULong write_tree_part(folded_node* root, Bool first_in_file, Int part,
                             Int tid, const HChar* trigger, const HChar* cmd)
{
   ULong totals[FOLDED_MAX_EVENTS];
   Int k;

   if (first_in_file) {
      file_generation++;
      next_fn_id = 2;   /* 1 is "(unknown)" */
      unknown_defined = False;
      out_str("# callgrind folded tree\nversion: 1\n"
              "creator: callgrind-" VERSION "\npid:");
      out_num(VG_(getpid)());
      out_str("\ncmd: ");
      out_name(cmd);
      /* long names telling units, as callgrind.out has them */
      switch (CLG_(clo).collect_systime) {
      case systime_msec: out_str("\nevent: sysTime : sysTime (elapsed ms)"); break;
      case systime_usec: out_str("\nevent: sysTime : sysTime (elapsed us)"); break;
      case systime_nsec:
         out_str("\nevent: sysTime : sysTime (elapsed ns)"
                 "\nevent: sysCpuTime : sysCpuTime (system cpu ns)");
         break;
      default: break;
      }
      out_str("\nevents: ");
      out_str(kept_names);
      out_put("\n", 1);
   }
   out_str("\npart:");
   out_num(part);
   out_put("\n", 1);
   /* children spawned, queued descriptions, thread, trigger:
    * callgrind.out's order */
   for (k = 0; k < CLG_(spawned_count)(); k++) {
      out_str("desc: Spawned pid:");
      out_num(CLG_(spawned)(k));
      out_put("\n", 1);
   }
   for (k = 0; k < CLG_(desc_count)(); k++) {
      out_str("desc: ");
      out_name(CLG_(desc)(k));
      out_put("\n", 1);
   }
   if (CLG_(clo).separate_threads) {
      const HChar* name = CLG_(thread_name)(tid);
      out_str("thread:");
      out_num(CLG_(thread_lwpid)(tid));
      out_put("\n", 1);
      if (name && name[0]) {
         out_str("desc: Thread name: ");
         out_name(name);
         out_put("\n", 1);
      }
   }
   out_str("desc: Trigger: ");
   out_name(trigger ? trigger : "Program termination");
   out_put("\n", 1);

   VG_(memset)(totals, 0, sizeof(totals));
   write_tree(root, totals);
   out_str("totals:");
   for (k = 0; k < CLG_(folded_count); k++) out_num(totals[k]);
   out_put("\n", 1);
   return totals[0];
}

/*--- Folded stacks text (--dump-folded=text) ---*/

/* Lines are written sorted in byte order without building them all: the
 * lines below a node share its path as prefix, so it is enough to sort,
 * at each node, its children's own lines (key "name count") and subtrees
 * (key "name;"), and to walk the tree with an explicit stack.  Memory
 * grows with the number of paths, not with the size of the output. */

typedef struct {
   folded_node* node;
   HChar*       key;
   Bool         subtree;
} folded_item;

typedef struct {
   folded_item* items;
   UInt         n, next;
   SizeT        prefix_len;   /* path length before this node's children */
} folded_level;

/* the path of the lines being written */
static HChar* path_buf = 0;
static SizeT path_size = 0;

static void path_reserve(SizeT n)
{
   if (n <= path_size) return;
   while (path_size < n) path_size = path_size ? 2 * path_size : 4096;
   path_buf = VG_(realloc)("cl.folded.path", path_buf, path_size);
}

/* the name as a frame: ';' would split it, a newline the line */
static HChar* frame_key(const HChar* name, const HChar* suffix)
{
   SizeT l = VG_(strlen)(name), i;
   HChar* k = VG_(malloc)("cl.folded.key", l + VG_(strlen)(suffix) + 1);
   for (i = 0; i < l; i++)
      k[i] = (name[i] == ';') ? ':' : (name[i] == '\n') ? ' ' : name[i];
   VG_(strcpy)(k + l, suffix);
   return k;
}

static HChar* own_key(folded_node* n)
{
   HChar count[32];
   VG_(sprintf)(count, " %llu", n->cost[0]);
   /* costs left at a root (no frame known) are not dropped */
   return frame_key(n->fn ? n->fn->name : "(unknown)", count);
}

static Int cmp_items(const void* a, const void* b)
{
   return VG_(strcmp)(((const folded_item*)a)->key, ((const folded_item*)b)->key);
}

/* The sorted items of <n>'s children (and of n itself if it is a root). */
static folded_item* items_of(folded_node* n, UInt* count)
{
   UInt k = 0, size = (n->fn == 0 && n->cost[0]) ? 1 : 0, c;
   folded_item* items;

   for (c = first_child[n->index]; c; c = next_sibling[c - 1])
      size += (nodes[c - 1]->cost[0] != 0) + (first_child[c - 1] != 0);
   items = VG_(malloc)("cl.folded.items", (size ? size : 1) * sizeof(folded_item));
   if (n->fn == 0 && n->cost[0])
      items[k++] = (folded_item){ n, own_key(n), False };
   for (c = first_child[n->index]; c; c = next_sibling[c - 1]) {
      folded_node* child = nodes[c - 1];
      if (child->cost[0])
         items[k++] = (folded_item){ child, own_key(child), False };
      if (first_child[c - 1])
         items[k++] = (folded_item){ child, frame_key(child->fn->name, ";"), True };
   }
   VG_(ssort)(items, k, sizeof(folded_item), cmp_items);
   *count = k;
   return items;
}

static ULong write_text(folded_node* root)
{
   Int i, depth = 0, levels_size = 64;
   folded_level* levels;
   ULong sum = 0;

   levels = VG_(malloc)("cl.folded.levels", levels_size * sizeof(folded_level));
   path_reserve(1);
   path_buf[0] = 0;
   levels[0].items = items_of(root, &levels[0].n);
   levels[0].next = 0;
   levels[0].prefix_len = 0;
   while (depth >= 0) {
      folded_level* l = &levels[depth];
      folded_item* it;

      if (l->next == l->n) {
         for (i = 0; i < (Int)l->n; i++) VG_(free)(l->items[i].key);
         VG_(free)(l->items);
         depth--;
         if (depth >= 0) path_buf[levels[depth].prefix_len] = 0;
         continue;
      }
      it = &l->items[l->next++];
      path_buf[l->prefix_len] = 0;
      if (!it->subtree) {
         out_put(path_buf, l->prefix_len);
         out_put(it->key, VG_(strlen)(it->key));
         out_put("\n", 1);
         sum += it->node->cost[0];
         continue;
      }
      /* descend: the path grows by "name;" */
      {
         SizeT len = l->prefix_len + VG_(strlen)(it->key);
         path_reserve(len + 1);
         VG_(strcpy)(path_buf + l->prefix_len, it->key);
         if (depth + 1 == levels_size) {
            levels_size *= 2;
            levels = VG_(realloc)("cl.folded.levels", levels,
                                  levels_size * sizeof(folded_level));
         }
         depth++;
         levels[depth].items = items_of(it->node, &levels[depth].n);
         levels[depth].next = 0;
         levels[depth].prefix_len = len;
      }
   }
   VG_(free)(levels);
   return sum;
}

/* Write the costs of the current thread's tree (the shared one unless
 * --separate-threads=yes) since the last dump to <filename>, as part
 * <part> of thread <tid>: a new file if <first_in_file>, else appended.
 * Returns the sum of the first kept event. */
ULong CLG_(folded_write)(const HChar* filename, Bool first_in_file,
                         Int part, Int tid, const HChar* trigger,
                         const HChar* cmd)
{
   UInt tree = current_tree();
   folded_node* root = tree_root(tree);
   ULong sum;
   SysRes res = VG_(open)(filename,
                          VKI_O_CREAT|VKI_O_WRONLY|
                          (first_in_file ? VKI_O_TRUNC : VKI_O_APPEND),
                          VKI_S_IRUSR|VKI_S_IWUSR);

   if (sr_isError(res)) {
      VG_(message)(Vg_UserMsg, "Error: can not write folded stacks to %s\n",
                   filename);
      return 0;
   }
   out_fd = sr_Res(res);
   if (!out_buf) out_buf = VG_(malloc)("cl.folded.out", OUT_BUF_SIZE);

   own_costs(tree);
   link_tree(tree);
   if (CLG_(clo).dump_folded == folded_text)
      sum = write_text(root);
   else
      sum = write_tree_part(root, first_in_file, part, tid, trigger, cmd);
   out_flush();
   VG_(close)(out_fd);
   out_fd = -1;

   if (VG_(clo_verbosity) > 1)
      VG_(message)(Vg_DebugMsg, "Folded: %u paths, %llu of %llu calls "
                   "looked up out of line\n", nodes_used, slow_enters,
                   CLG_(stat).call_counter);
   return sum;
}

/* Resolve --folded-event after the event sets are known: every event of
 * the dump (default), or those named, in the dump's order; for folded
 * text, the first named. */
void CLG_(folded_init)(void)
{
   HChar *all, *w, *save;
   const HChar* list = CLG_(clo).folded_event;
   Int i, n = 0;

   if (!CLG_(clo).dump_folded) return;
   if (list && VG_(strcmp)(list, "all") == 0) list = 0;

   /* the dump map's names, one per entry */
   all = CLG_(eventmapping_as_string)(CLG_(dumpmap));
   kept_names = VG_(malloc)("cl.folded.kept", VG_(strlen)(all) + 1);
   kept_names[0] = 0;

   if (list) {
      HChar* copy = VG_(strdup)("cl.folded.list", list);
      Bool wanted[FOLDED_MAX_EVENTS * 4];
      VG_(memset)(wanted, 0, sizeof(wanted));
      for (w = VG_(strtok_r)(copy, ",", &save); w;
           w = VG_(strtok_r)(0, ",", &save)) {
         Int off = CLG_(eventmapping_offset)(CLG_(dumpmap), w);
         if (off < 0) {
            if (VG_(strcmp)(w, list) == 0)
               VG_(fmsg)("--folded-event=%s: not a collected event; "
                         "the events collected are: %s\n", list, all);
            else
               VG_(fmsg)("--folded-event=%s: %s is not a collected event; "
                         "the events collected are: %s\n", list, w, all);
            VG_(exit)(1);
         }
         for (i = 0; i < CLG_(dumpmap)->size; i++)
            if (CLG_(dumpmap)->entry[i].offset == off) wanted[i] = True;
         if (CLG_(clo).dump_folded == folded_text) {
            /* text carries one event: the first named */
            VG_(memset)(wanted, 0, sizeof(wanted));
            for (i = 0; i < CLG_(dumpmap)->size; i++)
               if (CLG_(dumpmap)->entry[i].offset == off) wanted[i] = True;
            break;
         }
      }
      for (i = 0, w = VG_(strtok_r)(all, " ", &save); w && i < CLG_(dumpmap)->size;
           i++, w = VG_(strtok_r)(0, " ", &save)) {
         if (!wanted[i]) continue;
         CLG_(folded_offset)[n++] = CLG_(dumpmap)->entry[i].offset;
         if (kept_names[0]) VG_(strcat)(kept_names, " ");
         VG_(strcat)(kept_names, w);
      }
      VG_(free)(copy);
   } else {
      for (i = 0, w = VG_(strtok_r)(all, " ", &save); w && i < CLG_(dumpmap)->size;
           i++, w = VG_(strtok_r)(0, " ", &save)) {
         if (CLG_(clo).dump_folded == folded_text && n == 1) break;
         if (n == FOLDED_MAX_EVENTS) {
            VG_(fmsg)("--dump-folded: more than %d events collected; "
                      "pick some with --folded-event\n", FOLDED_MAX_EVENTS);
            VG_(exit)(1);
         }
         CLG_(folded_offset)[n++] = CLG_(dumpmap)->entry[i].offset;
         if (kept_names[0]) VG_(strcat)(kept_names, " ");
         VG_(strcat)(kept_names, w);
      }
   }
   VG_(free)(all);
   CLG_(folded_count) = n;
   CLG_(folded_hooks) = n > 1 ? 2 : 1;
   node_size = sizeof(folded_node) + n * sizeof(ULong);
   node_size = (node_size + 7) & ~(SizeT)7;
}

/*--------------------------------------------------------------------*/
/*--- end                                                 folded.c ---*/
/*--------------------------------------------------------------------*/
