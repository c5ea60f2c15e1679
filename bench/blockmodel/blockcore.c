/* The block model's arithmetic in C, integers only: what callgrind would
   run once per new superblock (NOTES.md).  Reads the lowered blocks
   export_blocks.py writes, computes each block's figure in centi-cycles
   as an exact rational max(issue, ports, deps) rounded half up, checks it
   against model.py's, and times it.

   Build: gcc -O2 -o blockcore blockcore.c
   Run:   ./blockcore blocks.txt [repetitions]  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_INSNS 256
#define MAX_RES   64     /* resources (registers, flags, memory) per block */
#define MAX_SETS  16     /* distinct port sets per block */
#define NEG       INT64_MIN

typedef struct { uint16_t mask; int32_t cyc; } PortUse;
typedef struct { uint8_t res; int32_t c; } Op;      /* read: advance, write: latency */
typedef struct {
   int uops, nres, nreads, nwrites;
   PortUse ports[12];
   Op reads[16], writes[8];
} Insn;
typedef struct {
   char name[32];
   int n, iw, taken, fused, taken_c;
   long expected;
   Insn in[MAX_INSNS];
} Block;

typedef struct { int64_t num, den; } Frac;          /* num/den, den > 0 */

static int frac_lt(Frac a, Frac b) { return a.num * b.den < b.num * a.den; }

/* Issue: (uops - fused) * 100 / IssueWidth, and a taken back edge. */
static Frac issue_bound(const Block* b)
{
   int i, uops = 0;
   Frac f, g;
   for (i = 0; i < b->n; i++) uops += b->in[i].uops;
   f.num = (int64_t)(uops - b->fused) * 100; f.den = b->iw;
   g.num = (int64_t)b->taken * b->taken_c;   g.den = 1;
   return frac_lt(f, g) ? g : f;
}

/* Ports: max over unions U of distinct port sets of
   (centi-cycles of the sets inside U) / |U|. */
static Frac port_bound(const Block* b, int* nsets_out)
{
   uint16_t mask[MAX_SETS];
   int64_t cyc[MAX_SETS];
   int ns = 0, i, j;
   unsigned combo;
   Frac best = { 0, 1 };
   for (i = 0; i < b->n; i++)
      for (j = 0; j < b->in[i].nres; j++) {
         int k;
         for (k = 0; k < ns && mask[k] != b->in[i].ports[j].mask; k++) ;
         if (k == ns) {
            if (ns == MAX_SETS) { *nsets_out = -1; return best; }
            mask[ns] = b->in[i].ports[j].mask; cyc[ns] = 0; ns++;
         }
         cyc[k] += b->in[i].ports[j].cyc;
      }
   *nsets_out = ns;
   for (combo = 1; combo < (1u << ns); combo++) {
      uint16_t u = 0;
      int64_t c = 0;
      for (i = 0; i < ns; i++) if (combo >> i & 1) u |= mask[i];
      for (i = 0; i < ns; i++) if ((mask[i] & ~u) == 0) c += cyc[i];
      {
         Frac f = { c, __builtin_popcount(u) };
         if (frac_lt(best, f)) best = f;
      }
   }
   return best;
}

/* Dependencies: the carried matrix, then Karp's maximum cycle mean. */
static Frac dep_bound(const Block* b, int* ncarried)
{
   uint64_t seen = 0, live_in = 0, carried;
   int idx[MAX_RES], car[MAX_RES], n = 0, i, j, s, k, v, u;
   static int64_t M[MAX_RES][MAX_RES], D[MAX_RES + 1][MAX_RES];
   Frac best = { 0, 1 };
   int have = 0;

   for (i = 0; i < b->n; i++) {
      for (j = 0; j < b->in[i].nreads; j++)
         if (!(seen >> b->in[i].reads[j].res & 1)) live_in |= 1ull << b->in[i].reads[j].res;
      for (j = 0; j < b->in[i].nwrites; j++) seen |= 1ull << b->in[i].writes[j].res;
   }
   carried = live_in & seen;
   for (i = 0; i < MAX_RES; i++)
      if (carried >> i & 1) { idx[i] = n; car[n++] = i; } else idx[i] = -1;
   *ncarried = n;
   if (n == 0) return best;

   for (s = 0; s < n; s++) {
      int64_t t[MAX_RES];
      for (i = 0; i < MAX_RES; i++) t[i] = NEG;
      t[car[s]] = 0;
      for (i = 0; i < b->n; i++) {
         const Insn* x = &b->in[i];
         int64_t start = NEG;
         for (j = 0; j < x->nreads; j++)
            if (t[x->reads[j].res] != NEG && t[x->reads[j].res] - x->reads[j].c > start)
               start = t[x->reads[j].res] - x->reads[j].c;
         for (j = 0; j < x->nwrites; j++)
            t[x->writes[j].res] = start == NEG ? NEG : start + x->writes[j].c;
      }
      for (j = 0; j < n; j++) M[s][j] = t[car[j]];
   }
   /* Karp, from a virtual source to every node */
   for (v = 0; v < n; v++) D[0][v] = 0;
   for (k = 1; k <= n; k++)
      for (v = 0; v < n; v++) {
         int64_t m = NEG;
         for (u = 0; u < n; u++)
            if (M[u][v] != NEG && D[k - 1][u] != NEG && D[k - 1][u] + M[u][v] > m)
               m = D[k - 1][u] + M[u][v];
         D[k][v] = m;
      }
   for (v = 0; v < n; v++) {
      Frac worst = { 0, 1 };
      int got = 0;
      if (D[n][v] == NEG) continue;
      for (k = 0; k < n; k++) {
         Frac f;
         if (D[k][v] == NEG) continue;
         f.num = D[n][v] - D[k][v]; f.den = n - k;
         if (!got || frac_lt(f, worst)) worst = f, got = 1;
      }
      if (got && (!have || frac_lt(best, worst))) best = worst, have = 1;
   }
   (void)idx;
   if (best.num < 0) best.num = 0, best.den = 1;
   return best;
}

