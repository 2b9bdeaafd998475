/* The service's jobs in the job store: public ids, the writer thread, and
 * recovery at start (service/durable.h). */
#define _POSIX_C_SOURCE 200809L
#include "service/durable.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "service/request.h"
#include "service/spill.h"
#include "util/msg.h"
#include "util/wipe.h"

/* How often the writer expires old jobs. */
#define EXPIRE_EVERY_S 60.0
/* How often, at most, the spill folder is searched for orphaned files
 * (a listing and a stat of every file in a shared folder): an orphan is
 * taken only once SPILL_ORPHAN_AGE_S old, so a sweep every ten minutes
 * delays its removal by a sixth of that at most. */
#define ORPHAN_SWEEP_EVERY_S 600.0
/* The writer's pause when an event's job is not mapped yet (its submit is
 * between engine_submit and durable_add). */
#define UNMAPPED_WAIT_NS (1000 * 1000)

typedef struct entry {
    char id[STORE_ID_CHARS + 1]; /* empty: an engine job not recorded (durable_ignore) */
    uint64_t eid;                /* 0: not in the engine this run */
    double submitted_at;
} entry;

/* An engine event, queued by the observer for the writer. */
typedef struct event {
    store_update_kind kind;
    uint64_t eid;
    uint32_t idx;
    engine_state state;
    uint8_t proof[STORE_PROOF_MAX];
    size_t proof_len; /* the circuit's proof size */
    fr_t *pub;        /* malloc'd */
    uint64_t num_pub;
    char message[256];
    double at;
} event;

struct durable {
    store *st;
    bool shared; /* several hosts on the store: it, not the map, knows the jobs */
    engine_t *engine;
    uint64_t keep_finished;
    double keep_finished_s;
    const confine_dir *spill_dir; /* NULL: none */
    double next_orphan_sweep;     /* durable_now(); 0: at the next expiry (the start's) */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;

    pthread_mutex_t map_mu; /* entries */
    entry *entries;
    size_t num_entries, cap_entries;

    pthread_mutex_t q_mu; /* below; a leaf lock (taken under the engine's) */
    pthread_cond_t q_cv, synced_cv;
    event *queue;
    size_t queue_len, queue_cap;
    uint64_t queued, written; /* events queued and written (or dropped), ever */
    bool closing, stop;
    pthread_t writer;
    bool writer_started;
};

/* A line to the service's log. */
#define say(d, ...) msg_log((d)->log, (d)->log_ctx, __VA_ARGS__)

double durable_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

store *durable_store(durable *d)
{
    return d->st;
}

bool durable_shared(durable *d)
{
    return d->shared;
}

/* ----------------------------------------------------------------- map */

static bool map_add(durable *d, const char *id, uint64_t eid, double submitted_at)
{
    pthread_mutex_lock(&d->map_mu);
    bool ok = true;
    if (d->num_entries == d->cap_entries) {
        size_t cap = d->cap_entries ? 2 * d->cap_entries : 64;
        entry *grown = realloc(d->entries, cap * sizeof(*grown));
        if (grown) {
            d->entries = grown;
            d->cap_entries = cap;
        } else {
            ok = false;
        }
    }
    if (ok) {
        entry *e = &d->entries[d->num_entries++];
        snprintf(e->id, sizeof(e->id), "%s", id);
        e->eid = eid;
        e->submitted_at = submitted_at;
    }
    pthread_mutex_unlock(&d->map_mu);
    return ok;
}

/* With map_mu held. */
static entry *by_id(durable *d, const char *id)
{
    for (size_t i = 0; i < d->num_entries; i++)
        if (d->entries[i].id[0] && !strcmp(d->entries[i].id, id))
            return &d->entries[i];
    return NULL;
}

static entry *by_eid(durable *d, uint64_t eid)
{
    for (size_t i = d->num_entries; i-- > 0;)
        if (d->entries[i].eid == eid)
            return &d->entries[i];
    return NULL;
}

