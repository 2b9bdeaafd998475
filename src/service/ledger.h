#ifndef CUZK_SERVICE_LEDGER_H
#define CUZK_SERVICE_LEDGER_H

/* The service's account of the unfinished jobs it submitted: how many,
 * their partitions and the memory they hold, against the bounds
 * server.max_queued_jobs, _partitions and _bytes, and the witness files
 * each keeps open for the engine (service/confine.h) until it is final.
 *
 * A submission reserves its share before engine_submit (so two at once
 * cannot both pass the last free place), then commits it under the job's
 * id or gives it back. Jobs are looked up in the engine and forgotten,
 * with their files closed, once final: at every reservation and when
 * asked (ledger_sweep). */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

typedef struct ledger_job ledger_job;

typedef struct ledger {
    pthread_mutex_t mu;
    uint64_t max_jobs, max_partitions, max_bytes; /* 0: no bound */
    uint64_t jobs, partitions, bytes;             /* committed and reserved */
    ledger_job *open;                             /* committed, unfinished (as last seen) */
    size_t num_open, cap_open;
} ledger;

void ledger_init(ledger *l, uint64_t max_jobs, uint64_t max_partitions, uint64_t max_bytes);
/* Closes every file still held. */
void ledger_destroy(ledger *l);

/* Reserves one job of partitions and bytes; false (with why) when a bound
 * would be passed. */
bool ledger_reserve(ledger *l, engine_t *e, uint32_t partitions, uint64_t bytes, char *why,
                    size_t why_len);
/* Gives a reservation back (the submission failed). */
void ledger_unreserve(ledger *l, uint32_t partitions, uint64_t bytes);
/* The reservation belongs to job id now; fds (malloc'd, num of them, may
 * be NULL) are owned by the ledger from now on and closed when the job is
 * final. */
void ledger_commit(ledger *l, uint64_t id, uint32_t partitions, uint64_t bytes, int *fds,
                   uint32_t num_fds);
/* Forgets the jobs that are final (or unknown to the engine). */
void ledger_sweep(ledger *l, engine_t *e);

#endif
