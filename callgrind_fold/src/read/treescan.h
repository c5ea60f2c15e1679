/* The folded tree's hot scanners (tree.c, fast_node_lines()): node lines
 * read and their costs summed in one pass.
 *
 * A node line is "DEPTH ID C1 C2 ...", and the reader sums every column of
 * every line to check the part's "totals:" line, so all of a line's costs
 * are numbers to add up, not only the event being folded.  Reading them
 * into an array first and summing in a second loop (as lex.h's
 * scan_cost_columns() does for callgrind.out) costs a second pass; here
 * each number goes into its column's sum as soon as it is read: exactly
 * (scan_summed_costs()), or 8 bytes at a time into "lanes" that are made
 * numbers only every few thousand lines (scan_lane_line(), most lines).
 *
 * Like lex.h's fast scanners they rely on the line reader's promise that
 * the byte after a line is '\n' or '\r' (linereader.h), and never report
 * an error: a line they do not take leaves the sums as they were, and the
 * caller reads it again with the exact, slower code, which gives the
 * message. */
#ifndef CF_READ_TREESCAN_H
#define CF_READ_TREESCAN_H

#include <stddef.h>
#include <stdint.h>

#include "swar.h"
#include "util/util.h"

/* Reads the costs of a node line from p (just after the function id) to
 * the line's '\n': decimal numbers, each after one blank ' '.  Adds the
 * k-th to sum[k] and stores it in cols[k]; sets *n to their number and
 * returns the '\n'.  Returns NULL, with sum[] unchanged, for anything
 * else: more than max numbers, a number of more than 19 digits (which may
 * not fit in 64 bits), a sum that would overflow, tabs or runs of blanks,
 * trailing blanks, junk, "\r\n".  The caller then reads the line with
 * the exact code, which accepts all blanks and gives every error.
 *
 * One-digit costs are the most common ("1 0 0 2"), so the digit loop is
 * entered only after a second digit; the test for more than 19 digits is
 * in that loop's exit, never made for a one-digit number. */
static inline const char *scan_summed_costs(const char *p, uint64_t *sum, uint64_t *cols,
                                            size_t max, size_t *n)
{
    size_t k = 0;
    while (*p == ' ') {
        unsigned d = (unsigned char)(p[1] - '0');
        if (d >= 10 || k == max)
            break; /* blanks that are not one before a number, or too many */
        uint64_t v = d;
        p += 2;
        if ((d = (unsigned char)(*p - '0')) < 10) {
            const char *start = p - 1;
            do {
                v = v * 10 + d;
                d = (unsigned char)(*++p - '0');
            } while (d < 10);
            if (p - start > 19)
                goto give_back;
        }
        uint64_t total;
        if (__builtin_add_overflow(sum[k], v, &total))
            goto give_back;
        sum[k] = total;
        cols[k++] = v;
    }
    if (*p == '\n') {
        *n = k;
        return p;
    }
give_back:
    while (k > 0) { /* the sums as they were */
        k--;
        sum[k] -= cols[k];
    }
    return NULL;
}

/* ---- eight bytes at a time ------------------------------------------------
 *
 * The numbers of a node line are short (most of one digit, nearly all of
 * at most four), so a loop over digits spends most of its instructions
 * on starting and ending numbers: swar.h's word operations find a
 * number's length with no branch per digit.  Little-endian only:
 * elsewhere SWAR_WORDS is 0 and the reader keeps to scan_summed_costs().
 *
 * These read 8 bytes from where a number starts, past the end of the
 * line: the caller makes sure those bytes are in the buffer. */

/* Sums of aligned digits, added bytewise: byte k holds the sum of the
 * digits weighing 10^(7 - k).  A byte holds the digits of LANE_LINES
 * lines (28 * 9 = 252); then the bytes are added into "wide" lanes of 16
 * bits (lane_widen()), which hold WIDE_FLUSHES of those (260 * 252 =
 * 65520), and only then made a number (wide_value()): a few instructions
 * per column every 28 lines, a number every 7280. */
#define LANE_LINES 28
#define WIDE_FLUSHES 260
/* What the lanes can add to a column before they are made a number:
 * that many lines of numbers of at most 7 digits. */
#define LANE_MAX_ADDED ((uint64_t)LANE_LINES * WIDE_FLUSHES * 9999999)

/* A cost column's lanes: the sums of its aligned digits, this line's
 * aligned digits (to give the line back, and to make the node's cost a
 * number), and the wide lanes, 16 bits for each of bytes 0, 2, 4, 6
 * (wide[0]) and 1, 3, 5, 7 (wide[1]).  Side by side: one pointer walks
 * them all. */
struct lane {
    uint64_t sum;
    uint64_t line;
    uint64_t wide[2];
};

static inline void lane_widen(struct lane *l)
{
    l->wide[0] += l->sum & 0x00FF00FF00FF00FFu;
    l->wide[1] += (l->sum >> 8) & 0x00FF00FF00FF00FFu;
    l->sum = 0;
}

/* The number the wide lanes hold (lane_widen() first). */
static inline uint64_t wide_value(const struct lane *l)
{
    uint64_t v = 0;
    for (int i = 0; i < 4; i++) { /* bytes 2i and 2i + 1: weights 10^(7-2i), 10^(6-2i) */
        uint64_t even = (l->wide[0] >> (16 * i)) & 0xFFFF;
        uint64_t odd = (l->wide[1] >> (16 * i)) & 0xFFFF;
        v = v * 100 + even * 10 + odd;
    }
    return v;
}

