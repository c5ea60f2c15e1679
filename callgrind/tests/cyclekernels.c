/* Kernels of known instructions for --cycle-estimation tests.

   Each kernel_X_N is N copies of one instruction and a ret, written in
   assembly so that the compiler adds nothing.  main calls each kernel of a
   pair (100 and 200 copies) CALLS times; the difference of their self
   costs, divided by 100 * CALLS, is the cost of one instruction (the ret
   cancels out).  cycle-kernels.pl does that division. */
#include <stdlib.h>

#define CALLS 1000

#define KERNEL(name, n, insn)                                          \
   __asm__(".text\n.globl " #name "_" #n "\n.type " #name "_" #n       \
           ",@function\n" #name "_" #n ":\n"                           \
           "  .rept " #n "\n  " insn "\n  .endr\n  ret\n"              \
           ".size " #name "_" #n ", .-" #name "_" #n "\n");            \
   void name##_##n(void);

#define PAIR(name, insn) KERNEL(name, 100, insn) KERNEL(name, 200, insn)

/* div: rdx stays below the divisor (it holds the last remainder), so
   the quotient always fits and the chain never faults. */
PAIR(kernel_add, "addq %rcx, %rax")
PAIR(kernel_imul, "imulq %rcx, %rax")
PAIR(kernel_div, "divq %rcx")
PAIR(kernel_sqrtsd, "sqrtsd %xmm1, %xmm0")
PAIR(kernel_mulsd, "mulsd %xmm1, %xmm0")
PAIR(kernel_load, "movq (%rsi), %rsi")
/* xchg %ecx, %eax in the 87 /r encoding: llvm-mc prints it as a text
   llvm-mca does not parse, so the table has it without costs and it falls
   back to the flat cycle (the fallback path; if a later LLVM costs it,
   pick another form the table lacks). */
PAIR(kernel_fallback, ".byte 0x87, 0xc8")

static void* self_pointer;

int main(void)
{
   int i;
   self_pointer = &self_pointer;   /* a pointer chase that stays put */
   for (i = 0; i < CALLS; i++) {
      /* Below the red zone: main's locals may live there. */
      __asm__ volatile("subq $128, %%rsp\n"
                       "movq $1000, %%rax; movq $3, %%rcx; xorl %%edx, %%edx\n"
                       "call kernel_add_100; call kernel_add_200\n"
                       "call kernel_imul_100; call kernel_imul_200\n"
                       "call kernel_div_100; call kernel_div_200\n"
                       "call kernel_sqrtsd_100; call kernel_sqrtsd_200\n"
                       "call kernel_mulsd_100; call kernel_mulsd_200\n"
                       "movq %0, %%rsi\n"
                       "call kernel_load_100; call kernel_load_200\n"
                       "call kernel_fallback_100; call kernel_fallback_200\n"
                       "addq $128, %%rsp\n"
                       : : "r"(self_pointer)
                       : "rax", "rcx", "rdx", "rsi", "xmm0", "xmm1",
                         "memory", "cc");
   }
   return 0;
}
