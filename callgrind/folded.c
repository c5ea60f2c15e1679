/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                     folded.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   --dump-folded: exact call paths, written as folded stacks next to
   each callgrind.out file.

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
 * and its exec state points at the node of the current path.  Whenever
 * the current path changes (a call, a return, a signal handler, a start
 * of instrumentation), the growth of the thread's running cost of the
 * folded event since the last change is added to the node being left.
 * That is O(1) per call and return, and charges every cost to the path
 * that was current when it happened.
 *
 * Skipped functions push no path, so their costs stay with their caller,
 * as in callgrind.out; recursion makes repeated frames. */

#include "global.h"

#include "pub_tool_libcfile.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"


/* folded event: offset in the full cost array */
Int CLG_(folded_offset) = -1;

/* recent calls: see CLG_(folded_call) */
folded_hop CLG_(folded_hops)[FOLDED_HOPS];

/* all nodes, for dumping; a node's index is stable */
static folded_node** nodes = 0;
static UInt nodes_used = 0, nodes_size = 0;
static Bool limit_warned = False;

/* (parent, fn) -> node, for every node */
static folded_node** table = 0;
static UInt table_size = 0;

static folded_node** roots = 0; /* per thread id */

/* Functions are frames by name: distinct functions with the same name (a
 * static function in two objects) are the same frame, as in a folded
 * file.  canon[fn->number] is the first function seen with fn's name. */
static fn_node** canon = 0;
static UInt canon_size = 0;
static fn_node** by_name = 0;   /* open hash of the canonical functions */
static UInt by_name_size = 0, by_name_used = 0;

static UInt name_hash(const HChar* s)
{
   UInt h = 2166136261u;
   while (*s) h = (h ^ (UChar)*s++) * 16777619u;
   return h;
}

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
         for (i = name_hash(old[j]->name) & (by_name_size - 1); by_name[i];
              i = (i + 1) & (by_name_size - 1)) ;
         by_name[i] = old[j];
      }
      if (old) VG_(free)(old);
   }
   for (i = name_hash(fn->name) & (by_name_size - 1); by_name[i];
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

/* Bucket of (parent, fn) in a hash table of <size> (a power of 2). */
static UInt hash(folded_node* parent, fn_node* fn, UInt size)
{
   /* heap addresses: mix all bits, fold the high half down */
   ULong h = ((ULong)(UWord)parent ^ ((ULong)(UWord)fn << 21)) * 0x9E3779B97F4A7C15ULL;
   return (UInt)(h >> 32) & (size - 1);
}

/* The node of (parent, fn) in a hash chain, or 0. */
static folded_node* find_in_chain(folded_node* n, folded_node* parent, fn_node* fn)
{
   while (n && (n->parent != parent || n->fn != fn)) n = n->hash_next;
   return n;
}

static folded_node* new_node(folded_node* parent, fn_node* fn)
{
   folded_node* n = VG_(malloc)("cl.folded.node", sizeof(folded_node));
   n->fn = fn;
   n->parent = parent;
   n->root = parent ? parent->root : n;
   n->last_child = 0;
   n->count = 0;
   if (nodes_used == nodes_size) {
      nodes_size = nodes_size ? 2 * nodes_size : 4096;
      nodes = VG_(realloc)("cl.folded.nodes", nodes,
                           nodes_size * sizeof(folded_node*));
   }
   nodes[nodes_used++] = n;
   return n;
}

static void grow_table(void)
{
   UInt i, old_size = table_size;
   folded_node** old = table;

   table_size = old_size ? 2 * old_size : 8192;
   table = VG_(calloc)("cl.folded.table", table_size, sizeof(folded_node*));
   for (i = 0; i < old_size; i++) {
      folded_node* n = old[i];
      while (n) {
         folded_node* next = n->hash_next;
         UInt h = hash(n->parent, n->fn, table_size);
         n->hash_next = table[h];
         table[h] = n;
         n = next;
      }
   }
   if (old) VG_(free)(old);
}

/* The root of the current thread's paths; all threads share one unless
 * their dumps are separate, so that equal paths make one line. */
static folded_node* thread_root(void)
{
   ThreadId tid = CLG_(clo).separate_threads ? CLG_(current_tid) : 1;
   if (!roots)
      roots = VG_(calloc)("cl.folded.roots", VG_N_THREADS, sizeof(folded_node*));
   if (!roots[tid])
      roots[tid] = new_node(0, 0);
   return roots[tid];
}

/* The node of the current path; 0 in an exec state means the root. */
static folded_node* current_node(void)
{
   return CLG_(current_state).fnode ? CLG_(current_state).fnode : thread_root();
}

/* Charge the cost since the last path change to the current path. */
void CLG_(folded_flush)(void)
{
   ULong now;

   if (!CLG_(clo).dump_folded) return;
   now = CLG_(current_state).cost[CLG_(folded_offset)];
   if (now != CLG_(current_state).fmark) {
      current_node()->count += now - CLG_(current_state).fmark;
      CLG_(current_state).fmark = now;
   }
}

/* Make <n> the current path (0: the root). */
void CLG_(folded_set)(folded_node* n)
{
   CLG_(folded_flush)();
   CLG_(current_state).fnode = n;
}

/* A call of <fn> from the current path. */
void CLG_(folded_enter)(fn_node* fn)
{
   folded_node *parent, *n;
   UInt h;

   CLG_(folded_flush)();
   fn = canonical(fn);
   parent = current_node();
   n = parent->last_child;
   if (!n || n->fn != fn) {
      /* Calls made before on this path mostly found their path in
       * CLG_(folded_hops) (global.h) already: this is for the others. */
      n = table ? find_in_chain(table[hash(parent, fn, table_size)], parent, fn) : 0;
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
            return;
         }
         if (!table) grow_table();
         n = new_node(parent, fn);
         h = hash(parent, fn, table_size);
         n->hash_next = table[h];
         table[h] = n;
         if (nodes_used > 2 * table_size) grow_table();
      }
      parent->last_child = n;
   }
   CLG_(current_state).fnode = n;
}

