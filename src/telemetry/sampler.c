/* The sampler thread. It sleeps on a condition variable while no device is
 * held (no wake-ups, no readings), and while one is, takes a round every
 * interval: every fast metric of every device, then one slow (device,
 * metric) pair in turn, so that a metric whose read blocks (NVML's PCIe
 * counters, 20 ms each) stretches a round by one such read at most. When
 * the schedule falls behind it skips the missed rounds rather than bursting. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "telemetry/telemetry.h"

struct telemetry_sampler {
    telemetry_source *src;
    telemetry_sampler_opts opt;
    telemetry_sink_fn sink;
    void *sink_ctx;
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned holds;
    uint64_t linger_until; /* after the last release */
    bool stopping;
    uint64_t rounds;
    /* Sampler thread only: */
    bool *unsupported; /* devices × metrics */
    unsigned slow_next; /* rotation over slow (device, metric) pairs */
};

const char *telemetry_metric_name(telemetry_metric m)
{
    static const char *const names[TELEMETRY_METRIC_COUNT] = {
        "sm_util", "mem_util", "power_w", "sm_clock_mhz", "pcie_rx_bps", "pcie_tx_bps"};
    return (unsigned)m < TELEMETRY_METRIC_COUNT ? names[m] : "unknown";
}

static void read_one(telemetry_sampler *s, unsigned dev, telemetry_metric m)
{
    bool *off = &s->unsupported[dev * TELEMETRY_METRIC_COUNT + m];
    if (*off)
        return;
    uint64_t ts = backend_clock_ns();
    double v = 0;
    cuzk_status st = s->src->read(s->src, dev, m, ts, &v);
    if (st == CUZK_ERR_UNSUPPORTED)
        *off = true;
    else if (st == CUZK_OK)
        s->sink(s->sink_ctx, telemetry_metric_name(m), (int)dev, ts, v);
}

static bool is_slow(const telemetry_sampler *s, unsigned m)
{
    return (s->src->slow >> m) & 1u;
}

static void round_of_readings(telemetry_sampler *s)
{
    unsigned devs = s->src->devices, slow_pairs = 0;
    for (unsigned d = 0; d < devs; d++)
        for (unsigned m = 0; m < TELEMETRY_METRIC_COUNT; m++) {
            if (is_slow(s, m))
                slow_pairs++;
            else
                read_one(s, d, (telemetry_metric)m);
        }
    /* One slow pair per round; unsupported pairs are passed over (at most
     * one full turn, so a source whose slow metrics all fail costs nothing). */
    for (unsigned tries = 0; tries < slow_pairs; tries++) {
        unsigned k = s->slow_next++ % slow_pairs, d = 0, m = 0, seen = 0;
        for (d = 0; d < devs; d++) {
            for (m = 0; m < TELEMETRY_METRIC_COUNT; m++)
                if (is_slow(s, m) && seen++ == k)
                    break;
            if (m < TELEMETRY_METRIC_COUNT)
                break;
        }
        if (s->unsupported[d * TELEMETRY_METRIC_COUNT + m])
            continue;
        read_one(s, d, (telemetry_metric)m);
        break;
    }
}

static void deadline(struct timespec *ts, uint64_t ns)
{
    ts->tv_sec = (time_t)(ns / 1000000000u);
    ts->tv_nsec = (long)(ns % 1000000000u);
}

static void *sampler_main(void *arg)
{
    telemetry_sampler *s = arg;
    uint64_t interval = (uint64_t)s->opt.interval_ms * 1000000u;
    uint64_t next = 0;
    bool sampling = false;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        uint64_t now = backend_clock_ns();
        bool wanted = s->holds > 0 || now < s->linger_until;
        if (s->stopping || !wanted) {
            if (sampling) {
                /* The last round shows the device going idle; that value
                 * holds until sampling resumes. */
                sampling = false;
                pthread_mutex_unlock(&s->mu);
                round_of_readings(s);
                pthread_mutex_lock(&s->mu);
                s->rounds++;
                continue;
            }
            if (s->stopping)
                break;
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        if (!sampling) {
            sampling = true;
            next = now;
        }
        if (now < next) {
            struct timespec until;
            /* Wake at the next round, or at the end of the linger. */
            uint64_t wake = next;
            if (!s->holds && s->linger_until < wake)
                wake = s->linger_until;
            deadline(&until, wake);
            pthread_cond_timedwait(&s->cv, &s->mu, &until);
            continue;
        }
        pthread_mutex_unlock(&s->mu);
        round_of_readings(s);
        pthread_mutex_lock(&s->mu);
        s->rounds++;
        next += interval;
        now = backend_clock_ns();
        if (next <= now)
            next = now + (interval ? interval : 1); /* behind: skip, do not burst */
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

cuzk_status telemetry_sampler_start(telemetry_sampler **out, telemetry_source *src,
                                    const telemetry_sampler_opts *opts, telemetry_sink_fn sink,
                                    void *sink_ctx)
{
    *out = NULL;
    if (!src || !src->read || !sink || !opts)
        return CUZK_ERR_INVALID_ARGUMENT;
    telemetry_sampler *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->unsupported = calloc((size_t)src->devices * TELEMETRY_METRIC_COUNT + 1, sizeof(bool));
    if (!s->unsupported) {
        free(s);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    s->src = src;
    s->opt = *opts;
    if (s->opt.interval_ms < 1)
        s->opt.interval_ms = 1;
    if (s->opt.interval_ms > 1000)
        s->opt.interval_ms = 1000;
    s->sink = sink;
    s->sink_ctx = sink_ctx;
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* deadlines are backend_clock_ns() */
    pthread_cond_init(&s->cv, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&s->tid, NULL, sampler_main, s) != 0) {
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->mu);
        free(s->unsupported);
        free(s);
        return CUZK_ERR_INTERNAL;
    }
    *out = s;
    return CUZK_OK;
}

void telemetry_sampler_hold(telemetry_sampler *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    if (s->holds++ == 0)
        pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void telemetry_sampler_release(telemetry_sampler *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    if (s->holds && --s->holds == 0) {
        s->linger_until = backend_clock_ns() + (uint64_t)s->opt.linger_ms * 1000000u;
        pthread_cond_signal(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
}

uint64_t telemetry_sampler_rounds(telemetry_sampler *s)
{
    pthread_mutex_lock(&s->mu);
    uint64_t r = s->rounds;
    pthread_mutex_unlock(&s->mu);
    return r;
}

void telemetry_sampler_stop(telemetry_sampler *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stopping = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->tid, NULL);
    if (s->opt.own_source && s->src->destroy)
        s->src->destroy(s->src);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s->unsupported);
    free(s);
}
