#ifndef CUZK_ENGINE_EVENTS_H
#define CUZK_ENGINE_EVENTS_H

/* The engine's timing events: JSON lines, one object per line, times on the
 * monotonic clock in ns (backend_clock_ns). `cuzk trace` reads them, so the
 * format is fixed (docs/ENGINE.md):
 *
 *   {"type":"meta","clock":"monotonic","t0_ns":..,"pid":..,"host":"..","version":".."}
 *   {"type":"span","name":"<phase>","cat":"queue|cpu|gpu|copy","job":..,
 *    "partition":..,"circuit":"..","worker":"..","device":..,"start_ns":..,
 *    "end_ns":..,"bytes":..}
 *   {"type":"job","job":..,"circuit":"..","state":"queued|done|failed|cancelled",
 *    "ts_ns":..,"partitions":..,"priority":"..","message":".."}
 *   {"type":"counter","name":"..","device":..,"ts_ns":..,"value":..}
 *   {"type":"telemetry","state":"on|off","source":"..","devices":..,
 *    "interval_ms":..,"reason":".."}
 *
 * A copy span (cat "copy") may add "dir":"h2d|d2h","stream":..,"what":"..".
 *
 * Lines are formatted outside the lock and written whole under one mutex
 * into a buffered stream, flushed when a job finishes and at close. Every
 * function is a no-op on a NULL log. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef struct event_log event_log;

/* Creates (truncates) path and writes the meta line. */
cuzk_status event_log_open(event_log **out, const char *path, char *msg, size_t msg_len);
/* Flushes and closes (NULL is fine). */
void event_log_close(event_log *log);
void event_log_flush(event_log *log);

typedef struct event_span_rec {
    const char *name; /* queue_wait, synthesize, eval_abc, h, msm_*, assemble, verify, ... */
    const char *cat;  /* queue, cpu, gpu, copy */
    uint64_t job;
    uint32_t partition;
    const char *circuit;
    const char *worker; /* synth-0, dev0-w1, final-0 */
    int device;         /* -1 for CPU stages */
    uint64_t start_ns, end_ns, bytes;
    const char *dir;  /* copies: "h2d" or "d2h"; NULL: no dir, stream, what fields */
    int stream;       /* copies: the backend's stream number on the device */
    const char *what; /* copies: what was moved */
} event_span_rec;

void event_span(event_log *log, const event_span_rec *s);
/* label: the caller's name of the job (NULL or empty: none). */
void event_job(event_log *log, uint64_t job, const char *label, const char *circuit,
               const char *state, uint64_t ts_ns, uint32_t partitions, const char *priority,
               const char *message);
void event_counter(event_log *log, const char *name, int device, uint64_t ts_ns, double value);
/* Whether device telemetry runs, with which source, or why not. */
void event_telemetry(event_log *log, bool on, const char *source, unsigned devices,
                     unsigned interval_ms, const char *reason);

/* Whether events are being written (a cheap test before preparing one). */
static inline int event_log_on(const event_log *log)
{
    return log != NULL;
}

#endif
