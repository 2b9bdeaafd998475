/* A scripted telemetry source for tests and machines without NVML: every
 * reading comes from a caller's function of (device, metric, time), or, by
 * default, from a steady busy device. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdlib.h>

#include "telemetry/telemetry.h"

typedef struct fake_source {
    telemetry_source base;
    telemetry_fake_opts opt;
    atomic_uint_fast64_t reads;
} fake_source;

static double steady_busy(telemetry_metric m)
{
    switch (m) {
    case TELEMETRY_SM_UTIL:
        return 100;
    case TELEMETRY_MEM_UTIL:
        return 50;
    case TELEMETRY_POWER_W:
        return 300;
    case TELEMETRY_SM_CLOCK_MHZ:
        return 1980;
    default:
        return 0;
    }
}

static cuzk_status fake_read(telemetry_source *s, unsigned device, telemetry_metric m,
                             uint64_t ts_ns, double *value)
{
    fake_source *f = s->impl;
    if (device >= s->devices || (unsigned)m >= TELEMETRY_METRIC_COUNT)
        return CUZK_ERR_INVALID_ARGUMENT;
    if ((f->opt.unsupported >> m) & 1u)
        return CUZK_ERR_UNSUPPORTED;
    atomic_fetch_add(&f->reads, 1);
    *value = f->opt.value ? f->opt.value(f->opt.ctx, device, m, ts_ns)
                          : steady_busy(m);
    return CUZK_OK;
}

static void fake_destroy(telemetry_source *s)
{
    free(s->impl);
}

cuzk_status telemetry_fake_create(telemetry_source **out, const telemetry_fake_opts *opts)
{
    *out = NULL;
    if (!opts || !opts->devices)
        return CUZK_ERR_INVALID_ARGUMENT;
    fake_source *f = calloc(1, sizeof(*f));
    if (!f)
        return CUZK_ERR_OUT_OF_MEMORY;
    f->opt = *opts;
    atomic_init(&f->reads, 0);
    f->base = (telemetry_source){.name = "fake",
                                 .devices = opts->devices,
                                 .slow = opts->slow,
                                 .impl = f,
                                 .read = fake_read,
                                 .destroy = fake_destroy};
    *out = &f->base;
    return CUZK_OK;
}

uint64_t telemetry_fake_reads(const telemetry_source *s)
{
    fake_source *f = s->impl;
    return (uint64_t)atomic_load(&f->reads);
}