bool durable_lookup(durable *d, const char *id, uint64_t *eid, double *submitted_at)
{
    pthread_mutex_lock(&d->map_mu);
    entry *e = by_id(d, id);
    if (e) {
        *eid = e->eid;
        *submitted_at = e->submitted_at;
    }
    pthread_mutex_unlock(&d->map_mu);
    return e != NULL;
}

bool durable_public_id(durable *d, uint64_t eid, char id[STORE_ID_CHARS + 1])
{
    pthread_mutex_lock(&d->map_mu);
    entry *e = eid ? by_eid(d, eid) : NULL;
    bool found = e && e->id[0];
    if (found)
        memcpy(id, e->id, STORE_ID_CHARS + 1);
    pthread_mutex_unlock(&d->map_mu);
    return found;
}

cuzk_status durable_ids(durable *d, char (**ids)[STORE_ID_CHARS + 1], size_t *n)
{
    if (d->shared)
        return store_cluster(d->st)->ids(d->st, ids, n, NULL, 0);
    pthread_mutex_lock(&d->map_mu);
    *n = 0;
    *ids = malloc((d->num_entries ? d->num_entries : 1) * sizeof(**ids));
    for (size_t i = 0; *ids && i < d->num_entries; i++)
        if (d->entries[i].id[0])
            memcpy((*ids)[(*n)++], d->entries[i].id, STORE_ID_CHARS + 1);
    pthread_mutex_unlock(&d->map_mu);
    return *ids ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
}

/* store_expire's callback: the job leaves the map (the rest keep their
 * order: submission order is the listings'). */
static bool forget_entry(void *ctx, const store_job *job)
{
    durable *d = ctx;
    pthread_mutex_lock(&d->map_mu);
    entry *e = by_id(d, job->id);
    if (e) {
        size_t at = (size_t)(e - d->entries);
        memmove(e, e + 1, (d->num_entries - at - 1) * sizeof(*e));
        d->num_entries--;
    }
    pthread_mutex_unlock(&d->map_mu);
    return true;
}

/* Deletes the final jobs beyond engine.keep_finished and keep_finished_s,
 * after the spilled witnesses of every final job are removed (those the
 * host that made the job final did not: it died in between, or has no
 * spill folder), so that no file outlives the row that names it. Then,
 * at the start and every ORPHAN_SWEEP_EVERY_S, the files of the spill
 * folder that no row names any more are removed (a host that stopped
 * before it recorded a job; a job expired just now whose file could not
 * be removed). */
static cuzk_status expire_old(durable *d, store_job_fn fn, char *msg, size_t msg_len)
{
    if (d->shared && d->spill_dir)
        spill_drop(d->st, d->spill_dir, NULL, d->log, d->log_ctx);
    double now = durable_now();
    cuzk_status st = store_expire(d->st, d->keep_finished_s > 0 ? now - d->keep_finished_s : 0,
                                  d->keep_finished, fn, d, msg, msg_len);
    if (d->shared && d->spill_dir && now >= d->next_orphan_sweep) {
        spill_sweep_orphans(d->st, d->spill_dir, d->log, d->log_ctx);
        d->next_orphan_sweep = now + ORPHAN_SWEEP_EVERY_S;
    }
    return st;
}

/* -------------------------------------------------------------- observer */

static void enqueue(durable *d, const event *ev)
{
    pthread_mutex_lock(&d->q_mu);
    if (d->queue_len == d->queue_cap) {
        size_t cap = d->queue_cap ? 2 * d->queue_cap : 64;
        event *grown = realloc(d->queue, cap * sizeof(*grown));
        if (!grown) {
            /* Lost: after a restart the partition is proved again. */
            pthread_mutex_unlock(&d->q_mu);
            free(ev->pub);
            return;
        }
        d->queue = grown;
        d->queue_cap = cap;
    }
    d->queue[d->queue_len++] = *ev;
    d->queued++;
    pthread_cond_signal(&d->q_cv);
    pthread_mutex_unlock(&d->q_mu);
}

