/* The public API's messages, versions and small helpers. A message lives
 * in thread-local storage: each thread reads its own last call's message,
 * whatever engine it used, and calls without a handle report the same
 * way (cuzk.h says why this and not a message per engine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "field/scalar_slots.h"

static _Thread_local char last_error[1024];

const char *cuzk_last_error(void)
{
    return last_error;
}

static void vset(const char *fn, const char *fmt, va_list ap)
{
    int n = snprintf(last_error, sizeof(last_error), "%s: ", fn);
    if (n < 0 || (size_t)n >= sizeof(last_error))
        return;
    vsnprintf(last_error + n, sizeof(last_error) - (size_t)n, fmt, ap);
}

cuzk_status api_fail(cuzk_status st, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(fn, fmt, ap);
    va_end(ap);
    return st;
}

cuzk_status api_ok(void)
{
    last_error[0] = 0;
    return CUZK_OK;
}

cuzk_status api_fail_msg(cuzk_status st, const char *fn, const char *what, const char *msg)
{
    return api_fail(st, fn, "%s: %s", what, msg && msg[0] ? msg : cuzk_status_str(st));
}

cuzk_status api_read_versioned(void *dst, size_t dst_size, const void *src, const char *fn,
                               const char *arg)
{
    size_t size;
    memcpy(&size, src, sizeof(size));
    if (size < sizeof(size_t) + sizeof(int))
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "%s->size is %zu: set it with the _init function (sizeof is %zu)", arg,
                        size, dst_size);
    if (size > dst_size) {
        const unsigned char *tail = (const unsigned char *)src + dst_size;
        for (size_t i = 0; i < size - dst_size; i++)
            if (tail[i])
                return api_fail(CUZK_ERR_UNSUPPORTED, fn,
                                "%s->size is %zu, this library knows %zu bytes and a field "
                                "beyond them is set (a newer cuzk.h than the library)",
                                arg, size, dst_size);
        size = dst_size;
    }
    memcpy(dst, src, size);
    return CUZK_OK;
}

const char *cuzk_version(void)
{
    return CUZK_VERSION;
}

int cuzk_api_version(void)
{
    return CUZK_API_VERSION;
}

void cuzk_free(void *p)
{
    free(p);
}

bool api_fr_in(curve_id curve, fr_t *out, const cuzk_fr *in)
{
    if (curve == CURVE_BN254)
        return bn254_fr_from_bytes_le(bn254_fr_slots(out), in->bytes);
    return fr_from_bytes_le(out, in->bytes);
}

void api_fr_out(curve_id curve, cuzk_fr *out, const fr_t *in)
{
    if (curve == CURVE_BN254)
        bn254_fr_to_bytes_le(out->bytes, bn254_fr_slots_const(in));
    else
        fr_to_bytes_le(out->bytes, in);
}

bool api_fr_is_one(curve_id curve, const fr_t *v)
{
    return curve == CURVE_BN254 ? bn254_fr_is_one(bn254_fr_slots_const(v)) : fr_is_one(v);
}
