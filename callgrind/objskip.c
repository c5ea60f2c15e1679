/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                    objskip.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   --obj-skip: hide every function of shared objects whose path or file
   name matches a pattern, given on the command line or added at run time
   with the CALLGRIND_ADD_OBJ_SKIP client request.

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

#include "global.h"

#include "pub_tool_libcfile.h"
#include "pub_tool_seqmatch.h"

/* A pattern containing '/' is matched against the object's full path,
 * one without against the file name only. */
typedef struct {
   HChar* pattern;
   Bool   full_path;
   Bool   at_run_time;   /* added by CALLGRIND_ADD_OBJ_SKIP */
} obj_pattern;

static obj_pattern* patterns = 0;
static Int patterns_used = 0;
static Int patterns_size = 0;

/* Every pattern string given, as given: adding one again is a lookup in
 * this open hash (harnesses may add the same path for every benchmark). */
static HChar** given = 0;
static UInt given_size = 0, given_used = 0;

/* FNV-1a: the hash of names in callgrind-fold's open hashes (also
 * folded.c's functions by name) */
UInt CLG_(string_hash)(const HChar* s)
{
   UInt h = 2166136261u;
   while (*s) h = (h ^ (UChar)*s++) * 16777619u;
   return h;
}

/* Was <s> given before?  If not, remember it. */
static Bool seen_before(const HChar* s)
{
   UInt i;

   if (2 * (given_used + 1) > given_size) {
      HChar** old = given;
      UInt old_size = given_size, j;
      given_size = given_size ? 2 * given_size : 64;
      given = VG_(calloc)("cl.objskip.given", given_size, sizeof(HChar*));
      for (j = 0; j < old_size; j++) {
         if (!old[j]) continue;
         for (i = CLG_(string_hash)(old[j]) & (given_size - 1); given[i];
              i = (i + 1) & (given_size - 1)) ;
         given[i] = old[j];
      }
      if (old) VG_(free)(old);
   }
   for (i = CLG_(string_hash)(s) & (given_size - 1); given[i];
        i = (i + 1) & (given_size - 1))
      if (VG_(strcmp)(given[i], s) == 0) return True;
   given[i] = VG_(strdup)("cl.objskip.given", s);
   given_used++;
   return False;
}

static Bool has_wildcard(const HChar* s)
{
   return VG_(strchr)(s, '*') != 0 || VG_(strchr)(s, '?') != 0;
}

/* Resolve symlinks, "." and ".." in <path> (relative to the startup
 * directory) into <out> of size <size>, like realpath(3).  The tool may
 * not use libc, so this walks the components with VG_(readlink).
 * Returns False if the path does not resolve. */
static Bool canonical_path(const HChar* path, HChar* out, SizeT size)
{
   HChar* rest = VG_(malloc)("cl.objskip.cp.1", size);
   HChar* link = VG_(malloc)("cl.objskip.cp.2", size);
   Int links = 0;
   Bool ok = True;
   SizeT len;

   if (path[0] == '/')
      VG_(strncpy)(rest, path, size);
   else
      VG_(snprintf)(rest, size, "%s/%s", VG_(get_startup_wd)(), path);
   rest[size - 1] = 0;
   out[0] = 0;
   len = 0;

   HChar* p = rest;
   while (ok && *p) {
      while (*p == '/') p++;
      HChar* end = p;
      while (*end && *end != '/') end++;
      SizeT n = end - p;
      if (n == 0) break;
      if (n == 1 && p[0] == '.') { p = end; continue; }
      if (n == 2 && p[0] == '.' && p[1] == '.') {
         while (len > 0 && out[len - 1] != '/') len--;
         if (len > 0) len--;
         out[len] = 0;
         p = end;
         continue;
      }
      if (len + 1 + n + 1 > size) { ok = False; break; }
      out[len++] = '/';
      VG_(memcpy)(out + len, p, n);
      len += n;
      out[len] = 0;

      SSizeT l = VG_(readlink)(out, link, size - 1);
      if (l < 0) { p = end; continue; }       /* not a symlink */
      if (++links > 40 || l + VG_(strlen)(end) + 1 > size) { ok = False; break; }
      link[l] = 0;
      /* Splice the link target in front of what is left of the path. */
      VG_(memmove)(rest + l, end, VG_(strlen)(end) + 1);
      VG_(memcpy)(rest, link, l);
      p = rest;
      if (link[0] == '/') {
         len = 0;
      } else {
         while (len > 0 && out[len - 1] != '/') len--;
         if (len > 0) len--;
      }
      out[len] = 0;
   }
   if (ok && len == 0) VG_(strcpy)(out, "/");
   VG_(free)(rest);
   VG_(free)(link);
   return ok;
}

