#ifndef CUZK_SERVICE_INTERNAL_H
#define CUZK_SERVICE_INTERNAL_H

/* The service's insides, shared by its files:
 *   service.c   start, stop, log
 *   listen.c    the listening sockets
 *   auth.c      bearer tokens
 *   http.c      the transport (libmicrohttpd), limits, authentication
 *   routes.c    the endpoints
 *   request.c   JSON request bodies and streamed witnesses into engine specs
 *   confine.c   client-named files opened beneath the server's folders
 *   ledger.c    unfinished jobs against their bounds, their open files
 *   durable.c   jobs in the job store: public ids, the writer, recovery
 *   cluster.c   a host's claims on a store that several hosts share
 *   cluster_view.c  the cluster in status and metrics
 *   views.c     jobs, circuits and status as JSON
 *   snarkjs_view.c  a job's result as snarkjs's proof.json and public.json */

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "service/cluster.h"
#include "service/confine.h"
#include "service/durable.h"
#include "service/http.h"
#include "service/ledger.h"
#include "service/service.h"

struct service {
    engine_t *engine;
    engine_metrics *metrics;
    double max_wait_s;
    http_server *http;
    FILE *log;
    pthread_mutex_t log_mu;
    atomic_bool closing;
    char *socket_path;       /* the socket file this service made; removed at stop */
    confine_dir witness_dir; /* server.witness_dir; fd -1 when unset */
    confine_dir circuit_dir; /* server.circuit_dir; fd -1 when unset */
    /* server.witness_spill_dir (fd -1 when unset): with a shared store,
     * streamed witnesses over witness_inline_max bytes are kept there
     * (service/spill.h) */
    confine_dir spill_dir;
    uint64_t witness_inline_max;
    bool fixed_blinding;       /* server.insecure_fixed_blinding: submissions may fix r, s */
    ledger queued;             /* unfinished jobs against server.max_queued_* */
    durable *jobs;             /* the job store and the public ids */
    cluster *cluster;          /* the claimer, when hosts share the store; NULL: none */
    pthread_mutex_t submit_mu; /* keyed submissions, one at a time */
    /* Circuit files registered from the circuit folder, open for as long as
     * the engine may load them (the service's life). */
    pthread_mutex_t circuit_fds_mu;
    int *circuit_fds;
    size_t num_circuit_fds;
    uint64_t started_ns;
    double wall_minus_mono; /* realtime - monotonic, seconds: job times as Unix time */
};

/* service.c: the service's state without listeners or an HTTP server
 * (service_start adds them; the route fuzzer uses it alone), and its
 * release. */
cuzk_status service_create(service **out, const service_opts *o, char *msg, size_t msg_len);
/* Opens the job store (server.state_dir) and recovers its jobs into the
 * engine: service_start does it once its sockets are bound; the fuzz
 * harness of the routes right after service_create. */
cuzk_status service_open_store(service *s, const service_opts *o, char *msg, size_t msg_len);
void service_destroy(service *s);

/* routes.c */
void routes_handle(service *s, const http_request *rq, http_response *rs);

/* views.c: JSON objects (new references) */
/* What a job's view takes besides the engine's record: its public id and
 * its times (Unix seconds; finished_at 0 while unfinished). */
typedef struct job_times {
    const char *id;
    double submitted_at, finished_at;
    curve_id curve; /* its circuit's: the size and form of its proofs */
} job_times;
json_t *view_job(const service *s, const job_times *t, const engine_job_info *info,
                 const engine_state *parts, uint32_t num_parts, const uint8_t *proof,
                 size_t proof_len);
json_t *view_circuit(const engine_circuit_info *ci);
json_t *view_status(service *s);
/* cluster_view.c: the cluster's part of the status (NULL: no cluster),
 * and the metrics text with the cluster's appended (text is taken;
 * NULL when out of memory). */
json_t *view_cluster(service *s);
char *view_cluster_metrics(service *s, char *text);
/* Seconds on the monotonic clock as Unix time. */
double view_unix_time(const service *s, uint64_t mono_ns);

#endif
