/* SIMD kernels (AVX2/FMA and AVX-512), built with
   gcc -O2 -mavx2 -mfma -mavx512f.  Same conventions as kernels.c. */
#include <stdint.h>
#include <immintrin.h>

#define OPQV(v) __asm__("" : "+v"(v))
#define KER __attribute__((noinline, optimize("no-tree-vectorize")))

extern double A[], B[], C[];
#define ASZ 1024

/* one FMA chain, ymm */
KER uint64_t k_fma_chain_y(uint64_t n)
{
   __m256d acc = _mm256_set1_pd(1.0), x = _mm256_set1_pd(0.999), y = _mm256_set1_pd(1e-3);
   OPQV(x); OPQV(y);
   for (uint64_t i = 0; i < n; i++) {
      acc = _mm256_fmadd_pd(acc, x, y); OPQV(acc);
   }
   return (uint64_t)_mm256_cvtsd_f64(acc);
}

/* eight independent FMA chains, ymm: the same 8 FMAs as 8 iterations above */
KER uint64_t k_fma_8acc_y(uint64_t n)
{
   __m256d a0 = _mm256_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
   __m256d x = _mm256_set1_pd(0.999), y = _mm256_set1_pd(1e-3);
   OPQV(x); OPQV(y);
   for (uint64_t i = 0; i < n; i++) {
      a0 = _mm256_fmadd_pd(a0, x, y); a1 = _mm256_fmadd_pd(a1, x, y);
      a2 = _mm256_fmadd_pd(a2, x, y); a3 = _mm256_fmadd_pd(a3, x, y);
      a4 = _mm256_fmadd_pd(a4, x, y); a5 = _mm256_fmadd_pd(a5, x, y);
      a6 = _mm256_fmadd_pd(a6, x, y); a7 = _mm256_fmadd_pd(a7, x, y);
      OPQV(a0); OPQV(a1); OPQV(a2); OPQV(a3); OPQV(a4); OPQV(a5); OPQV(a6); OPQV(a7);
   }
   a0 = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)),
                      _mm256_add_pd(_mm256_add_pd(a4, a5), _mm256_add_pd(a6, a7)));
   return (uint64_t)_mm256_cvtsd_f64(a0);
}

#ifdef __AVX512F__    /* Valgrind 3.27.1 has no EVEX: build without for IR dumps */
/* eight independent FMA chains, zmm */
KER uint64_t k_fma_8acc_z(uint64_t n)
{
   __m512d a0 = _mm512_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
   __m512d x = _mm512_set1_pd(0.999), y = _mm512_set1_pd(1e-3);
   OPQV(x); OPQV(y);
   for (uint64_t i = 0; i < n; i++) {
      a0 = _mm512_fmadd_pd(a0, x, y); a1 = _mm512_fmadd_pd(a1, x, y);
      a2 = _mm512_fmadd_pd(a2, x, y); a3 = _mm512_fmadd_pd(a3, x, y);
      a4 = _mm512_fmadd_pd(a4, x, y); a5 = _mm512_fmadd_pd(a5, x, y);
      a6 = _mm512_fmadd_pd(a6, x, y); a7 = _mm512_fmadd_pd(a7, x, y);
      OPQV(a0); OPQV(a1); OPQV(a2); OPQV(a3); OPQV(a4); OPQV(a5); OPQV(a6); OPQV(a7);
   }
   a0 = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)),
                      _mm512_add_pd(_mm512_add_pd(a4, a5), _mm512_add_pd(a6, a7)));
   return (uint64_t)_mm512_reduce_add_pd(a0);
}

#endif
/* vector sum over an array: one ymm accumulator vs four */
KER uint64_t k_vsum1_y(uint64_t n)
{
   __m256d s = _mm256_setzero_pd();
   for (uint64_t r = 0; r < n; r += ASZ / 16)
      for (uint64_t i = 0; i < ASZ; i += 16) {
         s = _mm256_add_pd(s, _mm256_loadu_pd(A + i));
         s = _mm256_add_pd(s, _mm256_loadu_pd(A + i + 4));
         s = _mm256_add_pd(s, _mm256_loadu_pd(A + i + 8));
         s = _mm256_add_pd(s, _mm256_loadu_pd(A + i + 12));
         OPQV(s);
      }
   return (uint64_t)_mm256_cvtsd_f64(s);
}

KER uint64_t k_vsum4_y(uint64_t n)
{
   __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
   for (uint64_t r = 0; r < n; r += ASZ / 16)
      for (uint64_t i = 0; i < ASZ; i += 16) {
         s0 = _mm256_add_pd(s0, _mm256_loadu_pd(A + i));
         s1 = _mm256_add_pd(s1, _mm256_loadu_pd(A + i + 4));
         s2 = _mm256_add_pd(s2, _mm256_loadu_pd(A + i + 8));
         s3 = _mm256_add_pd(s3, _mm256_loadu_pd(A + i + 12));
         OPQV(s0); OPQV(s1); OPQV(s2); OPQV(s3);
      }
   s0 = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
   return (uint64_t)_mm256_cvtsd_f64(s0);
}

/* daxpy, ymm and zmm: c = a*x + b over the arrays (the same elements:
   the zmm loop does 8 per iteration, the ymm loop 4, unrolled to 8) */
KER uint64_t k_daxpy_y(uint64_t n)
{
   __m256d x = _mm256_set1_pd(1.0001);
   OPQV(x);
   for (uint64_t r = 0; r < n; r += ASZ / 8)
      for (uint64_t i = 0; i < ASZ; i += 8) {
         _mm256_storeu_pd(C + i, _mm256_fmadd_pd(_mm256_loadu_pd(A + i), x, _mm256_loadu_pd(B + i)));
         _mm256_storeu_pd(C + i + 4, _mm256_fmadd_pd(_mm256_loadu_pd(A + i + 4), x,
                                                    _mm256_loadu_pd(B + i + 4)));
      }
   return (uint64_t)C[5];
}

#ifdef __AVX512F__
KER uint64_t k_daxpy_z(uint64_t n)
{
   __m512d x = _mm512_set1_pd(1.0001);
   OPQV(x);
   for (uint64_t r = 0; r < n; r += ASZ / 8)
      for (uint64_t i = 0; i < ASZ; i += 8)
         _mm512_storeu_pd(C + i, _mm512_fmadd_pd(_mm512_loadu_pd(A + i), x, _mm512_loadu_pd(B + i)));
   return (uint64_t)C[5];
}

/* vector division vs multiplication by the reciprocal, zmm */
KER uint64_t k_vdiv_z(uint64_t n)
{
   __m512d d = _mm512_set1_pd(1.0001);
   OPQV(d);
   for (uint64_t r = 0; r < n; r += ASZ / 8)
      for (uint64_t i = 0; i < ASZ; i += 8)
         _mm512_storeu_pd(C + i, _mm512_div_pd(_mm512_loadu_pd(A + i), d));
   return (uint64_t)C[5];
}

KER uint64_t k_vmul_z(uint64_t n)
{
   __m512d d = _mm512_set1_pd(1 / 1.0001);
   OPQV(d);
   for (uint64_t r = 0; r < n; r += ASZ / 8)
      for (uint64_t i = 0; i < ASZ; i += 8)
         _mm512_storeu_pd(C + i, _mm512_mul_pd(_mm512_loadu_pd(A + i), d));
   return (uint64_t)C[5];
}
#endif