/* The running cost of the current exec state was zeroed. */
void CLG_(folded_cost_zeroed)(void)
{
   CLG_(current_state).fmark = 0;
}

/* Forget the costs of the current thread's tree (all threads' unless
 * --separate-threads=yes), as dumps and CALLGRIND_ZERO_STATS do for
 * callgrind.out. */
void CLG_(folded_zero)(void)
{
   UInt i;
   folded_node* root;

   if (!CLG_(clo).dump_folded) return;
   CLG_(folded_flush)();
   root = thread_root();
   for (i = 0; i < nodes_used; i++)
      if (nodes[i]->root == root)
         nodes[i]->count = 0;
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

/* Lines are written sorted in byte order without building them all: the
 * lines below a node share its path as prefix, so it is enough to sort,
 * at each node, its children's own lines (key "name count") and subtrees
 * (key "name;"), and to walk the tree with an explicit stack (recursions
 * make deep trees).  Memory grows with the number of paths, not with the
 * size of the output, which deep recursions make large. */

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

/* Buffered output: deep recursions make long lines and large files, so
 * lines are copied into a buffer written in big chunks. */
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
   VG_(sprintf)(count, " %llu", n->count);
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
   UInt k = 0, size = (n->fn == 0 && n->count) ? 1 : 0;
   folded_node* c;
   folded_item* items;

   for (c = n->first_child; c; c = c->next_sibling)
      size += (c->count != 0) + (c->first_child != 0);
   items = VG_(malloc)("cl.folded.items", (size ? size : 1) * sizeof(folded_item));
   if (n->fn == 0 && n->count)
      items[k++] = (folded_item){ n, own_key(n), False };
   for (c = n->first_child; c; c = c->next_sibling) {
      if (c->count)
         items[k++] = (folded_item){ c, own_key(c), False };
      if (c->first_child)
         items[k++] = (folded_item){ c, frame_key(c->fn->name, ";"), True };
   }
   VG_(ssort)(items, k, sizeof(folded_item), cmp_items);
   *count = k;
   return items;
}

/* Link the nodes of <list> below <root> with a cost, and their ancestors,
 * as children lists.  A node comes after its parent in the list: walking
 * backwards sees it before the parent. */
static void link_children(folded_node** list, UInt count, folded_node* root)
{
   Int i;

   for (i = 0; i < (Int)count; i++)
      list[i]->first_child = list[i]->next_sibling = 0;
   for (i = (Int)count - 1; i >= 0; i--) {
      folded_node* n = list[i];
      if (n->root != root || !n->parent) continue;
      if (n->count || n->first_child) {
         n->next_sibling = n->parent->first_child;
         n->parent->first_child = n;
      }
   }
}

