/* Kernels for the sanity test of --cycle-estimation (tests/cycle-sanity.sh):
   small loops of one kind of instruction, dependent chains and
   independent streams, each its own function k_<name>(iterations).

     cycle-sanity time N   best-of-5 native time of N iterations of each
                           kernel, in ns per iteration
     cycle-sanity run N    each kernel once, N iterations (for callgrind)

   Written in assembly so that the compiler changes nothing; only
   caller-saved registers are used. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KERNEL(name, setup, body)                                       \
   __asm__(".text\n.globl k_" #name "\n.type k_" #name ",@function\n"   \
           "k_" #name ":\n" setup "\n1:\n" body "\n"                    \
           "  decq %rdi\n  jnz 1b\n  ret\n"                             \
           ".size k_" #name ", .-k_" #name "\n");                       \
   void k_##name(long iterations, void* ptr);

#define X8(i) i "\n" i "\n" i "\n" i "\n" i "\n" i "\n" i "\n" i
#define ONE "movabsq $0x3ff0000000000000, %rax; movq %rax, %xmm0; movq %rax, %xmm1;" \
            "movq %rax, %xmm2; movq %rax, %xmm3; movq %rax, %xmm4; movq %rax, %xmm5"

KERNEL(add_chain, "movq $1, %rcx", X8("addq %rcx, %rax"))
KERNEL(add_indep, "movq $1, %rcx",
       "addq %rcx, %r8; addq %rcx, %r9; addq %rcx, %r10; addq %rcx, %r11\n"
       "addq %rcx, %rax; addq %rcx, %rdx; addq %rcx, %r8; addq %rcx, %r9")
KERNEL(imul_chain, "movq $1, %rcx", X8("imulq %rcx, %rax"))
KERNEL(imul_indep, "movq $1, %rcx",
       "imulq %rcx, %r8; imulq %rcx, %r9; imulq %rcx, %r10; imulq %rcx, %r11\n"
       "imulq %rcx, %rax; imulq %rcx, %rdx; imulq %rcx, %r8; imulq %rcx, %r9")
KERNEL(div_chain, "movq $3, %rcx; movq $1000, %rax; xorl %edx, %edx", X8("divq %rcx"))
KERNEL(addsd_chain, ONE, X8("addsd %xmm1, %xmm0"))
KERNEL(mulsd_chain, ONE, X8("mulsd %xmm1, %xmm0"))
KERNEL(mulsd_indep, ONE,
       "mulsd %xmm1, %xmm0; mulsd %xmm1, %xmm2; mulsd %xmm1, %xmm3; mulsd %xmm1, %xmm4\n"
       "mulsd %xmm1, %xmm5; mulsd %xmm1, %xmm0; mulsd %xmm1, %xmm2; mulsd %xmm1, %xmm3")
KERNEL(divsd_chain, ONE, X8("divsd %xmm1, %xmm0"))
KERNEL(sqrtsd_chain, ONE, X8("sqrtsd %xmm0, %xmm0"))
KERNEL(load_chase, "", X8("movq (%rsi), %rsi"))
KERNEL(mov_indep, "movq $1, %rcx",
       "movq %rcx, %r8; movq %rcx, %r9; movq %rcx, %r10; movq %rcx, %r11\n"
       "movq %rcx, %rax; movq %rcx, %rdx; movq %rcx, %r8; movq %rcx, %r9")

static const struct { const char* name; void (*fn)(long, void*); } kernels[] = {
   { "add_chain", k_add_chain }, { "add_indep", k_add_indep },
   { "imul_chain", k_imul_chain }, { "imul_indep", k_imul_indep },
   { "div_chain", k_div_chain }, { "addsd_chain", k_addsd_chain },
   { "mulsd_chain", k_mulsd_chain }, { "mulsd_indep", k_mulsd_indep },
   { "divsd_chain", k_divsd_chain }, { "sqrtsd_chain", k_sqrtsd_chain },
   { "load_chase", k_load_chase }, { "mov_indep", k_mov_indep },
};

static void* self_pointer = &self_pointer;   /* the chase stays in L1 */

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char** argv)
{
   long n = argc > 2 ? atol(argv[2]) : 0;
   size_t k;
   if (argc != 3 || n <= 0 || (strcmp(argv[1], "time") && strcmp(argv[1], "run"))) {
      fprintf(stderr, "usage: cycle-sanity time|run ITERATIONS\n");
      return 2;
   }
   for (k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
      if (!strcmp(argv[1], "run")) {
         kernels[k].fn(n, self_pointer);
         continue;
      }
      double best = 0;
      for (int r = 0; r < 5; r++) {
         double t0 = now();
         kernels[k].fn(n, self_pointer);
         double t = now() - t0;
         if (r == 0 || t < best) best = t;
      }
      printf("%s %.4f\n", kernels[k].name, best / n);
   }
   return 0;
}
