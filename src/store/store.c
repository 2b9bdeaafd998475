/* What every job store shares: ids, keys, the state folder
 * (store/store.h). */
#define _GNU_SOURCE
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

bool store_new_id(char out[STORE_ID_CHARS + 1])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t b[STORE_ID_CHARS / 2];
    size_t got = 0;
    while (got < sizeof(b)) {
        ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof(b); i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[STORE_ID_CHARS] = 0;
    return true;
}

bool store_id_valid(const char *text)
{
    size_t n = 0;
    for (; text && text[n]; n++)
        if (!((text[n] >= '0' && text[n] <= '9') || (text[n] >= 'a' && text[n] <= 'f')))
            return false;
    return n == STORE_ID_CHARS;
}

bool store_key_valid(const char *text)
{
    size_t n = 0;
    for (; text && text[n]; n++)
        if (text[n] < 0x21 || text[n] > 0x7e)
            return false;
    return n >= 1 && n <= STORE_KEY_MAX;
}

void store_partitions_free(store_partition *parts, uint32_t n)
{
    for (uint32_t i = 0; parts && i < n; i++) {
        free(parts[i].wtns_path);
        free(parts[i].witness);
        free(parts[i].pub);
    }
    free(parts);
}

void store_default_dir(char *out, size_t cap)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (state && *state == '/')
        snprintf(out, cap, "%s/cuzk", state);
    else
        snprintf(out, cap, "%s/.local/state/cuzk", home && *home ? home : ".");
}