static void on_partition(void *ctx, uint64_t eid, uint32_t idx, const uint8_t *proof,
                         size_t proof_len, const fr_t *pub, uint64_t num_pub)
{
    durable *d = ctx;
    event ev = {.kind = STORE_PARTITION_DONE, .eid = eid, .idx = idx, .num_pub = num_pub};
    if (proof_len > sizeof(ev.proof))
        return; /* no curve's: lost, the partition is proved again after a restart */
    memcpy(ev.proof, proof, proof_len);
    ev.proof_len = proof_len;
    if (num_pub && !(ev.pub = malloc(num_pub * sizeof(fr_t))))
        return;
    if (num_pub)
        memcpy(ev.pub, pub, num_pub * sizeof(fr_t));
    enqueue(d, &ev);
}

static void on_final(void *ctx, uint64_t eid, engine_state state, const char *message)
{
    durable *d = ctx;
    pthread_mutex_lock(&d->q_mu);
    bool closing = d->closing;
    pthread_mutex_unlock(&d->q_mu);
    /* A job cancelled by the shutdown runs again at the next start. */
    if (closing && state == ENGINE_STATE_CANCELLED)
        return;
    event ev = {.kind = STORE_JOB_FINAL, .eid = eid, .state = state, .at = durable_now()};
    snprintf(ev.message, sizeof(ev.message), "%s", message);
    enqueue(d, &ev);
}

/* --------------------------------------------------------------- writer */

/* Writes a batch: events of unmapped jobs go back to the queue's front. */
static size_t write_batch(durable *d, event *evs, size_t n, event **keep, size_t *num_keep)
{
    store_update *u = calloc(n ? n : 1, sizeof(*u));
    size_t m = 0;
    *num_keep = 0;
    *keep = NULL;
    pthread_mutex_lock(&d->map_mu);
    for (size_t i = 0; u && i < n; i++) {
        entry *e = by_eid(d, evs[i].eid);
        if (!e) {
            if (!*keep)
                *keep = malloc(n * sizeof(**keep));
            if (*keep) {
                (*keep)[(*num_keep)++] = evs[i];
                evs[i].pub = NULL;
            }
            continue;
        }
        if (!e->id[0])
            continue; /* not recorded */
        store_update *x = &u[m++];
        x->kind = evs[i].kind;
        memcpy(x->id, e->id, sizeof(x->id));
        x->idx = evs[i].idx;
        x->proof = evs[i].proof;
        x->proof_len = evs[i].proof_len;
        x->pub = evs[i].pub;
        x->num_pub = evs[i].num_pub;
        x->state = evs[i].state;
        x->message = evs[i].message;
        x->at = evs[i].at;
    }
    pthread_mutex_unlock(&d->map_mu);
    char msg[512];
    if (u && m && store_write(d->st, u, m, msg, sizeof(msg)) != CUZK_OK)
        say(d, "%s (%zu updates lost: their partitions are proved again after a restart)", msg, m);
    free(u);
    return n - *num_keep;
}