static long block_figure(const Block* b, int* nsets, int* ncarried)
{
   Frac f = issue_bound(b), g = port_bound(b, nsets), h = dep_bound(b, ncarried);
   if (frac_lt(f, g)) f = g;
   if (frac_lt(f, h)) f = h;
   return (long)((2 * f.num + f.den) / (2 * f.den));    /* half up */
}

static int read_blocks(const char* path, Block** out)
{
   FILE* fp = fopen(path, "r");
   char word[64];
   int nb = 0, cap = 64;
   Block* bs = malloc(cap * sizeof *bs);
   Block* b = 0;
   if (!fp) { perror(path); exit(1); }
   while (fscanf(fp, "%63s", word) == 1) {
      if (!strcmp(word, "block")) {
         if (nb == cap) bs = realloc(bs, (cap *= 2) * sizeof *bs);
         b = &bs[nb++];
         memset(b, 0, sizeof *b);
         if (fscanf(fp, "%31s %d %d %d %d %d %ld", b->name, &b->n, &b->iw, &b->taken,
                    &b->fused, &b->taken_c, &b->expected) != 7) exit(2);
         b->n = 0;
      } else if (!strcmp(word, "i")) {
         Insn* x = &b->in[b->n++];
         int j, r;
         if (fscanf(fp, "%d %d", &x->uops, &x->nres) != 2) exit(2);
         for (j = 0; j < x->nres; j++) {
            unsigned m;
            if (fscanf(fp, "%u %d", &m, &x->ports[j].cyc) != 2) exit(2);
            x->ports[j].mask = (uint16_t)m;
         }
         if (fscanf(fp, "%d", &x->nreads) != 1) exit(2);
         for (j = 0; j < x->nreads; j++) {
            if (fscanf(fp, "%d %d", &r, &x->reads[j].c) != 2) exit(2);
            x->reads[j].res = (uint8_t)r;
         }
         if (fscanf(fp, "%d", &x->nwrites) != 1) exit(2);
         for (j = 0; j < x->nwrites; j++) {
            if (fscanf(fp, "%d %d", &r, &x->writes[j].c) != 2) exit(2);
            x->writes[j].res = (uint8_t)r;
         }
      }
   }
   fclose(fp);
   *out = bs;
   return nb;
}

int main(int argc, char** argv)
{
   Block* bs;
   int nb = read_blocks(argv[1], &bs), reps = argc > 2 ? atoi(argv[2]) : 20000, i, r, bad = 0;
   volatile long sink = 0;
   for (i = 0; i < nb; i++) {
      int ns, nc;
      struct timespec t0, t1;
      long e = block_figure(&bs[i], &ns, &nc);
      double best = 1e30;
      int trial;
      for (trial = 0; trial < 7; trial++) {     /* best of 7: the machine is shared */
         double ns_;
         clock_gettime(CLOCK_MONOTONIC, &t0);
         for (r = 0; r < reps; r++) sink += block_figure(&bs[i], &ns, &nc);
         clock_gettime(CLOCK_MONOTONIC, &t1);
         ns_ = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
         if (ns_ < best) best = ns_;
      }
      printf("%-12s insns %3d  sets %2d  carried %2d  figure %5ld  model.py %5ld %s  %7.2f us\n",
             bs[i].name, bs[i].n, ns, nc, e, bs[i].expected, e == bs[i].expected ? "same" : "DIFF",
             best / reps / 1e3);
      bad += e != bs[i].expected;
   }
   printf("%d of %d blocks differ from model.py\n", bad, nb);
   return bad != 0;
}
