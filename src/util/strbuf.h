#ifndef CUZK_UTIL_STRBUF_H
#define CUZK_UTIL_STRBUF_H

/* A growing NUL-terminated text buffer. An allocation failure is sticky:
 * later appends do nothing and strbuf_take returns NULL, so a writer checks
 * once at the end. */

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;
    size_t len, cap;
    bool failed;
} strbuf;

void strbuf_init(strbuf *b);
void strbuf_free(strbuf *b);
void strbuf_append(strbuf *b, const char *s, size_t n);
void strbuf_puts(strbuf *b, const char *s);
void strbuf_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (the caller frees it), or NULL after a failed allocation; b is
 * empty afterwards. */
char *strbuf_take(strbuf *b, size_t *len);

#endif
