#ifndef CUZK_UTIL_MSG_H
#define CUZK_UTIL_MSG_H

/* The error message every fallible call may fill: formats into msg when
 * msg is not NULL and msg_len not 0 (truncated to fit), else nothing. */

#include <stddef.h>

void msg_set(char *msg, size_t msg_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* One formatted line (up to 1 KiB) to a log callback; nothing when log
 * is NULL. */
void msg_log(void (*log)(void *ctx, const char *line), void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
