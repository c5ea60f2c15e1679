/* Word-at-a-time ("SWAR") helpers shared by the readers' fast tiers: the
 * folded tree's node lines (treescan.h) and callgrind.out's 64-byte
 * blocks (costblocks.h).  One 8-byte load finds a decimal number's length
 * (its first byte that is not a digit) and value with a few word
 * operations and no branch per digit.  Little-endian only: elsewhere
 * SWAR_WORDS is 0 and the callers keep to their byte loops.
 *
 * These read 8 bytes from where a number starts, past the end of the
 * line: the caller makes sure those bytes are in the buffer. */
#ifndef CF_READ_SWAR_H
#define CF_READ_SWAR_H

#include <stddef.h>
#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_WORDS 1
#else
#define SWAR_WORDS 0
#endif

/* The top bit of each byte of x that is not 0..9, x being bytes of text
 * xor '0' (so digits are 0..9): 0..9 + 0x76 stays below 0x80, 10..0x7f
 * reach it, and 0x80.. have it already.  A carry out of a byte only
 * comes from a non-digit, so it cannot hide the first one.
 *
 * Byte 7 always counts as a non-digit (+ 0x80 sets its top bit, unless a
 * non-digit before it carried into it): a number read from one load has
 * at most 7 digits, and the result is never 0, which __builtin_ctzll()
 * needs.  Whether byte 7 really ends the number is the caller's to check,
 * as for every number: it tests the byte after. */
static inline uint64_t nondigit_bytes(uint64_t x)
{
    return ((x + 0x8076767676767676u) | x) & 0x8080808080808080u;
}

/* x (text xor '0') holds a number from its byte 0: returns it as
 * "aligned digits", its last digit in byte 7, the tens in byte 6, ...
 * and 0 in the bytes above its first digit; so the k-th byte always
 * weighs 10^(7 - k), whatever the number's length, and such words can be
 * added byte by byte.  *len is the number of digits, 0 to 7 (with 7 the
 * byte after may be a digit too: see nondigit_bytes()). */
static inline uint64_t align_digits(uint64_t x, uint64_t nondigit, size_t *len)
{
    /* bit 8 * len + 7: the first non-digit's top bit */
    unsigned top = (unsigned)__builtin_ctzll(nondigit);
    *len = top / 8;
    return x << (top ^ 63) << 8; /* by 64 - 8 * len in two shifts: 0 digits give 0 */
}

#define ASCII_ZEROS 0x3030303030303030u

/* The value of aligned digits with 0..9 in each byte. */
static inline uint64_t aligned_value(uint64_t y)
{
    y = (y * 10 + (y >> 8)) & 0x00FF00FF00FF00FFu;      /* pairs of digits */
    y = (y * 100 + (y >> 16)) & 0x0000FFFF0000FFFFu;    /* fours */
    return (y * 10000 + (y >> 32)) & 0xFFFFFFFFu;
}

#endif
