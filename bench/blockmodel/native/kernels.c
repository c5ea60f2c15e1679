/* Small kernels for the block-model prototype.

   Each kernel k_NAME(n) runs its loop n times and returns something
   derived from the work so the compiler keeps it.  The loop of every
   kernel is a single basic block (checked with objdump by
   ../extract_loops.py).  Barriers:
     OPQ(x)  an empty asm that says x is read and rewritten in a register:
             no instruction, but the compiler can neither fold nor
             vectorise across it;
     OPQX(d) the same for a double in an xmm register.
   Build: gcc -O2 -fno-math-errno (sqrt inline, no errno branch).
   Vectorisation is off per function where gcc -O2 would vectorise
   (NOVEC). */
#include <stdint.h>
#include <math.h>

#define OPQ(x)  __asm__("" : "+r"(x))
#define OPQX(d) __asm__("" : "+x"(d))
#define NOVEC __attribute__((noinline, optimize("no-tree-vectorize")))
#define KER NOVEC

#define ASZ 1024                       /* doubles / ints per array: L1 */
double A[ASZ + 8], B[ASZ + 8], C[ASZ + 8];
uint64_t IA[ASZ + 8];
unsigned char BUF[4096];
void* CHASE[512 * 8];                  /* one pointer per 64-byte line */
volatile uint64_t VCOUNT;

/* ---- dependency chains ------------------------------------------- */
KER uint64_t k_imul_dep4(uint64_t n)
{
   uint64_t x = 1, k = 0x9E3779B97F4A7C15ull;
   OPQ(k);
   for (uint64_t i = 0; i < n; i++) {
      x *= k; OPQ(x); x *= k; OPQ(x); x *= k; OPQ(x); x *= k; OPQ(x);
   }
   return x;
}

KER uint64_t k_imul_indep4(uint64_t n)
{
   uint64_t a = 1, b = 2, c = 3, d = 4, k = 0x9E3779B97F4A7C15ull;
   OPQ(k);
   for (uint64_t i = 0; i < n; i++) {
      a *= k; b *= k; c *= k; d *= k;
   }
   return a ^ b ^ c ^ d;
}

KER uint64_t k_add_dep4(uint64_t n)        /* add reg,reg chain */
{
   uint64_t x = 1, y = 3;
   OPQ(y);
   for (uint64_t i = 0; i < n; i++) {
      x += y; OPQ(x); x += y; OPQ(x); x += y; OPQ(x); x += y; OPQ(x);
   }
   return x;
}

KER uint64_t k_addimm_dep4(uint64_t n)     /* add reg,imm chain */
{
   uint64_t x = 1;
   for (uint64_t i = 0; i < n; i++) {
      x += 3; OPQ(x); x += 5; OPQ(x); x += 7; OPQ(x); x += 9; OPQ(x);
   }
   return x;
}

KER uint64_t k_xorshift(uint64_t n)
{
   uint64_t x = 88172645463325252ull;
   for (uint64_t i = 0; i < n; i++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
   }
   return x;
}

KER uint64_t k_fmul_dep(uint64_t n)        /* x *= r: reciprocal chain */
{
   double x = 1.0, r = 1.0 / 1.0000001;
   OPQX(r);
   for (uint64_t i = 0; i < n; i++) {
      x *= r; OPQX(x);
   }
   return (uint64_t)(x * 1e6);
}

KER uint64_t k_fdiv_dep(uint64_t n)        /* x /= d: division chain */
{
   double x = 1.0, d = 1.0000001;
   OPQX(d);
   for (uint64_t i = 0; i < n; i++) {
      x /= d; OPQX(x);
   }
   return (uint64_t)(x * 1e6);
}

KER uint64_t k_sqrt_dep(uint64_t n)
{
   double x = 2.0, c = 1.0;
   OPQX(c);
   for (uint64_t i = 0; i < n; i++) {
      x = sqrt(x) + c; OPQX(x);
   }
   return (uint64_t)(x * 1e6);
}

KER uint64_t k_idiv_dep(uint64_t n)        /* 64-bit div chain */
{
   uint64_t x = 0x123456789abcdefull, d = 7, big = 0x7000000000000000ull;
   OPQ(d); OPQ(big);
   for (uint64_t i = 0; i < n; i++) {
      x = x / d + big;
   }
   return x;
}

KER uint64_t k_idiv32_dep(uint64_t n)      /* 32-bit div chain */
{
   uint32_t x = 0x12345678u, d = 7, big = 0x70000000u;
   OPQ(d); OPQ(big);
   for (uint64_t i = 0; i < n; i++) {
      x = x / d + big;
   }
   return x;
}

