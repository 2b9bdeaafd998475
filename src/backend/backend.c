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
static const char *no_gpu_reason(void)
{
#ifdef CUZK_HAVE_CUDA
    const char *why = NULL;
    int n = cuda_device_count(&why);
    if (n <= 0)
        return why && *why ? why : "no CUDA device found";
    /* Devices are there; the CUDA prover backend is not part of this build
     * yet, so the kernels cannot be driven from the engine. */
    return "the CUDA prover backend is not built yet";
#else
    return "no GPU backend is compiled in";
#endif
}

cuzk_status backend_create(backend_t **out, backend_kind kind, const backend_cpu_opts *cpu,
                           char *note, size_t note_len, char *msg, size_t msg_len)
{
    *out = NULL;
    backend_msg(note, note_len, "%s", "");
    switch (kind) {
    case BACKEND_CUDA:
        backend_msg(msg, msg_len, "the CUDA backend is not available: %s", no_gpu_reason());
        return CUZK_ERR_UNSUPPORTED;
    case BACKEND_AUTO:
        backend_msg(note, note_len, "%s; proving on the CPU", no_gpu_reason());
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