static void *writer_main(void *arg)
{
    durable *d = arg;
    double next_expire = durable_now() + EXPIRE_EVERY_S;
    pthread_mutex_lock(&d->q_mu);
    for (;;) {
        if (!d->queue_len) {
            if (d->stop)
                break;
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 1;
            pthread_cond_timedwait(&d->q_cv, &d->q_mu, &until);
        }
        bool last = d->stop; /* nothing more comes: unmapped events are dropped */
        event *evs = d->queue;
        size_t n = d->queue_len;
        d->queue = NULL;
        d->queue_len = d->queue_cap = 0;
        pthread_mutex_unlock(&d->q_mu);

        event *keep = NULL;
        size_t num_keep = 0, done = n ? write_batch(d, evs, n, &keep, &num_keep) : 0;
        for (size_t i = 0; i < n; i++)
            free(evs[i].pub);
        free(evs);
        if (num_keep && last) {
            for (size_t i = 0; i < num_keep; i++)
                free(keep[i].pub);
            done += num_keep;
            num_keep = 0;
        }
        if (num_keep) {
            struct timespec ts = {0, UNMAPPED_WAIT_NS};
            nanosleep(&ts, NULL);
        }
        double now = durable_now();
        if (now >= next_expire) {
            char msg[512];
            if (expire_old(d, forget_entry, msg, sizeof(msg)) != CUZK_OK)
                say(d, "%s", msg);
            next_expire = now + EXPIRE_EVERY_S;
        }

        pthread_mutex_lock(&d->q_mu);
        for (size_t i = 0; i < num_keep; i++) {
            /* back in front of what came meanwhile, in their order */
            d->queue_len++;
            if (d->queue_len > d->queue_cap) {
                size_t cap = d->queue_len + 64;
                event *grown = realloc(d->queue, cap * sizeof(*grown));
                if (!grown) {
                    d->queue_len--;
                    free(keep[i].pub);
                    done++;
                    continue;
                }
                d->queue = grown;
                d->queue_cap = cap;
            }
            memmove(&d->queue[i + 1], &d->queue[i], (d->queue_len - 1 - i) * sizeof(event));
            d->queue[i] = keep[i];
        }
        free(keep);
        d->written += done;
        pthread_cond_broadcast(&d->synced_cv);
    }
    pthread_mutex_unlock(&d->q_mu);
    return NULL;
}

void durable_sync(durable *d)
{
    pthread_mutex_lock(&d->q_mu);
    uint64_t target = d->queued;
    while (d->written < target && d->writer_started)
        pthread_cond_wait(&d->synced_cv, &d->q_mu);
    pthread_mutex_unlock(&d->q_mu);
}

/* -------------------------------------------------------------- records */

cuzk_status durable_add(durable *d, uint64_t eid, const store_job *job,
                        const store_partition *parts, char existing[STORE_ID_CHARS + 1], char *msg,
                        size_t msg_len)
{
    cuzk_status st = store_add(d->st, job, parts, existing, msg, msg_len);
    if (st == CUZK_OK && !d->shared && !map_add(d, job->id, eid, job->submitted_at))
        st = CUZK_ERR_OUT_OF_MEMORY;
    return st;
}

void durable_ignore(durable *d, uint64_t eid)
{
    map_add(d, "", eid, 0);
}

cuzk_status durable_final(durable *d, const char *id, engine_state state, const char *message)
{
    store_update u = {
        .kind = STORE_JOB_FINAL, .state = state, .message = message, .at = durable_now()};
    snprintf(u.id, sizeof(u.id), "%s", id);
    char msg[512];
    cuzk_status st = store_write(d->st, &u, 1, msg, sizeof(msg));
    if (st != CUZK_OK)
        say(d, "%s", msg);
    return st;
}

/* ------------------------------------------------------------- recovery */

void durable_inputs_free(durable_inputs *r)
{
    for (uint32_t i = 0; r->paths && i < r->n; i++)
        free(r->paths[i]);
    free(r->paths);
    for (uint32_t i = 0; i < r->num_fds; i++)
        close(r->fds[i]);
    free(r->fds);
    free(r->inputs);
    free(r->done);
    free(r->proofs);
    free(r->pub);
    if (r->rs)
        cuzk_wipe(r->rs, 2 * (size_t)r->n * sizeof(fr_t));
    free(r->rs);
}