KER uint64_t k_ptr_chase4(uint64_t n)
{
   void** p = (void**)CHASE[0];
   for (uint64_t i = 0; i < n; i++) {
      p = (void**)*p; p = (void**)*p; p = (void**)*p; p = (void**)*p;
   }
   return (uint64_t)(uintptr_t)p;
}

KER uint64_t k_horner(uint64_t n)          /* degree-7 polynomial chain */
{
   double x = 0.5, c0 = 0.3, c1 = 0.1, c2 = 0.05, c3 = 0.02,
          c4 = 0.01, c5 = 0.005, c6 = 0.002, c7 = 0.001;
   OPQX(c0); OPQX(c1); OPQX(c2); OPQX(c3);
   OPQX(c4); OPQX(c5); OPQX(c6); OPQX(c7);
   for (uint64_t i = 0; i < n; i++) {
      x = ((((((c7 * x + c6) * x + c5) * x + c4) * x + c3) * x + c2) * x + c1) * x + c0;
      OPQX(x);
   }
   return (uint64_t)(x * 1e6);
}

KER uint64_t k_estrin(uint64_t n)          /* same polynomial, Estrin */
{
   double x = 0.5, c0 = 0.3, c1 = 0.1, c2 = 0.05, c3 = 0.02,
          c4 = 0.01, c5 = 0.005, c6 = 0.002, c7 = 0.001;
   OPQX(c0); OPQX(c1); OPQX(c2); OPQX(c3);
   OPQX(c4); OPQX(c5); OPQX(c6); OPQX(c7);
   for (uint64_t i = 0; i < n; i++) {
      double x2 = x * x, x4 = x2 * x2;
      double p01 = c0 + c1 * x, p23 = c2 + c3 * x;
      double p45 = c4 + c5 * x, p67 = c6 + c7 * x;
      double q0 = p01 + p23 * x2, q1 = p45 + p67 * x2;
      x = q0 + q1 * x4;
      OPQX(x);
   }
   return (uint64_t)(x * 1e6);
}

/* ---- independent work --------------------------------------------- */
KER uint64_t k_loop_empty(uint64_t n)
{
   uint64_t i;
   for (i = 0; i < n; i++)
      OPQ(i);
   return i;
}

KER uint64_t k_indep_add8(uint64_t n)
{
   uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, y = 11;
   OPQ(y);
   for (uint64_t i = 0; i < n; i++) {
      a += y; b += y; c += y; d += y; e += y; f += y; g += y; h += y;
      OPQ(a); OPQ(b); OPQ(c); OPQ(d); OPQ(e); OPQ(f); OPQ(g); OPQ(h);
   }
   return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

/* ---- reductions: 4 elements per iteration, 1 vs 4 accumulators ----- */
KER uint64_t k_fsum1(uint64_t n)
{
   double s = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s += A[i]; s += A[i + 1]; s += A[i + 2]; s += A[i + 3];
      }
   return (uint64_t)s;
}

KER uint64_t k_fsum4(uint64_t n)
{
   double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s0 += A[i]; s1 += A[i + 1]; s2 += A[i + 2]; s3 += A[i + 3];
      }
   return (uint64_t)(s0 + s1 + s2 + s3);
}

KER uint64_t k_dot1(uint64_t n)
{
   double s = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s += A[i] * B[i]; s += A[i + 1] * B[i + 1];
         s += A[i + 2] * B[i + 2]; s += A[i + 3] * B[i + 3];
      }
   return (uint64_t)s;
}

KER uint64_t k_dot4(uint64_t n)
{
   double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s0 += A[i] * B[i]; s1 += A[i + 1] * B[i + 1];
         s2 += A[i + 2] * B[i + 2]; s3 += A[i + 3] * B[i + 3];
      }
   return (uint64_t)(s0 + s1 + s2 + s3);
}

KER uint64_t k_isum1(uint64_t n)
{
   uint64_t s = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s += IA[i]; OPQ(s); s += IA[i + 1]; OPQ(s);
         s += IA[i + 2]; OPQ(s); s += IA[i + 3]; OPQ(s);
      }
   return s;
}

KER uint64_t k_isum4(uint64_t n)
{
   uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
   for (uint64_t r = 0; r < n; r += ASZ / 4)
      for (uint64_t i = 0; i < ASZ; i += 4) {
         s0 += IA[i]; s1 += IA[i + 1]; s2 += IA[i + 2]; s3 += IA[i + 3];
         OPQ(s0); OPQ(s1); OPQ(s2); OPQ(s3);
      }
   return s0 + s1 + s2 + s3;
}

KER uint64_t k_imin(uint64_t n)            /* cmov reduction */
{
   uint64_t m = ~0ull;
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++) {
         uint64_t v = IA[i];
         m = v < m ? v : m;
      }
   return m;
}

