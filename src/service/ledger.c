/* The account of unfinished jobs, their bounds and their open witness
 * files (service/ledger.h). */
#define _POSIX_C_SOURCE 200809L
#include "service/ledger.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct ledger_job {
    uint64_t id;
    uint32_t partitions;
    uint64_t bytes;
    int *fds;
    uint32_t num_fds;
};

void ledger_init(ledger *l, uint64_t max_jobs, uint64_t max_partitions, uint64_t max_bytes)
{
    *l = (ledger){.max_jobs = max_jobs, .max_partitions = max_partitions, .max_bytes = max_bytes};
    pthread_mutex_init(&l->mu, NULL);
}

static void forget(ledger_job *j)
{
    for (uint32_t i = 0; i < j->num_fds; i++)
        close(j->fds[i]);
    free(j->fds);
}

void ledger_destroy(ledger *l)
{
    for (size_t i = 0; i < l->num_open; i++)
        forget(&l->open[i]);
    free(l->open);
    pthread_mutex_destroy(&l->mu);
}

/* With l->mu held. */
static void sweep_locked(ledger *l, engine_t *e)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->num_open; i++) {
        ledger_job *j = &l->open[i];
        engine_job_info info;
        bool open = engine_job_status(e, j->id, &info, NULL, 0) == CUZK_OK &&
                    info.state < ENGINE_STATE_DONE;
        if (open) {
            l->open[kept++] = *j;
            continue;
        }
        l->jobs--;
        l->partitions -= j->partitions;
        l->bytes -= j->bytes;
        forget(j);
    }
    l->num_open = kept;
}

void ledger_sweep(ledger *l, engine_t *e)
{
    pthread_mutex_lock(&l->mu);
    sweep_locked(l, e);
    pthread_mutex_unlock(&l->mu);
}

bool ledger_reserve(ledger *l, engine_t *e, uint32_t partitions, uint64_t bytes, char *why,
                    size_t why_len)
{
    pthread_mutex_lock(&l->mu);
    sweep_locked(l, e);
    bool ok = true;
    if (l->max_jobs && l->jobs + 1 > l->max_jobs) {
        snprintf(why, why_len, "%llu unfinished jobs: the bound server.max_queued_jobs is reached",
                 (unsigned long long)l->jobs);
        ok = false;
    } else if (l->max_partitions && l->partitions + partitions > l->max_partitions) {
        snprintf(why, why_len,
                 "%u more partitions would pass the bound server.max_queued_partitions (%llu "
                 "unfinished of %llu)",
                 partitions, (unsigned long long)l->partitions,
                 (unsigned long long)l->max_partitions);
        ok = false;
    } else if (l->max_bytes && l->bytes + bytes > l->max_bytes) {
        snprintf(why, why_len,
                 "the job's %llu bytes would pass the bound server.max_queued_bytes (%llu held "
                 "by unfinished jobs of %llu)",
                 (unsigned long long)bytes, (unsigned long long)l->bytes,
                 (unsigned long long)l->max_bytes);
        ok = false;
    }
    if (ok) {
        l->jobs++;
        l->partitions += partitions;
        l->bytes += bytes;
    }
    pthread_mutex_unlock(&l->mu);
    return ok;
}

void ledger_unreserve(ledger *l, uint32_t partitions, uint64_t bytes)
{
    pthread_mutex_lock(&l->mu);
    l->jobs--;
    l->partitions -= partitions;
    l->bytes -= bytes;
    pthread_mutex_unlock(&l->mu);
}

void ledger_commit(ledger *l, uint64_t id, uint32_t partitions, uint64_t bytes, int *fds,
                   uint32_t num_fds)
{
    pthread_mutex_lock(&l->mu);
    if (l->num_open == l->cap_open) {
        size_t cap = l->cap_open ? 2 * l->cap_open : 16;
        ledger_job *grown = realloc(l->open, cap * sizeof(*grown));
        if (!grown) {
            /* Cannot track it: its files close now (the engine reads them
             * by name, which then fails its job) and its share is given
             * back rather than held for good. */
            l->jobs--;
            l->partitions -= partitions;
            l->bytes -= bytes;
            pthread_mutex_unlock(&l->mu);
            ledger_job lost = {.fds = fds, .num_fds = num_fds};
            forget(&lost);
            return;
        }
        l->open = grown;
        l->cap_open = cap;
    }
    l->open[l->num_open++] = (ledger_job){
        .id = id, .partitions = partitions, .bytes = bytes, .fds = fds, .num_fds = num_fds};
    pthread_mutex_unlock(&l->mu);
}
