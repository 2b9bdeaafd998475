#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(strbuf *b)
{
    memset(b, 0, sizeof(*b));
}

void strbuf_free(strbuf *b)
{
    free(b->data);
    strbuf_init(b);
}

static bool reserve(strbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

void strbuf_append(strbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void strbuf_puts(strbuf *b, const char *s)
{
    strbuf_append(b, s, strlen(s));
}

void strbuf_printf(strbuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        strbuf_append(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *strbuf_take(strbuf *b, size_t *len)
{
    if (b->failed || !reserve(b, 0)) {
        strbuf_free(b);
        return NULL;
    }
    char *s = b->data;
    if (len)
        *len = b->len;
    strbuf_init(b);
    return s;
}