bool durable_job_spec(durable_inputs *r, engine_job_spec *spec, const store_job *job,
                      const store_partition *parts, uint64_t num_public, const bool *only,
                      const confine_dir *witness_dir, const confine_dir *spill_dir, char *why,
                      size_t why_len)
{
    uint32_t n = job->partitions;
    size_t proof_bytes = curve_proof_bytes(job->curve);
    r->n = n;
    r->inputs = calloc(n, sizeof(*r->inputs));
    r->done = calloc(n, sizeof(*r->done));
    r->proofs = calloc(n, proof_bytes);
    r->pub = calloc((size_t)n * (num_public ? num_public : 1), sizeof(fr_t));
    r->fds = calloc(n, sizeof(int));
    r->paths = calloc(n, sizeof(char *));
    if (!r->inputs || !r->done || !r->proofs || !r->pub || !r->fds || !r->paths) {
        snprintf(why, why_len, "out of memory");
        return false;
    }
    if (job->has_blinding) {
        if (!(r->rs = malloc(2 * (size_t)n * sizeof(fr_t)))) {
            snprintf(why, why_len, "out of memory");
            return false;
        }
        for (uint32_t i = 0; i < n; i++) {
            r->rs[i] = job->r;
            r->rs[n + i] = job->s;
        }
        spec->r = r->rs;
        spec->s = r->rs + n;
    }
    for (uint32_t i = 0; i < n; i++) {
        const store_partition *p = &parts[i];
        if (only && !only[i]) {
            r->done[i] = true; /* another's: its proof here is not used */
            continue;
        }
        if (p->state == ENGINE_STATE_DONE && p->num_pub == num_public &&
            p->proof_len == proof_bytes) {
            r->done[i] = true;
            memcpy(r->proofs + (size_t)i * proof_bytes, p->proof, proof_bytes);
            if (num_public)
                memcpy(r->pub + i * num_public, p->pub, num_public * sizeof(fr_t));
            continue;
        }
        r->inputs[i].seed = p->seed;
        if (p->witness) {
            r->inputs[i].witness = p->witness;
            r->inputs[i].witness_len = p->witness_len;
        } else if (p->wtns_path && p->spilled) {
            /* written by a host, not named by a client: its own folder */
            char spilled[1024];
            int fd = -1;
            if (!spill_dir) {
                snprintf(why, why_len,
                         "partition %u's witness was spilled to %s, but this host has no "
                         "server.witness_spill_dir (set it to the same folder on every host)",
                         i, p->wtns_path);
                return false;
            }
            if (!spill_open(spill_dir, p->wtns_path, &r->paths[i], &fd, spilled, sizeof(spilled))) {
                snprintf(why, why_len, "partition %u's %s", i, spilled);
                return false;
            }
            r->fds[r->num_fds++] = fd;
            r->inputs[i].wtns_path = r->paths[i];
        } else if (p->wtns_path) {
            request_error err;
            char field[48];
            snprintf(field, sizeof(field), "witness_paths[%u]", i);
            int fd;
            if (!request_witness_path(&r->paths[i], &fd, p->wtns_path, witness_dir, field, &err)) {
                snprintf(why, why_len, "partition %u's witness %s: %s", i, p->wtns_path,
                         err.message);
                return false;
            }
            if (fd >= 0)
                r->fds[r->num_fds++] = fd;
            r->inputs[i].wtns_path = r->paths[i];
        }
    }
    spec->circuit = job->circuit;
    spec->priority = job->priority;
    spec->partitions = n;
    spec->inputs = r->inputs;
    spec->timeout_s = job->timeout_s;
    spec->done = r->done;
    spec->done_proofs = r->proofs;
    spec->done_public = r->pub;
    spec->label = job->id;
    return true;
}

typedef struct recovery {
    durable *d;
    ledger *queued;
    const confine_dir *witness_dir;
    size_t finished, resumed, failed;
    char **unfinished; /* ids, handled after the listing */
    size_t num_unfinished, cap_unfinished;
} recovery;

static bool recover_row(void *ctx, const store_job *job)
{
    recovery *rc = ctx;
    /* Done with a partition's proof missing (its write was lost): not
     * answered with a hole, but resumed like an unfinished job. */
    bool whole = job->state != ENGINE_STATE_DONE || job->partitions_done == job->partitions;
    if (engine_state_is_terminal(job->state) && whole) {
        rc->finished++;
        return map_add(rc->d, job->id, 0, job->submitted_at);
    }
    if (rc->num_unfinished == rc->cap_unfinished) {
        size_t cap = rc->cap_unfinished ? 2 * rc->cap_unfinished : 16;
        char **grown = realloc(rc->unfinished, cap * sizeof(*grown));
        if (!grown)
            return false;
        rc->unfinished = grown;
        rc->cap_unfinished = cap;
    }
    char *id = strdup(job->id);
    if (!id)
        return false;
    rc->unfinished[rc->num_unfinished++] = id;
    return map_add(rc->d, job->id, 0, job->submitted_at);
}

