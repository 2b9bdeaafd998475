#define _POSIX_C_SOURCE 200809L
#include "backend/backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.h"
#endif

void backend_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || !msg_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

uint64_t backend_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *backend_kind_name(backend_kind kind)
{
    switch (kind) {
    case BACKEND_AUTO:
        return "auto";
    case BACKEND_CPU:
        return "cpu";
    case BACKEND_CUDA:
        return "cuda";
    }
    return "unknown";
}

bool backend_kind_parse(const char *s, backend_kind *out)
{
    static const backend_kind kinds[] = {BACKEND_AUTO, BACKEND_CPU, BACKEND_CUDA};
    for (size_t i = 0; s && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (!strcmp(s, backend_kind_name(kinds[i]))) {
            *out = kinds[i];
            return true;
        }
    }
    return false;
}

/* Why no GPU backend can be had here, in a few words. */
cuzk_status backend_create(backend_t **out, backend_kind kind, const backend_cpu_opts *cpu,
                           char *note, size_t note_len, char *msg, size_t msg_len)
{
    *out = NULL;
    backend_msg(note, note_len, "%s", "");
    char why[256] = "";
    unsigned host_threads = cpu ? cpu->threads : 0;
    switch (kind) {
    case BACKEND_CUDA:
        if (backend_cuda_create(out, host_threads, why, sizeof(why)) == CUZK_OK)
            return CUZK_OK;
        backend_msg(msg, msg_len, "the CUDA backend is not available: %s", why);
        return CUZK_ERR_UNSUPPORTED;
    case BACKEND_AUTO:
        if (backend_cuda_create(out, host_threads, why, sizeof(why)) == CUZK_OK) {
            backend_msg(note, note_len, "proving on %u GPU%s", (*out)->num_devices,
                        (*out)->num_devices == 1 ? "" : "s");
            return CUZK_OK;
        }
        backend_msg(note, note_len, "%s; proving on the CPU", why);
        break;
    case BACKEND_CPU:
        break;
    default:
        backend_msg(msg, msg_len, "unknown backend kind %d", (int)kind);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    backend_cpu_opts def = {0};
    cuzk_status st = backend_cpu_create(out, cpu ? cpu : &def);
    if (st != CUZK_OK)
        backend_msg(msg, msg_len, "cannot create the CPU backend: %s", cuzk_status_str(st));
    return st;
}

static cuzk_status fixed_base_g1(void *ctx, g1_affine_t *out, const fr_t *scalars, size_t n,
                                 char *msg, size_t msg_len)
{
    backend_t *b = ctx;
    return b->fixed_base_g1(b, out, scalars, n, msg, msg_len);
}

static cuzk_status fixed_base_g2(void *ctx, g2_affine_t *out, const fr_t *scalars, size_t n,
                                 char *msg, size_t msg_len)
{
    backend_t *b = ctx;
    return b->fixed_base_g2(b, out, scalars, n, msg, msg_len);
}

bool backend_fixed_base_ops(backend_t *b, groth16_fixed_base_ops *ops)
{
    memset(ops, 0, sizeof(*ops));
    if (!b || (!b->fixed_base_g1 && !b->fixed_base_g2))
        return false;
    ops->g1 = b->fixed_base_g1 ? fixed_base_g1 : NULL;
    ops->g2 = b->fixed_base_g2 ? fixed_base_g2 : NULL;
    ops->ctx = b;
    return true;
}