/* A decimal number of 1 to 4 digits at p (a depth or a function id):
 * returns its end (what follows is the caller's to check), or NULL. */
static inline const char *word_number(const char *p, uint64_t *out)
{
    uint64_t x = load64(p) ^ ASCII_ZEROS;
    size_t len;
    uint64_t y = align_digits(x, nondigit_bytes(x), &len) >> 32;
    if (len - 1 >= 4)
        return NULL;
    /* aligned_value() of at most four digits: two steps of three */
    y = (y * 10 + (y >> 8)) & 0x00FF00FFu;
    *out = (y * 100 + (y >> 16)) & 0xFFFFu;
    return p + len;
}

/* "DEPTH ID" at p, both of 1 to 4 digits, in one load when the id's end
 * is in its 8 bytes (as "17 2345 ": most node lines of a big tree): returns
 * the id's end, or NULL (the caller tries again a number at a time).  The
 * two numbers, aligned in the low and high halves of a word, are made
 * numbers by the two first steps of aligned_value(), which work on the
 * halves apart. */
static inline const char *depth_and_id(const char *p, uint64_t *depth, uint64_t *id)
{
    uint64_t x = load64(p) ^ ASCII_ZEROS;
    /* nondigit_bytes() without its byte 7 forced: the id may end there */
    uint64_t nondigit = ((x + 0x7676767676767676u) | x) & 0x8080808080808080u;
    uint64_t after_depth = nondigit & (nondigit - 1); /* the first one cleared */
    if (!after_depth) /* no end of the id in the load */
        return NULL;
    /* top bits of the bytes after each: 8 * length + 7 */
    unsigned end1 = (unsigned)__builtin_ctzll(nondigit);
    unsigned end2 = (unsigned)__builtin_ctzll(after_depth);
    size_t len1 = end1 / 8, len2 = (end2 - end1) / 8 - 1;
    if (((len1 - 1) | (len2 - 1)) >= 4 || p[len1] != ' ')
        return NULL;
    uint64_t both = ((x << (32 - 8 * len1)) & 0xFFFFFFFFu) |     /* depth to byte 3 */
                    (x >> (end1 + 1)) << (64 - 8 * len2);      /* id to byte 7 */
    both = (both * 10 + (both >> 8)) & 0x00FF00FF00FF00FFu;
    both = (both * 100 + (both >> 16)) & 0x0000FFFF0000FFFFu;
    *depth = both & 0xFFFFu;
    *id = both >> 32;
    return p + len1 + 1 + len2;
}

/* "d d d dX" after xor '0': digits in bytes 0, 2, 4, 6, blanks in 1, 3, 5,
 * and in byte 7, the byte after, a ' ' or '\n', which the caller checks
 * again: here only that it is not a digit (nondigit_bytes() cannot tell
 * for byte 7), with the bits where ' ' and '\n' differ masked out. */
#define FOUR_DIGITS_NONDIGIT 0x8000800080008000u /* bytes 1, 3, 5, 7 */
#define FOUR_DIGITS_BLANKS_MASK 0xD500FF00FF00FF00u
#define FOUR_DIGITS_BLANKS 0x1000100010001000u   /* ' ' ^ '0' */
#define TOP_BYTE 0xFF00000000000000u

/* A whole node line "DEPTH ID C1 C2 ...\n" from p, for the lanes: the
 * depth and id of 1 to 4 digits, the costs of 1 to 7, each number after
 * one ' ', at most max costs.  Sets the depth, the id and *n, adds the
 * k-th cost's aligned digits to lanes[k] and returns the '\n'.  NULL,
 * with the lanes as they were, for anything else (scan_summed_costs()
 * and node_line() take it).
 *
 * One load reads a number and what follows it.  When that is "d d d d"
 * (a third of cc1's costs come in such runs of four one-digit numbers:
 * cache misses, branches), the four are taken at once. */
static inline const char *scan_lane_line(const char *p, struct lane *lanes, size_t max,
                                          uint64_t *depth, uint64_t *id, size_t *n)
{
    const char *t = depth_and_id(p, depth, id);
    if (t) {
        p = t;
    } else {
        p = word_number(p, depth);
        if (!p || *p != ' ' || !(p = word_number(p + 1, id)))
            return NULL;
    }
    struct lane *lane = lanes, *end = lanes + max;
    while (*p == ' ' && lane < end) {
        uint64_t x = load64(p + 1) ^ ASCII_ZEROS;
        uint64_t nondigit = nondigit_bytes(x);
        if (nondigit == FOUR_DIGITS_NONDIGIT && end - lane >= 4 &&
            (x & FOUR_DIGITS_BLANKS_MASK) == FOUR_DIGITS_BLANKS) {
            uint64_t y0 = x << 56, y1 = (x << 40) & TOP_BYTE;
            uint64_t y2 = (x << 24) & TOP_BYTE, y3 = (x << 8) & TOP_BYTE;
            lane[0].sum += y0;
            lane[0].line = y0;
            lane[1].sum += y1;
            lane[1].line = y1;
            lane[2].sum += y2;
            lane[2].line = y2;
            lane[3].sum += y3;
            lane[3].line = y3;
            lane += 4;
            p += 8;
            continue;
        }
        size_t len;
        uint64_t y = align_digits(x, nondigit, &len);
        if (len == 0)
            break;
        lane->sum += y;
        lane->line = y;
        lane++;
        p += 1 + len;
    }
    if (*p == '\n') {
        *n = (size_t)(lane - lanes);
        return p;
    }
    while (lane > lanes) { /* give the line back */
        lane--;
        lane->sum -= lane->line;
    }
    return NULL;
}

#endif
