/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                    perfmap.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   Names of JIT code from the process's perf map.

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

/* JITs (V8's --perf-basic-prof, CPython's perf trampolines, CodSpeed's
 * Node integration) name the code they generate in a text file,
 * /tmp/perf-<pid>.map, one entry per line: "START SIZE NAME", START and
 * SIZE in hex without 0x, appended as code is generated.  Callgrind names
 * code without an ELF symbol by the address of its block, so a JIT
 * function would be many frames; with the map, every block inside an
 * entry belongs to one function named by it, in an object named by the
 * map's path (so --obj-skip can hide all JIT code).
 *
 * The map is read only when code in anonymous memory is first run and
 * its address is not in an entry known yet, and then only what was
 * appended since the last read.  Entries are kept disjoint in an ordered
 * map: a later entry overlapping earlier ones replaces them (JITs reuse
 * addresses).  A name is taken when a block is first seen; after code
 * in anonymous memory was discarded (replaced), the map is read for
 * appended entries before the next name is taken. */

#include "global.h"

#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_wordfm.h"

typedef struct {
   Addr   start;
   SizeT  size;
   HChar  name[0];
} map_entry;

/* Entries, with their names, are carved from big blocks: a map can have
 * a million lines, and one allocation each would double the memory they
 * take.  An entry replaced by a later one is not reused. */
#define ENTRY_BLOCK (1 << 20)
static UChar* entry_block = 0;
static SizeT entry_block_left = 0;

static map_entry* new_entry(Addr start, SizeT size, const HChar* name)
{
   SizeT len = VG_(strlen)(name);
   SizeT need = (sizeof(map_entry) + len + 1 + 7) & ~(SizeT)7;
   map_entry* e;

   if (need > entry_block_left) {
      SizeT block = need > ENTRY_BLOCK ? need : ENTRY_BLOCK;
      entry_block = VG_(malloc)("cl.perfmap.entries", block);
      entry_block_left = block;
   }
   e = (map_entry*)entry_block;
   entry_block += need;
   entry_block_left -= need;
   e->start = start;
   e->size = size;
   VG_(memcpy)(e->name, name, len + 1);
   return e;
}

/* the longest line read; a longer one is skipped */
#define MAX_LINE (1 << 20)

static WordFM* entries = 0;      /* start -> map_entry* */
static HChar*  path = 0;         /* of the map being read */
static Int     path_pid = 0;     /* the process it is the map of */
static Int     fd = -1;
static ULong   ino = 0;
static Off64T  offset = 0;       /* read up to here */
static Bool    ignored = False;  /* not ours: warned, never read */
static Bool    warned_malformed = False;
static Bool    code_replaced = False; /* the map may name it anew */
static ULong   line_no = 0;
static obj_node* map_obj = 0;

/* every object standing for a map (a fork child reads a map of its own) */
static obj_node** map_objs = 0;
static Int map_objs_used = 0, map_objs_size = 0;

/* the last bytes read: if they change, the map was rewritten in place */
#define TAIL 64
static HChar   tail[TAIL];
static Int     tail_len = 0;

/* the unfinished last line read */
static HChar*  pending = 0;
static SizeT   pending_len = 0, pending_size = 0;
static Bool    skipping_long_line = False;

/* Read the map again from its start (its entries are kept: later ones
 * replace them). */
static void close_map_offset(void)
{
   offset = 0;
   tail_len = 0;
   pending_len = 0;
   skipping_long_line = False;
   line_no = 0;
}

static void remember_tail(const HChar* buf, Int n)
{
   if (n >= TAIL) {
      VG_(memcpy)(tail, buf + n - TAIL, TAIL);
      tail_len = TAIL;
   } else {
      Int keep = tail_len + n > TAIL ? TAIL - n : tail_len;
      VG_(memmove)(tail, tail + tail_len - keep, keep);
      VG_(memcpy)(tail + keep, buf, n);
      tail_len = keep + n;
   }
}

static Word cmp_addr(UWord a, UWord b)
{
   return a < b ? -1 : a > b ? 1 : 0;
}

/* The map file for the current process: --perf-map=yes is
 * /tmp/perf-<pid>.map, a directory holds perf-<pid>.map, anything else
 * is a file name (%p, %q{VAR} expanded). */
