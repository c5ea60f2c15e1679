/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                    harness.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   What benchmark harnesses need beyond the profile itself: strings
   from client requests read without trusting the pointer, descriptions
   queued for the next dump (CALLGRIND_ADD_DESC), and the instrumentation
   state handed to an exec'd child with the children a part spawned
   (--instr-atstart=inherit).

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

#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

/*------------------------------------------------------------*/
/*--- Strings passed by client requests                    ---*/
/*------------------------------------------------------------*/

/* The longest string a client request may pass: a path or a
 * benchmark's name, never megabytes. */
#define CLIENT_STRING_MAX 65536

/* A copy of the NUL-terminated string at client address <a>, or 0 with a
 * warning naming <request> and saying what happens <instead>, if it is
 * not readable up to its end (a NULL or unmapped pointer, a string
 * running into unmapped memory or longer than CLIENT_STRING_MAX).  The
 * client's pointer is never dereferenced before the page it points into
 * is known to be readable. */
HChar* CLG_(client_string)(Addr a, const HChar* request, const HChar* instead)
{
   SizeT len = 0, size = 256;
   HChar* copy = VG_(malloc)("cl.harness.cs", size);
   Addr checked_to = a;   /* [a, checked_to) is readable */
   const HChar* why = 0;

   while (1) {
      if (a + len >= checked_to) {
         Addr page = VG_PGROUNDDN(a + len);
         if (a == 0 || !VG_(am_is_valid_for_client)(page, VKI_PAGE_SIZE,
                                                    VKI_PROT_READ)) {
            why = a == 0 ? "a NULL pointer" : "not readable";
            break;
         }
         checked_to = page + VKI_PAGE_SIZE;
      }
      if (len + 1 == size) {
         size *= 2;
         copy = VG_(realloc)("cl.harness.cs", copy, size);
      }
      copy[len] = *(const HChar*)(a + len);
      if (copy[len] == 0) return copy;
      if (++len == CLIENT_STRING_MAX) {
         why = "longer than 65536 bytes";
         break;
      }
   }
   VG_(free)(copy);
   VG_(message)(Vg_UserMsg,
                "Warning: %s: the string at %#lx is %s; %s\n",
                request, a, why, instead);
   return 0;
}

/*------------------------------------------------------------*/
/*--- CALLGRIND_ADD_DESC                                   ---*/
/*------------------------------------------------------------*/

/* Descriptions for the next dump, in the order they were added. */
static XArray* descs = 0;   /* of HChar* */

static void forget_descs(void)
{
   Word i;
   if (!descs) return;
   for (i = 0; i < VG_(sizeXA)(descs); i++)
      VG_(free)(*(HChar**)VG_(indexXA)(descs, i));
   VG_(dropTailXA)(descs, VG_(sizeXA)(descs));
}

/* A forked child's dumps are its own: descriptions queued by the parent
 * before the fork are not written again by the child. */
static void forget_descs_in_child(ThreadId tid)
{
   forget_descs();
}

void CLG_(add_desc)(const HChar* text)
{
   HChar* line = VG_(strdup)("cl.harness.desc", text);
   HChar* c;

   if (!descs) {
      descs = VG_(newXA)(VG_(malloc), "cl.harness.descs", VG_(free),
                         sizeof(HChar*));
      VG_(atfork)(0, 0, forget_descs_in_child);
   }
   /* one header line each */
   for (c = line; *c; c++)
      if (*c == '\n' || *c == '\r') *c = ' ';
   VG_(addToXA)(descs, &line);
}

Int CLG_(desc_count)(void)
{
   return descs ? (Int)VG_(sizeXA)(descs) : 0;
}

const HChar* CLG_(desc)(Int i)
{
   return *(HChar**)VG_(indexXA)(descs, i);
}

static void forget_spawned(void);

/* The dump that wrote them (and the spawned pids) is complete. */
void CLG_(descs_written)(void)
{
   forget_descs();
   forget_spawned();
}

/*------------------------------------------------------------*/
/*--- --instr-atstart=inherit                              ---*/
/*------------------------------------------------------------*/

/* An exec'd child traced by Valgrind (--trace-children=yes) gets the
 * options of its parent's command line.  Just before the exec, the
 * parent's state is appended to them: --instr-inherited=yes|no, and an
 * --obj-skip for each pattern added with CALLGRIND_ADD_OBJ_SKIP.  The
 * child's last --instr-inherited wins.  If the exec fails, they are
 * taken off again. */
static Word args_added = 0;

static void add_arg(const HChar* prefix, const HChar* value)
{
   HChar* arg = VG_(malloc)("cl.harness.arg",
                            VG_(strlen)(prefix) + VG_(strlen)(value) + 1);
   VG_(strcpy)(arg, prefix);
   VG_(strcat)(arg, value);
   VG_(addToXA)(VG_(args_for_valgrind), &arg);
   args_added++;
}

static Bool is_exec(UInt syscallno)
{
#if defined(__NR_execveat)
   if (syscallno == __NR_execveat) return True;
#endif
   return syscallno == __NR_execve;
}

void CLG_(inherit_pre_syscall)(UInt syscallno)
{
   Int i;

   if (!CLG_(clo).instr_inherit || !is_exec(syscallno)) return;
   add_arg("--instr-inherited=", CLG_(instrument_state) ? "yes" : "no");
   for (i = 0; i < CLG_(runtime_obj_skip_count)(); i++)
      add_arg("--obj-skip=", CLG_(runtime_obj_skip)(i));
}

/*------------------------------------------------------------*/
/*--- desc: Spawned pid: (--instr-atstart=inherit)         ---*/
/*------------------------------------------------------------*/

/* The children this process forked since its last dump, for the header
 * of its next part (desc: Spawned pid: <pid>, as CodSpeed's builds write
 * it): a reader attributes each child's profile to the part of its parent
 * that spawned it.  The core announces a fork (vfork, clone of a process)
 * to atfork handlers before the syscall; the parent learns the child's
 * pid when it returns. */
static XArray* spawned = 0;   /* of Int */
static Bool forking = False;

static void fork_starts(ThreadId tid)
{
   forking = True;
}

static void forget_spawned(void)
{
   if (spawned) VG_(dropTailXA)(spawned, VG_(sizeXA)(spawned));
}

/* A forked child's dumps are its own: it has spawned nothing yet. */
static void fork_child(ThreadId tid)
{
   forking = False;
   forget_spawned();
}

void CLG_(track_spawned)(void)
{
   spawned = VG_(newXA)(VG_(malloc), "cl.harness.spawned", VG_(free),
                        sizeof(Int));
   VG_(atfork)(fork_starts, 0, fork_child);
}

Int CLG_(spawned_count)(void)
{
   return spawned ? (Int)VG_(sizeXA)(spawned) : 0;
}

Int CLG_(spawned)(Int i)
{
   return *(Int*)VG_(indexXA)(spawned, i);
}

void CLG_(inherit_post_syscall)(UInt syscallno, SysRes res)
{
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));

   if (forking) {
      Int pid = sr_isError(res) ? 0 : (Int)sr_Res(res);
      forking = False;
      if (pid > 0) VG_(addToXA)(spawned, &pid);
   }

   /* only reached when the exec failed */
   if (!args_added || !is_exec(syscallno)) return;
   for (i = n - args_added; i < n; i++)
      VG_(free)(*(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i));
   VG_(dropTailXA)(VG_(args_for_valgrind), args_added);
   args_added = 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                                harness.c ---*/
/*--------------------------------------------------------------------*/
