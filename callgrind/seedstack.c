/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                  seedstack.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   Seeding the shadow call stack from the native stack when
   instrumentation is switched on in the middle of a run.

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

/* When instrumentation switches on (CALLGRIND_START_INSTRUMENTATION,
 * callgrind_control -i on), the shadow call stack is empty while the
 * program is several frames deep.  Without the frames, every later
 * return climbs into a function Callgrind never saw called, which makes
 * phantom roots, invented recursion levels and callees drawn as callers.
 *
 * So the frames of the native stack are pushed as if their calls had
 * been seen, outermost first, each with the stack pointer and return
 * address the normal return matching expects.  Seeded frames carry no
 * call arc (Callgrind did not see the calls, and they were made before
 * measuring started), so they add no edge and no cost of their own.
 * A frame of a skipped function, or of code without symbols (JIT and
 * trampoline code in anonymous memory), pushes no context: its costs go
 * to the nearest frame below it that is shown, as for a skipped call. */

#include "global.h"

#include "pub_tool_stacktrace.h"

/* Enough for deep recursions; a deeper stack is cut at its outer end,
 * and returns below it are handled as call stack underflows. */
#define SEED_MAX_FRAMES 100000

static Addr* seed_ips = 0;
static Addr* seed_sps = 0;

/* Does a frame of <fn> get a context of its own in the profile? */
static Bool is_shown(fn_node* fn)
{
   /* functions without symbols are named by address, "0x..." */
   return !fn->skip && !(fn->name[0] == '0' && fn->name[1] == 'x');
}

/* The BBCC of the call site at <addr> (a return address - 1, which never
 * starts a basic block) in the current context. */
static BBCC* call_site_bbcc(Addr addr)
{
   Bool seen_before;
   BB* bb = CLG_(get_bb)(addr, 0, &seen_before);

   return CLG_(get_bbcc_in_current_cxt)(bb);
}

/* Seed the call stack of the current thread, which must be empty. */
void CLG_(seed_call_stack)(void)
{
   UInt n;
   Int i;
   fn_node* fn;

   CLG_ASSERT(CLG_(current_call_stack).sp == 0);
   if (!seed_ips) {
      seed_ips = VG_(malloc)("cl.seed.ips", SEED_MAX_FRAMES * sizeof(Addr));
      seed_sps = VG_(malloc)("cl.seed.sps", SEED_MAX_FRAMES * sizeof(Addr));
   }
   n = VG_(get_StackTrace)(CLG_(current_tid), seed_ips, SEED_MAX_FRAMES,
                           seed_sps, 0, 0);
   if (n == 0) return;

   /* ips[0] is where the thread is; ips[i] for i>0 is a return address
    * minus 1; sps[i] for i>0 is the stack pointer after frame i-1 returns
    * into frame i, so the callee found its return address at
    * sps[i] - sizeof(Addr), the stack pointer Callgrind records for a
    * call. */
   fn = CLG_(get_fn_node_of_addr)(seed_ips[n-1]);
   CLG_(push_cxt)(is_shown(fn) ? fn : CLG_(get_skipped_root_fn)());

   for (i = (Int)n - 2; i >= 0; i--) {
      Addr sp = seed_sps[i+1] - sizeof(Addr);
      Addr ret_addr = seed_ips[i+1] + 1;

      fn = CLG_(get_fn_node_of_addr)(seed_ips[i]);
      if (is_shown(fn))
         CLG_(push_seeded_call)(fn, 0, sp, ret_addr);
      else
         CLG_(push_seeded_call)(0, CLG_(current_state).nonskipped
                                   ? CLG_(current_state).nonskipped
                                   : call_site_bbcc(seed_ips[i+1]),
                                sp, ret_addr);
   }

   CLG_DEBUG(1, "seed_call_stack: thread %u, %u frames\n",
             CLG_(current_tid), n);
}

/*--------------------------------------------------------------------*/
/*--- end                                              seedstack.c ---*/
/*--------------------------------------------------------------------*/
