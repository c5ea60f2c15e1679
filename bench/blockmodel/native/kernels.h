/* The kernel sets the drivers run, each a list of K(name) for the
   kernel uint64_t k_name(uint64_t iterations); a driver is built for one
   set with -DKERNELS=KERNELS_<SET> (Makefile). */
#include <stdint.h>

void init_data(void);

/* kernels.c: scalar loops of every kind */
#define KERNELS_SCALAR \
 K(imul_dep4) K(imul_indep4) K(add_dep4) K(addimm_dep4) K(xorshift) K(fmul_dep) \
 K(fdiv_dep) K(sqrt_dep) K(idiv_dep) K(idiv32_dep) K(ptr_chase4) K(horner) K(estrin) \
 K(loop_empty) K(indep_add8) K(fsum1) K(fsum4) K(dot1) K(dot4) K(isum1) K(isum4) \
 K(imin) K(fdiv_arr) K(fmul_arr) K(sqrt_arr) K(idiv_var) K(idiv_const) \
 K(count_mem) K(count_reg) K(byte_count) K(byte_hash) K(byte_copy) K(matmul4)
/* kernels2.c: loops of two blocks, with kernels.c's clock reference */
#define KERNELS_SPLIT K(imul_dep4) K(split_self) K(split_cross) K(split_indep)
/* kernels3.c: SIMD loops, with kernels.c's clock reference */
#define KERNELS_SIMD \
 K(imul_dep4) K(fma_chain_y) K(fma_8acc_y) K(fma_8acc_z) K(vsum1_y) K(vsum4_y) \
 K(daxpy_y) K(daxpy_z) K(vdiv_z) K(vmul_z)
/* kernels3.c without AVX-512, which Valgrind does not decode */
#define KERNELS_SIMD_AVX2 K(fma_chain_y) K(fma_8acc_y) K(vsum1_y) K(vsum4_y) K(daxpy_y)

#ifndef KERNELS
#define KERNELS KERNELS_SCALAR
#endif
#define K(x) uint64_t k_##x(uint64_t);
KERNELS
#undef K
