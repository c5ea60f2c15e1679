/* Program for the perf map tests: hand-made JIT code named by a perf map.

   jitmap MODE [DIR]

   Copies two functions of machine code (x86-64) into executable memory:
   jit_loop(n), a loop, and jit_driver(n, f), which calls f(n) twice
   through a register; writes a perf map naming them (DIR/perf-<pid>.map,
   DIR defaulting to /tmp) and runs native_caller -> jit_driver ->
   jit_loop.  MODE:
     keep       the map stays (but in /tmp)
     delete     the map is removed before the program ends
     hostile    the map also holds malformed lines, a line over 1 MB,
                overlapping and unordered entries, CRLF line ends
     replace    after a first run the map is truncated and rewritten: the
                code, copied to new addresses, is named jit_loop2 and
                jit_driver2
     reuse      after a first run, other code is written over jit_loop at
                its address and named jit_loop_v2 by an appended entry
     big        the map has 1,000,000 other entries before the real ones
     fifo       MAP is a FIFO (no map): the code has no names
     dir        MAP is a directory (no map)
     foreign    the map belongs to another user (uid 65534)
     framed     jit_framed calls jit_prologue, which returns leaving a frame
                on the stack for it (as V8's out-of-line prologue does), then
                calls jit_loop
     midstack   jit_driver calls native_start, which starts the
                instrumentation (--instr-atstart=no) below the JIT frame */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../callgrind.h"

static const unsigned char loop_code[] = {
   0x89, 0xf9,             /* mov ecx, edi */
   0x31, 0xc0,             /* xor eax, eax */
   0x01, 0xc8,             /* L: add eax, ecx */
   0xff, 0xc9,             /* dec ecx */
   0x75, 0xfa,             /* jnz L */
   0xc3                    /* ret */
};

/* with a frame pointer, as V8's code has: stacks unwind through it */
/* the same loop, one instruction longer */
static const unsigned char loop_v2_code[] = {
   0x90,                   /* nop */
   0x89, 0xf9,             /* mov ecx, edi */
   0x31, 0xc0,             /* xor eax, eax */
   0x01, 0xc8,             /* L: add eax, ecx */
   0xff, 0xc9,             /* dec ecx */
   0x75, 0xfa,             /* jnz L */
   0xc3                    /* ret */
};

static const unsigned char driver_code[] = {
   0x55,                   /* push rbp */
   0x48, 0x89, 0xe5,       /* mov rbp, rsp */
   0x53,                   /* push rbx */
   0x41, 0x54,             /* push r12 */
   0x48, 0x89, 0xf3,       /* mov rbx, rsi */
   0x41, 0x89, 0xfc,       /* mov r12d, edi */
   0xff, 0xd3,             /* call rbx */
   0x44, 0x89, 0xe7,       /* mov edi, r12d */
   0xff, 0xd3,             /* call rbx */
   0x41, 0x5c,             /* pop r12 */
   0x5b,                   /* pop rbx */
   0x5d,                   /* pop rbp */
   0xc3                    /* ret */
};

/* builds its caller's frame: returns with rbp and a slot pushed, rbp
   the frame, so the stack pointer is below the caller's at the call */
static const unsigned char prologue_code[] = {
   0x58,                   /* pop rax (the return address) */
   0x55,                   /* push rbp */
   0x48, 0x89, 0xe5,       /* mov rbp, rsp */
   0x53,                   /* push rbx (a slot of the frame) */
   0x50,                   /* push rax */
   0xc3                    /* ret */
};

/* jit_framed(n, f, prologue): prologue(); f(n); drop the frame */
static const unsigned char framed_code[] = {
   0xff, 0xd2,             /* call rdx */
   0xff, 0xd6,             /* call rsi */
   0x48, 0x89, 0xec,       /* mov rsp, rbp */
   0x5d,                   /* pop rbp */
   0xc3                    /* ret */
};

typedef int (*loop_fn)(int);
typedef int (*framed_fn)(int, loop_fn, void*);
typedef int (*driver_fn)(int, loop_fn);

static volatile int sink;

__attribute__((noinline)) int native_caller(driver_fn d, loop_fn l, int n)
{
   return d(n, l);
}

__attribute__((noinline)) int native_framed(framed_fn fr, loop_fn l, void* pro, int n)
{
   return fr(n, l, pro);
}

/* called by jit_driver in mode midstack */
__attribute__((noinline)) int native_start(int n)
{
   int i, s = 0;
   CALLGRIND_START_INSTRUMENTATION;
   for (i = 0; i < n; i++) s += i;
   return s;
}

static unsigned char* place(unsigned char* mem, size_t at, const unsigned char* code,
                            size_t size)
{
   memcpy(mem + at, code, size);
   return mem + at;
}