static HChar* map_path(void)
{
   const HChar* opt = CLG_(clo).perf_map;
   struct vg_stat st;

   if (VG_(strcmp)(opt, "yes") == 0)
      return VG_(expand_file_name)("--perf-map", "/tmp/perf-%p.map");
   if (!sr_isError(VG_(stat)(opt, &st)) && VKI_S_ISDIR(st.mode)) {
      HChar tmpl[VG_(strlen)(opt) + 16];
      VG_(sprintf)(tmpl, "%s/perf-%%p.map", opt);
      return VG_(expand_file_name)("--perf-map", tmpl);
   }
   return VG_(expand_file_name)("--perf-map", opt);
}

static void close_map(void)
{
   if (fd >= 0) VG_(close)(fd);
   fd = -1;
   close_map_offset();
}

/* The entry starting at <a>, else the last one starting before it. */
static map_entry* entry_from(Addr a)
{
   UWord k, v;

   if (VG_(lookupFM)(entries, &k, &v, a)) return (map_entry*)v;
   if (VG_(findBoundsFM)(entries, &k, &v, 0, 0, 0, 0, 0, ~(UWord)0, a))
      return (map_entry*)v;   /* 0 when there is none */
   return 0;
}

/* Remove the entries overlapping [start, end), but for the part of one
 * starting before <start>, which is cut short. */
static void make_room(Addr start, Addr end)
{
   UWord k, v;
   map_entry* before = entry_from(start);

   if (before && before->start < start && before->start + before->size > start)
      before->size = start - before->start;
   while (1) {
      map_entry* e;
      if (!VG_(lookupFM)(entries, &k, &v, start)) {
         if (!VG_(findBoundsFM)(entries, 0, 0, &k, &v, 0, 0, ~(UWord)0, 0,
                                start) || v == 0)
            return;
      }
      e = (map_entry*)v;
      if (e->start >= end) return;
      VG_(delFromFM)(entries, 0, 0, e->start);
   }
}

