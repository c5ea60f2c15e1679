/* Microbenchmark of the all-events cost scanner (issue 28): reads every
 * cost column of every cost line of a callgrind.out with
 * scan_cost_columns() (src/read/lex.h), as a one-pass -f pprof of all
 * events would, and sums each column.
 *
 * Usage: colscan_bench FILE [ROUNDS]
 * Prints the best and median time of ROUNDS passes over the mapped file
 * (already in the page cache after the first), the throughput (file size /
 * median time), the number of cost lines and columns, and whether each
 * column's sum over the self-cost lines (all but the line after each
 * "calls=") equals the file's "totals:" line (summary: if there is no
 * totals:): the scanner's answer checked, not only timed.  Exit status 1
 * if a sum differs or a cost line is not one the scanner takes (the
 * reader would read it with its exact path; none is expected in files
 * callgrind writes).
 *
 * Only files with one part and positions of the plain forms are handled;
 * the subpositions before the costs are skipped, not read (the reader's
 * cost_run_line() reads them). */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#include "read/lex.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t count_words(const char *p, const char *end)
{
    size_t n = 0;
    while (p < end) {
        while (p < end && is_blank(*p))
            p++;
        if (p == end)
            break;
        n++;
        while (p < end && !is_blank(*p))
            p++;
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct pass {
    uint64_t sum[MAX_EVENTS];
    size_t lines, columns, refused;
};

/* One pass over [data, data + len): a line ends in '\n' before `whole`
 * (the end of the last whole line); the last line, if it has no '\n', is
 * not a cost line in files callgrind writes and is left out.  A cost line
 * is read as the reader would for all events: skip_subpositions() and
 * scan_cost_columns() (src/read/lex.h).  Not inlined: reader-bench.sh
 * reads its inclusive cost. */
static __attribute__((noinline)) void scan(const char *data, const char *whole,
                                           size_t npositions, size_t nevents,
                                           struct pass *r)
{
    uint64_t cols[MAX_EVENTS], sum[MAX_EVENTS] = {0};
    size_t lines = 0, columns = 0, refused = 0;
    int call = 0; /* the line after "calls=": inclusive cost, not summed */
    for (const char *p = data; p < whole;) {
        char c = *p;
        if (is_digit(c) || c == '+' || c == '-' || c == '*') {
            size_t n;
            const char *q = skip_subpositions(p, npositions);
            const char *nl = q ? scan_cost_columns(q, cols, nevents, &n) : NULL;
            if (nl) {
                if (!call)
                    for (size_t i = 0; i < n; i++)
                        sum[i] += cols[i];
                call = 0;
                lines++;
                columns += n;
                p = nl + 1;
                continue;
            }
            refused++;
        }
        call = c == 'c' && memcmp(p, "calls=", 6) == 0;
        p = memchr(p, '\n', (size_t)(whole - p));
        p++;
    }
    memcpy(r->sum, sum, sizeof sum);
    r->lines = lines;
    r->columns = columns;
    r->refused = refused;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: colscan_bench FILE [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (rounds < 1)
        rounds = 1;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size == 0) {
        perror(argv[1]);
        return 2;
    }
    size_t len = (size_t)st.st_size;
    const char *data = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (data == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    const char *end = data + len, *whole = end;
    while (whole > data && whole[-1] != '\n')
        whole--;

    /* The header: positions, events and the expected totals. */
    size_t npositions = 1, nevents = 0;
    uint64_t totals[MAX_EVENTS] = {0};
    int have_totals = 0;
    for (const char *p = data; p < whole;) {
        const char *nl = memchr(p, '\n', (size_t)(whole - p));
        const char *v = memchr(p, ':', (size_t)(nl - p));
        if (v) {
            size_t klen = (size_t)(v - p);
            v++;
            if (key_is(p, klen, "positions")) {
                npositions = count_words(v, nl);
            } else if (key_is(p, klen, "events")) {
                nevents = count_words(v, nl);
            } else if (key_is(p, klen, "totals") ||
                       (key_is(p, klen, "summary") && !have_totals)) {
                size_t i = 0;
                for (const char *q = skip_blanks(v, nl); q < nl && i < MAX_EVENTS;
                     q = skip_blanks(q, nl)) {
                    const char *t = token_end(q, nl);
                    parse_number(q, t, &totals[i++]);
                    q = t;
                }
                have_totals = 1;
            }
        }
        p = nl + 1;
    }
    if (nevents == 0 || nevents > MAX_EVENTS) {
        fprintf(stderr, "%s: %zu events (1 to %d handled)\n", argv[1], nevents, MAX_EVENTS);
        return 2;
    }

    double *t = calloc((size_t)rounds, sizeof *t);
    struct pass r;
    for (int i = 0; i < rounds; i++) {
        double t0 = now();
        scan(data, whole, npositions, nevents, &r);
        t[i] = now() - t0;
    }
    qsort(t, (size_t)rounds, sizeof *t, cmp_double);
    double median = t[rounds / 2];
    int same = 1;
    for (size_t i = 0; i < nevents; i++)
        same &= r.sum[i] == totals[i];
    printf("file\t%s\nbytes\t%zu\nevents\t%zu\ncost_lines\t%zu\ncolumns_read\t%zu\n"
           "refused_lines\t%zu\nbest_s\t%.6f\nmedian_s\t%.6f\nMB_per_s\t%.0f\n"
           "sums_equal_totals\t%s\n",
           argv[1], len, nevents, r.lines, r.columns, r.refused, t[0], median,
           (double)len / median / 1e6, same ? "yes" : "NO");
    free(t);
    munmap((void *)data, len);
    close(fd);
    return same && r.refused == 0 ? 0 : 1;
}
