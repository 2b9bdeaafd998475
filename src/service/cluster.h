#ifndef CUZK_SERVICE_CLUSTER_H
#define CUZK_SERVICE_CLUSTER_H

/* A host's share of the queue of a store that several hosts use
 * (store_cluster_ops; docs/CLUSTER.md). One thread:
 *
 *   - claims partitions of jobs of the circuits the engine has
 *     registered, while the engine has room (in flight here below its
 *     queue bound plus its provers), each as an engine job of its own
 *     (the job's other partitions given as done: the engine knows nothing
 *     of the store);
 *   - writes each proof to the store as the engine tells it, and each
 *     failure (counted towards the retry limit) or a lease given up;
 *     what cannot be written now (the database away) is kept and retried
 *     until it is;
 *   - beats: renews its leases and its row in the hosts table;
 *   - cancels the engine jobs whose store job became final elsewhere (a
 *     cancel on another host), on the store's notification.
 *
 * The engine's observer is the cluster's while it runs. */

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "service/confine.h"
#include "store/store.h"

typedef struct cluster cluster;

typedef struct cluster_opts {
    store *st; /* with store_cluster(st) */
    engine_t *engine;
    const char *host; /* NULL or "": hostname/pid */
    double lease_s;
    uint32_t retries;
    const confine_dir *witness_dir; /* NULL: none */
    const confine_dir *spill_dir;   /* server.witness_spill_dir; NULL: none */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} cluster_opts;

cuzk_status cluster_start(cluster **out, const cluster_opts *o, char *msg, size_t msg_len);
/* Claims nothing more (a drain); what is claimed goes on. */
void cluster_drain(cluster *c);
/* After the engine stopped: writes what is left to write (for a few
 * seconds at most), gives up the leases of what was not proved, removes
 * the host's record, stops the thread. */
void cluster_stop(cluster *c);

/* What status and metrics show. */
typedef struct cluster_view {
    char host[128];
    bool store_up;       /* the last exchange with the store worked */
    double store_down_s; /* for how long it has not (0 when up) */
    char store_error[256];
    bool draining;
    uint32_t in_flight;                         /* partitions claimed here, not yet written */
    uint32_t pending;                           /* results waiting to be written */
    uint64_t claimed, proved, failed, released; /* partitions, ever */
    double lease_s;
} cluster_view;

void cluster_snapshot(cluster *c, cluster_view *out);

#endif
