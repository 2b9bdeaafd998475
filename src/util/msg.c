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
