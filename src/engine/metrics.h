#ifndef CUZK_ENGINE_METRICS_H
#define CUZK_ENGINE_METRICS_H

/* Metrics of an engine for any front end, in the Prometheus text format.
 *
 * The engine feeds them from the same points where it writes its timing
 * events (engine_config.metrics; no event log needed): every span (phase
 * of a partition) and every job line (queued, terminal). From those come
 * counters of jobs and partitions by state per circuit, latency histograms
 * per circuit and phase, and each device's busy time. Rendering adds the
 * gauges of an engine_get_stats snapshot: queue depths, jobs by state,
 * resident circuits and bytes, buffer memory. docs/SERVICE.md lists every
 * series.
 *
 * Feeding is thread-safe and cheap (one mutex, no allocation once a
 * circuit's series exist). The lock order is engine.mu, then the metrics'
 * mutex; rendering takes the engine's snapshot before its own lock. */

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/events.h"

typedef struct engine_metrics engine_metrics;

/* Seconds of the window of cuzk_device_busy_ratio. */
#define ENGINE_METRICS_BUSY_WINDOW_S 60

cuzk_status engine_metrics_create(engine_metrics **out);
void engine_metrics_destroy(engine_metrics *m); /* NULL is fine */

/* A span of one partition (events.h): its duration goes into the
 * histogram of (circuit, name); a span with device >= 0 (backend work)
 * also counts as that device busy. */
void engine_metrics_span(engine_metrics *m, const event_span_rec *s);

/* A job entered `state`: QUEUED at submission, or a terminal state with
 * partitions_done of its partitions done (the others count under the job's
 * state). submit_ns and ts_ns on the monotonic clock. */
void engine_metrics_job(engine_metrics *m, const char *circuit, engine_state state,
                        uint32_t partitions, uint32_t partitions_done, uint64_t submit_ns,
                        uint64_t ts_ns);

/* The whole exposition: the fed series and the gauges of engine e (NULL:
 * none). A malloc'd NUL-terminated text (free()), NULL when out of memory. */
char *engine_metrics_render(engine_metrics *m, engine_t *e);

/* The same from a given snapshot and clock (stats NULL: no gauges); for
 * tests and front ends that already hold a snapshot. */
char *engine_metrics_render_snapshot(engine_metrics *m, const engine_stats *stats,
                                     const engine_circuit_info *circuits, size_t num_circuits,
                                     uint64_t now_ns);

#endif
