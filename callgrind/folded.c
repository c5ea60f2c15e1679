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

struct _folded_node {
   fn_node*     fn;         /* 0 for a root */
   folded_node* parent;
   folded_node* root;       /* root of the thread's tree */
   folded_node* hash_next;  /* chain in the (parent, fn) hash */
   folded_node* last_child; /* child entered last: checked first */
   ULong        count;      /* cost of the folded event on this path */
   UInt         depth;
};

/* folded event: offset in the full cost array */
static Int event_offset = -1;

/* all nodes, for dumping; a node's index is stable */
static folded_node** nodes = 0;
static UInt nodes_used = 0, nodes_size = 0;
static Bool limit_warned = False;

/* (parent, fn) -> node */
static folded_node** table = 0;
static UInt table_size = 0;

static folded_node** roots = 0; /* per thread id */

static UInt hash(folded_node* parent, fn_node* fn)
{
   UWord h = ((UWord)parent >> 4) * 31 + ((UWord)fn >> 4);
   return (UInt)(h ^ (h >> 17)) & (table_size - 1);
}

static folded_node* new_node(folded_node* parent, fn_node* fn)
{
   folded_node* n = VG_(malloc)("cl.folded.node", sizeof(folded_node));
   n->fn = fn;
   n->parent = parent;
   n->root = parent ? parent->root : n;
   n->last_child = 0;
   n->count = 0;
   n->depth = parent ? parent->depth + 1 : 0;
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
         UInt h = hash(n->parent, n->fn);
         n->hash_next = table[h];
         table[h] = n;
         n = next;
      }
   }
   if (old) VG_(free)(old);
}

static folded_node* thread_root(void)
{
   ThreadId tid = CLG_(current_tid);
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
   now = CLG_(current_state).cost[event_offset];
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
   parent = current_node();
   n = parent->last_child;
   if (!n || n->fn != fn) {
      if (!table) grow_table();
      h = hash(parent, fn);
      for (n = table[h]; n; n = n->hash_next)
         if (n->parent == parent && n->fn == fn) break;
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
         n = new_node(parent, fn);
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

/* Forget the costs of the current thread (or of all threads), as a dump
 * or CALLGRIND_ZERO_STATS does for callgrind.out. */
void CLG_(folded_zero)(Bool all_threads)
{
   UInt i;
   folded_node* root;

   if (!CLG_(clo).dump_folded) return;
   CLG_(folded_flush)();
   root = thread_root();
   for (i = 0; i < nodes_used; i++)
      if (all_threads || nodes[i]->root == root)
         nodes[i]->count = 0;
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

/* Path strings of the nodes being written, for sorting. */
typedef struct {
   HChar* text;
   ULong  count;
} folded_line;

static HChar* path_buf = 0;
static SizeT path_size = 0;

static void path_reserve(SizeT n)
{
   if (n <= path_size) return;
   while (path_size < n) path_size = path_size ? 2 * path_size : 4096;
   path_buf = VG_(realloc)("cl.folded.path", path_buf, path_size);
}

/* Write the path of <n> (root first, frames separated by ';') to
 * path_buf.  A ';' or newline in a name would split a frame or a line:
 * they become ':' and ' '.  Costs left at a root (no frame known) are
 * written as "(unknown)" rather than dropped. */
static void path_of(folded_node* n)
{
   SizeT len = 0, pos;
   folded_node* p;

   if (!n->fn) {
      path_reserve(sizeof "(unknown)");
      VG_(strcpy)(path_buf, "(unknown)");
      return;
   }
   for (p = n; p->fn; p = p->parent)
      len += VG_(strlen)(p->fn->name) + (p != n);  /* + separator */
   path_reserve(len + 1);
   pos = len;
   path_buf[pos] = 0;
   for (p = n; p->fn; p = p->parent) {
      SizeT l = VG_(strlen)(p->fn->name), i;
      pos -= l;
      for (i = 0; i < l; i++) {
         HChar c = p->fn->name[i];
         path_buf[pos + i] = (c == ';') ? ':' : (c == '\n') ? ' ' : c;
      }
      if (pos > 0) path_buf[--pos] = ';';
      else break;
   }
}

static Int cmp_lines(const void* a, const void* b)
{
   return VG_(strcmp)(((const folded_line*)a)->text,
                      ((const folded_line*)b)->text);
}

/* Write the paths with a count of the current thread (or of all threads,
 * summed) to <filename>, sorted.  Returns the sum written. */
ULong CLG_(folded_write)(const HChar* filename, Bool all_threads)
{
   UInt i, n = 0, out = 0;
   folded_line* lines;
   folded_node* root;
   ULong sum = 0;
   VgFile* fp;

   fp = VG_(fopen)(filename, VKI_O_CREAT|VKI_O_WRONLY|VKI_O_TRUNC,
                   VKI_S_IRUSR|VKI_S_IWUSR);
   if (!fp) {
      VG_(message)(Vg_UserMsg, "Error: can not write folded stacks to %s\n",
                   filename);
      return 0;
   }

   root = thread_root();
   for (i = 0; i < nodes_used; i++)
      if (nodes[i]->count && (all_threads || nodes[i]->root == root)) n++;
   lines = VG_(malloc)("cl.folded.lines", (n ? n : 1) * sizeof(folded_line));
   for (i = 0; i < nodes_used; i++) {
      folded_node* nd = nodes[i];
      if (!nd->count || !(all_threads || nd->root == root))
         continue;
      path_of(nd);
      lines[out].text = VG_(strdup)("cl.folded.text", path_buf);
      lines[out].count = nd->count;
      out++;
   }
   VG_(ssort)(lines, out, sizeof(folded_line), cmp_lines);

   /* the same path in several threads makes one line */
   for (i = 0; i < out; i++) {
      ULong count = lines[i].count;
      while (i + 1 < out && VG_(strcmp)(lines[i].text, lines[i+1].text) == 0) {
         VG_(free)(lines[i].text);
         count += lines[++i].count;
      }
      VG_(fprintf)(fp, "%s %llu\n", lines[i].text, count);
      VG_(free)(lines[i].text);
      sum += count;
   }
   VG_(free)(lines);
   VG_(fclose)(fp);
   return sum;
}

/* Resolve --folded-event after the event sets are known. */
void CLG_(folded_init)(void)
{
   if (!CLG_(clo).dump_folded) return;

   if (CLG_(clo).folded_event == 0) {
      event_offset = CLG_(dumpmap)->entry[0].offset;
      return;
   }
   event_offset = CLG_(eventmapping_offset)(CLG_(dumpmap),
                                            CLG_(clo).folded_event);
   if (event_offset < 0) {
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
