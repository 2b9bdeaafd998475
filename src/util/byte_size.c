/* Byte counts written as text (util/byte_size.h). */
#include "util/byte_size.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

bool parse_byte_size(const char *text, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)*text))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return false;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K':
        shift = 10;
        break;
    case 'M':
        shift = 20;
        break;
    case 'G':
        shift = 30;
        break;
    case 'T':
        shift = 40;
        break;
    default:
        break;
    }
    if (shift) {
        end++;
        if (end[0] == 'i' && end[1] == 'B')
            end += 2;
        else if (end[0] == 'B')
            end++;
    } else if (*end == 'B') {
        end++;
    }
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}