/* ---- throughput over arrays: divide vs multiply by the reciprocal --- */
KER uint64_t k_fdiv_arr(uint64_t n)
{
   double d = 1.0000001;
   OPQX(d);
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++)
         C[i] = A[i] / d;
   return (uint64_t)C[5];
}

KER uint64_t k_fmul_arr(uint64_t n)
{
   double d = 1.0000001, rd = 1.0 / d;
   OPQX(rd);
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++)
         C[i] = A[i] * rd;
   return (uint64_t)C[5];
}

KER uint64_t k_sqrt_arr(uint64_t n)
{
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++)
         C[i] = sqrt(A[i]);
   return (uint64_t)C[5];
}

/* ---- integer division: by a variable vs by a constant ---------------- */
KER uint64_t k_idiv_var(uint64_t n)
{
   uint64_t s = 0, d = 7;
   OPQ(d);
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++)
         s += IA[i] / d;
   return s;
}

KER uint64_t k_idiv_const(uint64_t n)
{
   uint64_t s = 0;
   for (uint64_t r = 0; r < n; r += ASZ)
      for (uint64_t i = 0; i < ASZ; i++)
         s += IA[i] / 7;
   return s;
}

/* ---- memory counter vs register counter ----------------------------- */
KER uint64_t k_count_mem(uint64_t n)
{
   for (uint64_t i = 0; i < n; i++)
      VCOUNT++;
   return VCOUNT;
}

KER uint64_t k_count_reg(uint64_t n)
{
   uint64_t c = 0;
   for (uint64_t i = 0; i < n; i++) {
      c++; OPQ(c);
   }
   VCOUNT = c;
   return c;
}

/* ---- byte loops ---------------------------------------------------- */
KER uint64_t k_byte_count(uint64_t n)      /* bytes equal to c */
{
   uint64_t cnt = 0;
   unsigned char c = 'e';
   OPQ(c);
   for (uint64_t r = 0; r < n; r += sizeof BUF)
      for (uint64_t i = 0; i < sizeof BUF; i++)
         cnt += BUF[i] == c;
   return cnt;
}

KER uint64_t k_byte_hash(uint64_t n)       /* h = h*31 + b */
{
   uint64_t h = 0;
   for (uint64_t r = 0; r < n; r += sizeof BUF)
      for (uint64_t i = 0; i < sizeof BUF; i++)
         h = h * 31 + BUF[i];
   return h;
}

KER uint64_t k_byte_copy(uint64_t n)
{
   /* dst + 200: not at BUF's offset modulo 4096 (4K aliasing between
      the loads and the stores would stall every byte) */
   static unsigned char dst[sizeof BUF + 256];
   for (uint64_t r = 0; r < n; r += sizeof BUF) {
      unsigned char* d = dst + 200;
      OPQ(d);
      for (uint64_t i = 0; i < sizeof BUF; i++)
         d[i] = BUF[i] ^ 0x20;
   }
   return dst[7];
}

/* ---- small matrix product: 4x4 doubles, scalar, one per iteration ---- */
#define DOT4(i, j) (a[4*i] * b[j] + a[4*i+1] * b[4+j] + a[4*i+2] * b[8+j] + a[4*i+3] * b[12+j])
#define ROW(i) c[4*i] = DOT4(i, 0); c[4*i+1] = DOT4(i, 1); \
               c[4*i+2] = DOT4(i, 2); c[4*i+3] = DOT4(i, 3);
KER uint64_t k_matmul4(uint64_t n)
{
   for (uint64_t i = 0; i < n; i++) {
      const double* a = A; const double* b = B; double* c = C;
      OPQ(a); OPQ(b); OPQ(c);
      ROW(0) ROW(1) ROW(2) ROW(3)
   }
   return (uint64_t)C[3];
}

void init_data(void)
{
   uint64_t s = 12345;
   for (int i = 0; i < ASZ + 8; i++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      A[i] = 1.0 + (s >> 40) / 16777216.0;
      B[i] = 0.5 + (s >> 20 & 0xfffff) / 1048576.0;
      IA[i] = s >> 3;
   }
   for (unsigned i = 0; i < sizeof BUF; i++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      BUF[i] = "the quick brown fox jumps over the lazy dog "[(s >> 33) % 44];
   }
   /* a random cycle through 512 lines */
   int perm[512];
   for (int i = 0; i < 512; i++) perm[i] = i;
   for (int i = 511; i > 0; i--) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      int j = (s >> 33) % (i + 1), t = perm[i];
      perm[i] = perm[j]; perm[j] = t;
   }
   for (int i = 0; i < 512; i++)
      CHASE[perm[i] * 8] = &CHASE[perm[(i + 1) % 512] * 8];
}