static void write_entry(FILE* f, void* start, size_t size, const char* name)
{
   fprintf(f, "%lx %zx %s\n", (unsigned long)start, size, name);
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "keep";
   char path[256];
   unsigned char* mem = mmap(0, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   unsigned char *loop, *driver;
   FILE* f;

   if (mem == MAP_FAILED) return 1;
   snprintf(path, sizeof path, "%s/perf-%d.map", argc > 2 ? argv[2] : "/tmp",
            (int)getpid());
   loop = place(mem, 0x40, loop_code, sizeof loop_code);
   driver = place(mem, 0x100, driver_code, sizeof driver_code);

   if (strcmp(mode, "fifo") == 0) {
      unlink(path);
      if (mkfifo(path, 0600) != 0) return 1;
   } else if (strcmp(mode, "dir") == 0) {
      rmdir(path);
      if (mkdir(path, 0700) != 0) return 1;
   } else {
      f = fopen(path, "w");
      if (!f) return 1;
      /* planted by another user: owned by it before it names anything */
      if (strcmp(mode, "foreign") == 0 && fchown(fileno(f), 65534, 65534) != 0)
         return 1;
      if (strcmp(mode, "hostile") == 0) {
         size_t i;
         fputs("not a map line\n", f);
         fputs("12345\n", f);
         fputs("zz 10 bad_hex\n", f);
         fputs("ffffffffffffffffff 10 too_long_a_number\n", f);
         for (i = 0; i < (2u << 20); i++) fputc('x', f);
         fputc('\n', f);
         /* an older, wider entry over both functions, replaced below */
         write_entry(f, mem, 0x200, "old_code");
         /* unordered: the driver first; CRLF */
         fprintf(f, "%lx %zx jit_driver\r\n", (unsigned long)driver, sizeof driver_code);
         write_entry(f, loop, sizeof loop_code, "jit_loop");
         write_entry(f, mem + 0x1000, 0, "no_size");
      } else if (strcmp(mode, "framed") == 0) {
         write_entry(f, loop, sizeof loop_code, "jit_loop");
         write_entry(f, mem + 0x200, sizeof framed_code, "jit_framed");
         write_entry(f, mem + 0x300, sizeof prologue_code, "jit_prologue");
      } else {
         if (strcmp(mode, "big") == 0) {
            unsigned long i;
            for (i = 0; i < 1000000; i++)
               fprintf(f, "%lx 20 other_function_%lu\n", 0x100000000000ul + 0x20 * i, i);
         }
         write_entry(f, loop, sizeof loop_code, "jit_loop");
         write_entry(f, driver, sizeof driver_code, "jit_driver");
      }
      fclose(f);
   }

   if (strcmp(mode, "framed") == 0) {
      unsigned char* framed = place(mem, 0x200, framed_code, sizeof framed_code);
      unsigned char* pro = place(mem, 0x300, prologue_code, sizeof prologue_code);
      sink += native_framed((framed_fn)framed, (loop_fn)loop, pro, 1000);
   }
   else if (strcmp(mode, "midstack") == 0)
      sink += native_caller((driver_fn)driver, native_start, 100);
   else
      sink += native_caller((driver_fn)driver, (loop_fn)loop, 1000);

   if (strcmp(mode, "replace") == 0) {
      /* the same code at new addresses, under new names */
      unsigned char* loop2 = place(mem, 0x400, loop_code, sizeof loop_code);
      unsigned char* driver2 = place(mem, 0x500, driver_code, sizeof driver_code);
      f = fopen(path, "w");   /* truncated */
      if (!f) return 1;
      write_entry(f, loop2, sizeof loop_code, "jit_loop2");
      write_entry(f, driver2, sizeof driver_code, "jit_driver2");
      fclose(f);
      sink += native_caller((driver_fn)driver2, (loop_fn)loop2, 500);
   }

   if (strcmp(mode, "reuse") == 0) {
      /* JITs reuse addresses: new code where jit_loop was */
      place(mem, 0x40, loop_v2_code, sizeof loop_v2_code);
      f = fopen(path, "a");
      if (!f) return 1;
      write_entry(f, loop, sizeof loop_v2_code, "jit_loop_v2");
      fclose(f);
      sink += native_caller((driver_fn)driver, (loop_fn)loop, 500);
   }

   if (strcmp(mode, "fifo") == 0 || strcmp(mode, "delete") == 0 ||
       strcmp(mode, "midstack") == 0 || strcmp(mode, "reuse") == 0 ||
       strcmp(mode, "big") == 0 || strcmp(mode, "framed") == 0 ||
       strcmp(mode, "foreign") == 0 || strcmp(mode, "hostile") == 0 ||
       strcmp(mode, "replace") == 0)
      unlink(path);
   else if (strcmp(mode, "dir") == 0)
      rmdir(path);
   else if (strcmp(mode, "keep") == 0 && argc <= 2)
      unlink(path);   /* /tmp stays clean; it was read while running */
   return 0;
}
