#ifndef CUZK_TELEMETRY_TELEMETRY_H
#define CUZK_TELEMETRY_TELEMETRY_H

/* Device telemetry: a sampler thread that, while a device is in use, reads
 * each device's utilization, power, clock and PCIe throughput every few
 * milliseconds and hands every reading to a sink (the engine's sink writes
 * them as "counter" lines of the event log, docs/TRACE.md).
 *
 *   telemetry.h  the metrics, the source interface, the sampler's API
 *   sampler.c    the thread and its schedule
 *   nvml.c       the NVML source (libnvidia-ml loaded at run time)
 *   fake.c       a scripted source for tests
 *
 * A source reads one metric of one device at a time; the sampler decides
 * when. Times are backend_clock_ns() (CLOCK_MONOTONIC), the clock of every
 * other timing event, so samples and phases share one axis. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef enum telemetry_metric {
    TELEMETRY_SM_UTIL = 0,  /* % of the sample period in which a kernel ran */
    TELEMETRY_MEM_UTIL,     /* % of the sample period in which device memory was read or written */
    TELEMETRY_POWER_W,      /* board power draw, watts */
    TELEMETRY_SM_CLOCK_MHZ, /* current SM clock */
    TELEMETRY_PCIE_RX_BPS,  /* bytes/s received by the device over PCIe (host to device) */
    TELEMETRY_PCIE_TX_BPS,  /* bytes/s sent by the device over PCIe (device to host) */
    TELEMETRY_METRIC_COUNT
} telemetry_metric;

/* The counter name in the event log: "sm_util", "mem_util", "power_w",
 * "sm_clock_mhz", "pcie_rx_bps", "pcie_tx_bps". */
const char *telemetry_metric_name(telemetry_metric m);

/* ----------------------------------------------------------- sources */

typedef struct telemetry_source telemetry_source;
struct telemetry_source {
    const char *name;  /* "nvml", "fake" */
    unsigned devices;  /* readable devices: 0 .. devices - 1 (the engine's device numbers) */
    uint32_t slow;     /* bit m set: reading metric m blocks for a while (NVML's PCIe
                          counters measure over 20 ms); the sampler reads those in turn */
    void *impl;
    /* One reading, logged at ts_ns (the clock just before the call). Rates
     * measured over a window (NVML's PCIe counters) start their window
     * there. CUZK_ERR_UNSUPPORTED: the device cannot report this metric
     * (the sampler stops asking); another error: no value this time. */
    cuzk_status (*read)(telemetry_source *s, unsigned device, telemetry_metric m, uint64_t ts_ns,
                        double *value);
    void (*destroy)(telemetry_source *s);
};

/* The NVML source for `devices` devices. library: the file to dlopen; NULL
 * takes $CUZK_NVML_LIBRARY, else "libnvidia-ml.so.1". When NVML cannot be
 * loaded or initialized, or has fewer devices than asked, returns
 * CUZK_ERR_UNSUPPORTED with the reason in why. Engine device d is the d-th
 * entry of $CUDA_VISIBLE_DEVICES when that is set (an index or a GPU UUID),
 * else NVML device d. */
cuzk_status telemetry_nvml_open(telemetry_source **out, const char *library, unsigned devices,
                                char *why, size_t why_len);

/* The fake source: value(ctx, device, metric, ts_ns) gives every reading
 * (ts_ns: the time the sample is logged at, so a script keyed on time is
 * exact); NULL value: a steady busy
 * device (sm_util 100, mem_util 50, power_w 300, sm_clock_mhz 1980, PCIe
 * 0). unsupported: bit m set makes metric m CUZK_ERR_UNSUPPORTED. */
typedef double (*telemetry_fake_fn)(void *ctx, unsigned device, telemetry_metric m,
                                    uint64_t ts_ns);
typedef struct telemetry_fake_opts {
    unsigned devices;
    telemetry_fake_fn value;
    void *ctx;
    uint32_t unsupported;
    uint32_t slow;
} telemetry_fake_opts;

cuzk_status telemetry_fake_create(telemetry_source **out, const telemetry_fake_opts *opts);
/* Readings served so far (tests). */
uint64_t telemetry_fake_reads(const telemetry_source *s);

/* ----------------------------------------------------------- sampler */

/* Where each reading goes: (name, device, when, value). Called from the
 * sampler thread only. */
typedef void (*telemetry_sink_fn)(void *ctx, const char *name, int device, uint64_t ts_ns,
                                  double value);

typedef struct telemetry_sampler_opts {
    unsigned interval_ms; /* between two rounds of readings; clamped to 1 .. 1000 */
    unsigned linger_ms;   /* keep sampling this long after the last release (gaps between
                             partitions stay covered); then one last round and sleep */
    bool own_source;      /* stop destroys the source */
} telemetry_sampler_opts;

typedef struct telemetry_sampler telemetry_sampler;

/* Starts the thread (idle until the first hold). */
cuzk_status telemetry_sampler_start(telemetry_sampler **out, telemetry_source *src,
                                    const telemetry_sampler_opts *opts, telemetry_sink_fn sink,
                                    void *sink_ctx);
/* A device went into use / out of use. Sampling runs while any hold is
 * held and linger_ms after; the first hold of a run samples at once.
 * NULL is a no-op. */
void telemetry_sampler_hold(telemetry_sampler *s);
void telemetry_sampler_release(telemetry_sampler *s);
/* Takes one last round if sampling, joins the thread, frees (NULL is fine). */
void telemetry_sampler_stop(telemetry_sampler *s);
/* Rounds taken so far (tests). */
uint64_t telemetry_sampler_rounds(telemetry_sampler *s);

#endif
