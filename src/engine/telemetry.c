/* The engine's side of device telemetry and transfer accounting: starts
 * the sampler (src/telemetry/) when there is a log to write into and a GPU
 * to read, writes its readings and the backend's copies as events, and
 * says once, on stderr and in the log, when telemetry is off and why. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "engine/internal.h"
#include "engine/metrics.h"
#include "telemetry/telemetry.h"

/* Sampling goes on this long after the last prove() returns, so the short
 * gaps between partitions are covered; longer ones get one idle reading. */
#define TELEMETRY_LINGER_MS 1000

static void write_sample(void *ctx, const char *name, int device, uint64_t ts_ns, double value)
{
    engine *e = ctx;
    event_counter(e->log, name, device, ts_ns, value);
}

static void say_off(engine *e, const char *reason)
{
    if (!e->cfg.quiet)
        fprintf(stderr, "cuzk: device telemetry off: %s\n", reason);
    event_telemetry(e->log, false, "", 0, e->cfg.telemetry_interval_ms, reason);
}

void engine_telemetry_start(engine *e)
{
    const engine_config *c = &e->cfg;
    /* Off, or nowhere to write: no thread, no line. */
    if (!c->telemetry_interval_ms || !event_log_on(e->log))
        return;
    backend_t *b = e->backends[0];
    telemetry_source *src = c->telemetry_source;
    bool own = false;
    char why[256] = "";
    if (!src) {
        /* The CPU backend has no device to read: nothing to say either. */
        if (b->is_cpu)
            return;
        if (telemetry_nvml_open(&src, NULL, b->num_devices, why, sizeof(why)) != CUZK_OK) {
            say_off(e, why[0] ? why : "NVML is not available");
            return;
        }
        own = true;
    }
    telemetry_sampler_opts o = {.interval_ms = c->telemetry_interval_ms,
                                .linger_ms = TELEMETRY_LINGER_MS,
                                .own_source = own};
    if (telemetry_sampler_start(&e->sampler, src, &o, write_sample, e) != CUZK_OK) {
        if (own)
            src->destroy(src);
        say_off(e, "cannot start the sampler thread");
        return;
    }
    event_telemetry(e->log, true, src->name, src->devices, c->telemetry_interval_ms, "");
}

void engine_telemetry_stop(engine *e)
{
    telemetry_sampler_stop(e->sampler);
    e->sampler = NULL;
}

void engine_telemetry_hold(engine *e, bool in_use)
{
    if (in_use)
        telemetry_sampler_hold(e->sampler);
    else
        telemetry_sampler_release(e->sampler);
}

void engine_copy_span(engine *e, const job *j, uint32_t idx, const char *who, int device,
                      const backend_copy *cp)
{
    if (!event_log_on(e->log) && !e->cfg.metrics)
        return;
    bool h2d = cp->dir == BACKEND_COPY_H2D;
    event_span_rec s = {.name = h2d ? "upload" : "download",
                        .cat = "copy",
                        .job = j->id,
                        .partition = idx,
                        .circuit = j->c->name,
                        .worker = who,
                        .device = device,
                        .start_ns = cp->start_ns,
                        .end_ns = cp->end_ns < cp->start_ns ? cp->start_ns : cp->end_ns,
                        .bytes = cp->bytes,
                        .dir = h2d ? "h2d" : "d2h",
                        .stream = cp->stream,
                        .what = cp->what};
    event_span(e->log, &s);
    engine_metrics_span(e->cfg.metrics, &s);
}
