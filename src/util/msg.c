#include "util/msg.h"

#include <stdarg.h>
#include <stdio.h>

void msg_set(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || !msg_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

void msg_log(void (*log)(void *ctx, const char *line), void *ctx, const char *fmt, ...)
{
    if (!log)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    log(ctx, line);
}
