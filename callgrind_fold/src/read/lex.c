/* The number scanner shared by the callgrind.out and folded stacks readers
 * (lex.h). */
#include "lex.h"
#include "util/util.h"

/* Parse a decimal or 0x-hexadecimal number filling [p, end) exactly,
 * checking for overflow at every digit (lex.h: parse_number). */
bool parse_number_checked(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    if (p == end)
        return false;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        for (; p < end; p++) {
            unsigned digit;
            if (*p >= '0' && *p <= '9')
                digit = (unsigned)(*p - '0');
            else if (*p >= 'a' && *p <= 'f')
                digit = (unsigned)(*p - 'a' + 10);
            else if (*p >= 'A' && *p <= 'F')
                digit = (unsigned)(*p - 'A' + 10);
            else
                return false;
            if (v >> 60)
                return false;
            v = v << 4 | digit;
        }
    } else {
        for (; p < end; p++) {
            if (*p < '0' || *p > '9')
                return false;
            if (!mul_u64(v, 10, &v) || !add_u64(v, (uint64_t)(*p - '0'), &v))
                return false;
        }
    }
    *out = v;
    return true;
}

/* 0-15 for the hexadecimal digits 0-9, a-f, A-F; 16 for every other byte. */
const unsigned char hex_digit_value[256] = {
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
     0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 16, 16, 16, 16, 16, 16,
    16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
};
