#ifndef CUZK_SERVICE_DURABLE_H
#define CUZK_SERVICE_DURABLE_H

/* The service's jobs kept in the job store (store/store.h), so that a
 * restart, kill -9 included, loses and mixes up nothing:
 *
 *   - every job has a public id (32 hex digits, random, never reused);
 *     the engine's own ids live one process long and are mapped here;
 *   - a submission is in the store before its id is answered;
 *   - the engine's observer queues each proved partition and each final
 *     state; one writer thread commits what is queued in one transaction
 *     at a time (batches form while a commit runs);
 *   - at start, finished jobs are answered from the store, unfinished
 *     ones are submitted to the engine again with the partitions already
 *     proved given as done, or failed "interrupted by a restart" when
 *     their inputs are gone.
 *
 * A job the engine no longer knows (finished before a restart, or
 * forgotten by engine.keep_finished) is answered from the store. */

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "service/confine.h"
#include "service/ledger.h"
#include "store/store.h"

typedef struct durable durable;

typedef struct durable_opts {
    const char *state_dir;
    const char *store; /* a postgresql:// URL (server.store); NULL: SQLite in state_dir */
    engine_t *engine;
    ledger *queued;                 /* recovered jobs take their place in it */
    const confine_dir *witness_dir; /* NULL: none */
    /* server.witness_spill_dir (NULL: none): with a shared store, the
     * spilled witnesses of final jobs are removed before they expire */
    const confine_dir *spill_dir;
    uint64_t keep_finished; /* final jobs kept (engine.keep_finished) */
    double keep_finished_s; /* and for at most this long (0: no age limit) */
    /* One line to the service's log. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} durable_opts;

/* Opens the store, expires old jobs, recovers the rest (resubmitting the
 * unfinished ones), sets the engine's observer and starts the writer. */
cuzk_status durable_open(durable **out, const durable_opts *o, char *msg, size_t msg_len);
/* From now on, jobs that the engine cancels are not final in the store
 * (a shutdown: they run again at the next start). */
void durable_closing(durable *d);
/* Clears the engine's observer, writes what is queued, closes the store. */
void durable_close(durable *d);

store *durable_store(durable *d);
/* Whether several hosts share the store (PostgreSQL): jobs are then
 * looked up in it, and the hosts' claimers (service/cluster.h) prove
 * them; the engine's jobs are not the service's. */
bool durable_shared(durable *d);

/* A job by public id (a store not shared: durable_shared), whether it is
 * known; *eid its engine id (0: not in the engine this run),
 * *submitted_at its Unix time of submission. */
bool durable_lookup(durable *d, const char *id, uint64_t *eid, double *submitted_at);
/* The public id of an engine job; false when unknown. */
bool durable_public_id(durable *d, uint64_t eid, char id[STORE_ID_CHARS + 1]);
/* Every known job's public id, oldest first (*ids malloc'd, n of them). */
cuzk_status durable_ids(durable *d, char (**ids)[STORE_ID_CHARS + 1], size_t *n);

/* Records a job just submitted to the engine as eid: in the store (with
 * its key, when job->key is set), then in the map. With a key that
 * another job holds, nothing is recorded: CUZK_ERR_INVALID_ARGUMENT and
 * *existing that job's id. */
cuzk_status durable_add(durable *d, uint64_t eid, const store_job *job,
                        const store_partition *parts, char existing[STORE_ID_CHARS + 1], char *msg,
                        size_t msg_len);
/* Marks an engine job whose recording failed: its events are dropped. */
void durable_ignore(durable *d, uint64_t eid);
/* Makes a job final in the store now (a cancel by request), durable when
 * it returns. */
cuzk_status durable_final(durable *d, const char *id, engine_state state, const char *message);
/* Returns when everything the engine told so far is committed (before a
 * done job's proof is answered: a proof a client saw is never proved
 * again with other blinding after a restart). */
void durable_sync(durable *d);

/* What an engine spec made from a stored job owns (durable_job_spec). */
typedef struct durable_inputs {
    engine_partition_input *inputs;
    bool *done;
    uint8_t *proofs;
    fr_t *pub;
    fr_t *rs; /* r per partition, then s */
    int *fds; /* witness files, open until the engine is done with the job */
    uint32_t num_fds;
    char **paths;
    uint32_t n;
} durable_inputs;

/* The engine spec of a stored job (label: its id): its proved partitions
 * given as done, and when only is given, every partition i with only[i]
 * false too (proved elsewhere: its proof in the engine's answer is not
 * the job's). Witness paths are opened beneath witness_dir, spilled
 * witnesses (service/spill.h) beneath spill_dir (NULL: this host has
 * none, and a spilled witness is an input gone). false: an input is gone
 * (why says which); r is freed by durable_inputs_free either way. */
bool durable_job_spec(durable_inputs *r, engine_job_spec *spec, const store_job *job,
                      const store_partition *parts, uint64_t num_public, const bool *only,
                      const confine_dir *witness_dir, const confine_dir *spill_dir, char *why,
                      size_t why_len);
void durable_inputs_free(durable_inputs *r);

/* Unix time now. */
double durable_now(void);

#endif
