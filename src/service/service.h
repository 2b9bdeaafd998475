#ifndef CUZK_SERVICE_SERVICE_H
#define CUZK_SERVICE_SERVICE_H

/* `cuzk serve`'s HTTP/JSON front end of an engine (docs/SERVICE.md has the
 * API). The caller owns the engine and the metrics and decides when to
 * shut them down; the service only answers requests:
 *
 *   service_start            open the job store and resume its jobs (the
 *                            engine's circuits must be registered), listen
 *                            (Unix socket, TCP with a token)
 *   service_close_submissions new jobs get 503; queries, awaits go on; jobs
 *                            the engine cancels from now on stay unfinished
 *                            in the store and run again at the next start
 *   service_stop             stop listening, remove the socket file
 */

#include <stdio.h>

#include "config/config.h"
#include "engine/engine.h"
#include "engine/metrics.h"

typedef struct service service;

typedef struct service_opts {
    engine_t *engine;
    engine_metrics *metrics;     /* may be NULL: /metrics then has the gauges only */
    const server_config *server; /* copied where needed */
    FILE *log;                   /* request and lifecycle lines; NULL: none */
    uint64_t keep_finished;      /* finished jobs the job store keeps (engine.keep_finished) */
} service_opts;

cuzk_status service_start(service **out, const service_opts *opts, char *msg, size_t msg_len);
void service_close_submissions(service *s);
void service_stop(service *s);

/* One line to the log, with a timestamp (thread-safe; no-op without a log). */
void service_log(service *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text as one log line's piece: bytes other than printable ASCII as \xHH,
 * a backslash as \\ (what service_log does to every line). */
void service_log_escape(char *out, size_t cap, const char *text);

#endif
