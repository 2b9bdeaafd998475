/* Bearer tokens: loading the server's token and comparing in constant time. */
#define _POSIX_C_SOURCE 200809L
#include "service/auth.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "backend/backend.h"
#include "util/input_file.h"
#include "util/wipe.h"

#define MIN_TOKEN_CHARS 16

cuzk_status auth_load_token(char *out, size_t cap, const char *path, char *msg, size_t msg_len)
{
    char why[512];
    FILE *f = input_file_fopen(path, why, sizeof(why));
    if (!f) {
        backend_msg(msg, msg_len, "token file: %s", why);
        return CUZK_ERR_IO;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0077)) {
        /* A token others can read is no secret. */
        fclose(f);
        backend_msg(msg, msg_len, "%s: the token file is readable by others (chmod 600 it)", path);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    char line[1024];
    bool got = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    size_t n = got ? strlen(line) : 0;
    while (n && isspace((unsigned char)line[n - 1]))
        line[--n] = 0;
    char *start = line;
    while (*start && isspace((unsigned char)*start))
        start++;
    n = strlen(start);
    bool printable = true;
    for (size_t i = 0; i < n; i++)
        printable &= isgraph((unsigned char)start[i]) != 0;
    if (n < MIN_TOKEN_CHARS || n + 1 > cap || !printable) {
        backend_msg(msg, msg_len,
                    "%s: the token must be one line of %d to %zu printable characters without "
                    "spaces",
                    path, MIN_TOKEN_CHARS, cap - 1);
        cuzk_wipe(line, sizeof(line));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    memcpy(out, start, n + 1);
    cuzk_wipe(line, sizeof(line));
    return CUZK_OK;
}

bool auth_equal(const char *a, size_t a_len, const char *b, size_t b_len)
{
    /* Every byte of the longer one is looked at, whatever the contents. */
    size_t n = a_len > b_len ? a_len : b_len;
    volatile unsigned char diff = (unsigned char)(a_len != b_len);
    for (size_t i = 0; i < n; i++) {
        unsigned char x = i < a_len ? (unsigned char)a[i] : 0;
        unsigned char y = i < b_len ? (unsigned char)b[i] : 0;
        diff |= x ^ y;
    }
    return diff == 0;
}

bool auth_check_bearer(const char *header, const char *token)
{
    if (!header || !token || strncasecmp(header, "Bearer ", 7) != 0)
        return false;
    const char *given = header + 7;
    while (*given == ' ')
        given++;
    size_t len = strlen(given);
    while (len && given[len - 1] == ' ')
        len--;
    return auth_equal(given, len, token, strlen(token));
}