static Bool parse_hex(const HChar** s, ULong* v)
{
   const HChar* p = *s;
   ULong x = 0;
   Int digits = 0;

   if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
   for (;; p++, digits++) {
      Int d;
      if (*p >= '0' && *p <= '9') d = *p - '0';
      else if (*p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
      else if (*p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
      else break;
      if (digits == 16) return False;   /* more than 64 bits */
      x = x * 16 + d;
   }
   if (digits == 0) return False;
   *s = p;
   *v = x;
   return True;
}

static void malformed(const HChar* why)
{
   if (warned_malformed) return;
   warned_malformed = True;
   VG_(message)(Vg_UserMsg, "Warning: %s:%llu: %s; skipped (later "
                "malformed lines of the perf map are skipped silently)\n",
                path, line_no, why);
}

/* One line of the map, without its newline. */
static void add_line(HChar* line, SizeT len)
{
   const HChar* p = line;
   ULong start, size;
   map_entry* e;

   line_no++;
   if (len > 0 && line[len - 1] == '\r') line[--len] = 0;
   if (len == 0) return;
   if (!parse_hex(&p, &start) || *p != ' ' || (p++, !parse_hex(&p, &size)) ||
       *p != ' ' || p[1] == 0) {
      malformed("not \"START SIZE NAME\"");
      return;
   }
   p++;
   if (size == 0 || start + size < start) return;   /* names no code */
   make_room(start, start + size);
   e = new_entry(start, size, p);
   VG_(addToFM)(entries, start, (UWord)e);
}

/* Lines in <buf>, the continuation of what was read before. */
static void add_text(HChar* buf, SizeT n)
{
   SizeT i = 0;

   while (i < n) {
      SizeT end = i;
      Bool nl;
      SizeT len;

      while (end < n && buf[end] != '\n') end++;
      nl = end < n;
      len = end - i;

      if (skipping_long_line) {
         if (nl) skipping_long_line = False;
      } else if (pending_len + len > MAX_LINE) {
         line_no++;
         malformed("line longer than 1 MB");
         pending_len = 0;
         skipping_long_line = !nl;
      } else {
         if (pending_len + len + 1 > pending_size) {
            while (pending_len + len + 1 > pending_size)
               pending_size = pending_size ? 2 * pending_size : 256;
            pending = VG_(realloc)("cl.perfmap.line", pending, pending_size);
         }
         VG_(memcpy)(pending + pending_len, buf + i, len);
         pending_len += len;
         pending[pending_len] = 0;
         if (nl) {
            add_line(pending, pending_len);
            pending_len = 0;
         }
      }
      i = end + (nl ? 1 : 0);
   }
}

/* Read what was appended to the map since the last call. */
static void read_map(void)
{
   struct vg_stat st;
   HChar buf[65536];

   if (!entries)
      entries = VG_(newFM)(VG_(malloc), "cl.perfmap.fm", VG_(free), cmp_addr);
   if (path_pid != VG_(getpid)()) {
      /* (a fork child has a map of its own) */
      close_map();
      if (path) VG_(free)(path);
      path = map_path();
      path_pid = VG_(getpid)();
      ignored = False;
      map_obj = 0;
   }
   if (ignored) return;

   /* replaced by another file of that name: read it from the start */
   if (fd >= 0 && (sr_isError(VG_(stat)(path, &st)) || st.ino != ino))
      close_map();
   if (fd < 0) {
      SysRes r = VG_(open)(path, VKI_O_RDONLY | VKI_O_NONBLOCK, 0);
      if (sr_isError(r)) return;
      fd = sr_Res(r);
   }
   if (VG_(fstat)(fd, &st) != 0 || !VKI_S_ISREG(st.mode)) {
      VG_(message)(Vg_UserMsg, "Warning: perf map %s is not a regular "
                   "file; ignored\n", path);
      ignored = True;
      close_map();
      return;
   }
   /* a map in a shared directory can be planted by another user */
   if (st.uid != (UInt)VG_(geteuid)() && st.uid != 0) {
      VG_(message)(Vg_UserMsg, "Warning: perf map %s is owned by another "
                   "user (uid %u); ignored\n", path, st.uid);
      ignored = True;
      close_map();
      return;
   }
   ino = st.ino;
   /* truncated, or rewritten in place: read it again from the start */
   if (st.size < offset) close_map_offset();
   else if (tail_len > 0) {
      HChar now[TAIL];
      if (VG_(lseek)(fd, offset - tail_len, VKI_SEEK_SET) != offset - tail_len ||
          VG_(read)(fd, now, tail_len) != tail_len ||
          VG_(memcmp)(now, tail, tail_len) != 0)
         close_map_offset();
   }
   if (VG_(lseek)(fd, offset, VKI_SEEK_SET) != offset) return;
   while (1) {
      Int n = VG_(read)(fd, buf, sizeof(buf));
      if (n <= 0) break;
      offset += n;
      add_text(buf, n);
      remember_tail(buf, n);
   }
}

static map_entry* entry_at(Addr a)
{
   map_entry* e = entries ? entry_from(a) : 0;
   return e && a - e->start < e->size ? e : 0;
}

/* Is <obj> a perf map, i.e. are its functions JIT code? */
Bool CLG_(is_perfmap_obj)(obj_node* obj)
{
   Int i;
   for (i = 0; i < map_objs_used; i++)
      if (map_objs[i] == obj) return True;
   return False;
}

/* Translations of code in anonymous memory were discarded: when JIT code
 * is replaced at an address, the entry naming the new code is appended
 * to the map, and an entry known for the address would be out of date. */
void CLG_(perfmap_code_discarded)(void)
{
   code_replaced = True;
}

/* The perf map's name for code at <a> (which has no ELF symbol): the
 * name, the start of its entry and the object standing for the map; or
 * False if the map does not name it. */
Bool CLG_(perfmap_name)(Addr a, const HChar** name, Addr* start,
                        obj_node** obj)
{
   map_entry* e;

   if (VG_(strcmp)(CLG_(clo).perf_map, "no") == 0) return False;
   e = entry_at(a);
   if (!e || code_replaced || path_pid != VG_(getpid)()) {
      read_map();
      code_replaced = False;
      e = entry_at(a);
   }
   if (!e) return False;
   if (!map_obj) {
      map_obj = CLG_(get_named_obj_node)(path);
      if (map_objs_used == map_objs_size) {
         map_objs_size = map_objs_size ? 2 * map_objs_size : 4;
         map_objs = VG_(realloc)("cl.perfmap.objs", map_objs,
                                 map_objs_size * sizeof(obj_node*));
      }
      map_objs[map_objs_used++] = map_obj;
   }
   *name = e->name;
   *start = e->start;
   *obj = map_obj;
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                                perfmap.c ---*/
/*--------------------------------------------------------------------*/