/* Submits one stored unfinished job again, or fails it. */
static void recover_one(recovery *rc, const char *id)
{
    durable *d = rc->d;
    store_job job;
    store_partition *parts = NULL;
    char why[768] = "";
    if (store_get(d->st, id, &job, &parts, why, sizeof(why)) != CUZK_OK) {
        say(d, "cannot resume job %s: %s", id, why);
        return;
    }
    durable_inputs r = {0};
    engine_job_spec spec = {0};
    uint64_t eid = 0;
    engine_circuit_info ci = {0};
    bool ok = engine_circuit_info_of(d->engine, job.circuit, &ci) == CUZK_OK;
    uint64_t num_public = ci.num_public;
    if (!ok)
        snprintf(why, sizeof(why), "circuit %s is not registered", job.circuit);
    else if (ci.curve != job.curve) {
        /* re-registered from a key of the other curve: the stored
         * witnesses and proofs are not its */
        snprintf(why, sizeof(why), "circuit %s is on %s now, the job's on %s", job.circuit,
                 curve_id_snarkjs_name(ci.curve), curve_id_snarkjs_name(job.curve));
        ok = false;
    }
    /* (the SQLite store, whose witnesses are never spilled) */
    ok = ok && durable_job_spec(&r, &spec, &job, parts, num_public, NULL, rc->witness_dir, NULL,
                                why, sizeof(why));
    uint32_t todo = 0;
    uint64_t bytes = 0;
    for (uint32_t i = 0; ok && i < job.partitions; i++)
        if (!r.done[i]) {
            todo++;
            bytes += r.inputs[i].witness_len * sizeof(fr_t);
        }
    bool reserved = false;
    if (ok && !(reserved = ledger_reserve(rc->queued, d->engine, todo, bytes, why, sizeof(why))))
        ok = false;
    char msg[512] = "";
    if (ok && engine_submit(d->engine, &spec, &eid, msg, sizeof(msg)) != CUZK_OK) {
        snprintf(why, sizeof(why), "%s", msg);
        ok = false;
    }
    if (ok) {
        ledger_commit(rc->queued, eid, todo, bytes, r.fds, r.num_fds);
        r.fds = NULL;
        r.num_fds = 0;
        pthread_mutex_lock(&d->map_mu);
        entry *e = by_id(d, id);
        if (e)
            e->eid = eid;
        pthread_mutex_unlock(&d->map_mu);
        if (!e && !map_add(d, id, eid, job.submitted_at)) {
            /* Unmapped, its events would never be written: not run. */
            durable_ignore(d, eid);
            engine_cancel(d->engine, eid, NULL, 0);
        }
        rc->resumed++;
        say(d, "job %s resumed: %u of %u partitions to prove", id, todo, job.partitions);
    } else {
        if (reserved)
            ledger_unreserve(rc->queued, todo, bytes);
        char message[1024];
        snprintf(message, sizeof(message), "interrupted by a restart: %s", why);
        durable_final(d, id, ENGINE_STATE_FAILED, message);
        rc->failed++;
        say(d, "job %s failed: %s", id, message);
    }
    durable_inputs_free(&r);
    store_partitions_free(parts, job.partitions);
    cuzk_wipe(&job, sizeof(job));
}