/* With --combine-dumps=yes there is one profile data file for all
 * threads, so one folded file: with --separate-threads=yes, the trees of
 * all threads are merged into a temporary one, equal paths summed. */
static folded_node** merged = 0;
static UInt merged_used = 0;

static folded_node* merge_threads(void)
{
   UInt i, size = 64;
   folded_node **mtable, *mroot;

   while (size < 2 * nodes_used) size *= 2;
   mtable = VG_(calloc)("cl.folded.mtable", size, sizeof(folded_node*));
   merged = VG_(malloc)("cl.folded.merged", (nodes_used + 1) * sizeof(folded_node*));
   mroot = VG_(calloc)("cl.folded.mnode", 1, sizeof(folded_node));
   mroot->root = mroot;
   merged[0] = mroot;
   merged_used = 1;
   /* nodes are created after their parents: a parent's image is known */
   for (i = 0; i < nodes_used; i++) {
      folded_node *n = nodes[i], *mp, *m;
      UInt h;
      if (!n->parent) {
         n->image = mroot;
         mroot->count += n->count;
         continue;
      }
      mp = n->parent->image;
      h = hash(mp, n->fn, size);
      m = find_in_chain(mtable[h], mp, n->fn);
      if (!m) {
         m = VG_(calloc)("cl.folded.mnode", 1, sizeof(folded_node));
         m->fn = n->fn;
         m->parent = mp;
         m->root = mroot;
         m->hash_next = mtable[h];
         mtable[h] = m;
         merged[merged_used++] = m;
      }
      m->count += n->count;
      n->image = m;
   }
   VG_(free)(mtable);
   link_children(merged, merged_used, mroot);
   return mroot;
}

static void free_merged(void)
{
   UInt i;
   for (i = 0; i < merged_used; i++) VG_(free)(merged[i]);
   VG_(free)(merged);
   merged = 0;
   merged_used = 0;
}

/* Write the paths with a count to <filename>: those of the current
 * thread's tree with --separate-threads=yes (the trees of all threads
 * with --combine-dumps=yes), else of the tree all threads share.
 * Returns their sum. */
ULong CLG_(folded_write)(const HChar* filename)
{
   Int i, depth = 0, levels_size = 64;
   Bool all_threads = CLG_(clo).separate_threads && CLG_(clo).combine_dumps;
   folded_node* root;
   folded_level* levels;
   ULong sum = 0;
   SysRes res = VG_(open)(filename, VKI_O_CREAT|VKI_O_WRONLY|VKI_O_TRUNC,
                          VKI_S_IRUSR|VKI_S_IWUSR);

   if (sr_isError(res)) {
      VG_(message)(Vg_UserMsg, "Error: can not write folded stacks to %s\n",
                   filename);
      return 0;
   }
   out_fd = sr_Res(res);
   if (!out_buf) out_buf = VG_(malloc)("cl.folded.out", OUT_BUF_SIZE);

   if (all_threads)
      root = merge_threads();
   else {
      root = thread_root();
      link_children(nodes, nodes_used, root);
   }

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
         sum += it->node->count;
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
   if (all_threads) free_merged();
   out_flush();
   VG_(close)(out_fd);
   out_fd = -1;
   return sum;
}

/* Resolve --folded-event after the event sets are known. */
void CLG_(folded_init)(void)
{
   if (!CLG_(clo).dump_folded) return;

   if (CLG_(clo).folded_event == 0) {
      CLG_(folded_offset) = CLG_(dumpmap)->entry[0].offset;
      return;
   }
   CLG_(folded_offset) = CLG_(eventmapping_offset)(CLG_(dumpmap),
                                            CLG_(clo).folded_event);
   if (CLG_(folded_offset) < 0) {
      HChar* names = CLG_(eventmapping_as_string)(CLG_(dumpmap));
      VG_(fmsg)("--folded-event=%s: not a collected event; "
                "the events collected are: %s\n",
                CLG_(clo).folded_event, names);
      VG_(exit)(1);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                                 folded.c ---*/
/*--------------------------------------------------------------------*/