/* A pattern naming an existing file (no wildcards) is canonicalised, as
 * Valgrind records objects by the real path of the mapped file: a path
 * becomes the real path, a bare file name the real file's name. */
static HChar* canonical_pattern(const HChar* pattern)
{
   struct vg_stat st;
   const SizeT size = VKI_PATH_MAX;
   HChar* real;

   if (has_wildcard(pattern) || sr_isError(VG_(stat)(pattern, &st)))
      return VG_(strdup)("cl.objskip.cpat.1", pattern);

   real = VG_(malloc)("cl.objskip.cpat.2", size);
   if (!canonical_path(pattern, real, size)) {
      VG_(free)(real);
      return VG_(strdup)("cl.objskip.cpat.3", pattern);
   }
   if (VG_(strchr)(pattern, '/') == 0) {
      HChar* name = VG_(strrchr)(real, '/');
      HChar* copy = VG_(strdup)("cl.objskip.cpat.4", name ? name + 1 : real);
      VG_(free)(real);
      return copy;
   }
   return real;
}

static Bool pattern_matches(const obj_pattern* p, const obj_node* obj)
{
   const HChar* name = p->full_path ? obj->name
                                    : obj->name + obj->last_slash_pos;
   return VG_(string_match)(p->pattern, name);
}

/* Does <obj> match any pattern from the <first>?  Called once per object
 * with all patterns, when it is first seen, and for every object with
 * the new pattern when one is added at run time. */
Bool CLG_(obj_is_skipped)(obj_node* obj, Int first)
{
   Int i;
   Bool skipped = False;

   for (i = first; i < patterns_used; i++) {
      if (!pattern_matches(&patterns[i], obj)) continue;
      if (VG_(clo_verbosity) > 1)
         VG_(message)(Vg_DebugMsg, "obj-skip: pattern '%s' matches %s\n",
                      patterns[i].pattern, obj->name);
      skipped = True;
   }
   return skipped;
}

Int CLG_(obj_skip_count)(void)
{
   return patterns_used;
}

/* The patterns added at run time, for an exec'd child (harness.c). */
Int CLG_(runtime_obj_skip_count)(void)
{
   Int i, n = 0;
   for (i = 0; i < patterns_used; i++) n += patterns[i].at_run_time;
   return n;
}

const HChar* CLG_(runtime_obj_skip)(Int k)
{
   Int i;
   for (i = 0; i < patterns_used; i++)
      if (patterns[i].at_run_time && k-- == 0) return patterns[i].pattern;
   return 0;
}

/* Add a pattern (<at_run_time>: by CALLGRIND_ADD_OBJ_SKIP); returns False
 * for an empty one.  A pattern given before is not added again. */
Bool CLG_(add_obj_skip)(const HChar* pattern, Bool at_run_time)
{
   if (pattern == 0 || pattern[0] == 0) return False;
   if (seen_before(pattern)) return True;

   if (patterns_used == patterns_size) {
      patterns_size = patterns_size ? 2 * patterns_size : 4;
      patterns = VG_(realloc)("cl.objskip.add.1", patterns,
                              patterns_size * sizeof(obj_pattern));
   }
   patterns[patterns_used].pattern = canonical_pattern(pattern);
   patterns[patterns_used].full_path =
      VG_(strchr)(patterns[patterns_used].pattern, '/') != 0;
   patterns[patterns_used].at_run_time = at_run_time;
   patterns_used++;
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                                objskip.c ---*/
/*--------------------------------------------------------------------*/