static cuzk_status recover(durable *d, const durable_opts *o, char *msg, size_t msg_len)
{
    cuzk_status st = expire_old(d, NULL, msg, msg_len);
    recovery rc = {.d = d, .queued = o->queued, .witness_dir = o->witness_dir};
    if (st == CUZK_OK)
        st = store_list(d->st, recover_row, &rc, msg, msg_len);
    /* The observer is set before any resubmission: a job resumed with
     * every partition proved is final at once. */
    engine_observer obs = {.ctx = d, .partition_done = on_partition, .job_final = on_final};
    engine_set_observer(d->engine, &obs);
    for (size_t i = 0; i < rc.num_unfinished; i++) {
        if (st == CUZK_OK)
            recover_one(&rc, rc.unfinished[i]);
        free(rc.unfinished[i]);
    }
    free(rc.unfinished);
    if (st == CUZK_OK && (rc.finished || rc.resumed || rc.failed))
        say(d, "job store: %zu finished jobs kept, %zu resumed, %zu failed", rc.finished,
            rc.resumed, rc.failed);
    return st;
}

/* ---------------------------------------------------------------- life */

/* The PostgreSQL store at server.store, which must be a postgresql:// or
 * postgres:// URL. */
static cuzk_status open_postgres(durable *d, const char *url, char *msg, size_t msg_len)
{
    if (!store_is_postgres_url(url)) {
        msg_set(msg, msg_len,
                "server.store: a postgresql:// or postgres:// URL, or unset for the SQLite store "
                "in server.state_dir");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuzk_status st = store_open_postgres(&d->st, url, msg, msg_len);
    char where[512];
    store_postgres_where(url, where, sizeof(where));
    if (st == CUZK_OK)
        say(d, "job store in PostgreSQL: %s", where);
    return st;
}

cuzk_status durable_open(durable **out, const durable_opts *o, char *msg, size_t msg_len)
{
    *out = NULL;
    durable *d = calloc(1, sizeof(*d));
    if (!d)
        return CUZK_ERR_OUT_OF_MEMORY;
    d->engine = o->engine;
    d->keep_finished = o->keep_finished;
    d->keep_finished_s = o->keep_finished_s;
    d->spill_dir = o->spill_dir;
    d->log = o->log;
    d->log_ctx = o->log_ctx;
    pthread_mutex_init(&d->map_mu, NULL);
    pthread_mutex_init(&d->q_mu, NULL);
    pthread_cond_init(&d->q_cv, NULL);
    pthread_cond_init(&d->synced_cv, NULL);
    cuzk_status st;
    if (o->store && *o->store) {
        st = open_postgres(d, o->store, msg, msg_len);
    } else {
        st = store_open_sqlite(&d->st, o->state_dir, msg, msg_len);
        if (st == CUZK_OK)
            say(d, "job store %s/jobs.sqlite", o->state_dir);
    }
    d->shared = store_cluster(d->st) != NULL;
    /* Shared, the store's jobs are claimed by the hosts (service/cluster.c),
     * not resubmitted whole here. */
    if (st == CUZK_OK && d->shared)
        st = expire_old(d, NULL, msg, msg_len);
    else if (st == CUZK_OK)
        st = recover(d, o, msg, msg_len);
    if (st == CUZK_OK && pthread_create(&d->writer, NULL, writer_main, d) != 0) {
        msg_set(msg, msg_len, "cannot start the job store's writer: %s", strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (st != CUZK_OK) {
        durable_close(d);
        return st;
    }
    d->writer_started = true;
    *out = d;
    return CUZK_OK;
}

void durable_closing(durable *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->q_mu);
    d->closing = true;
    pthread_mutex_unlock(&d->q_mu);
}

void durable_close(durable *d)
{
    if (!d)
        return;
    engine_set_observer(d->engine, NULL);
    if (d->writer_started) {
        pthread_mutex_lock(&d->q_mu);
        d->stop = true;
        pthread_cond_signal(&d->q_cv);
        pthread_mutex_unlock(&d->q_mu);
        pthread_join(d->writer, NULL);
    }
    for (size_t i = 0; i < d->queue_len; i++)
        free(d->queue[i].pub);
    free(d->queue);
    store_close(d->st);
    free(d->entries);
    pthread_cond_destroy(&d->synced_cv);
    pthread_cond_destroy(&d->q_cv);
    pthread_mutex_destroy(&d->q_mu);
    pthread_mutex_destroy(&d->map_mu);
    free(d);
}
