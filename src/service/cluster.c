/* A host's share of a queue that several hosts claim from
 * (service/cluster.h). */
#define _POSIX_C_SOURCE 200809L
#include "service/cluster.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "service/durable.h"
#include "service/spill.h"
#include "util/msg.h"

/* The thread's longest sleep: the engine's events wake it sooner, the
 * store's notifications are looked at this often. */
#define TICK_NS (50 * 1000 * 1000)
/* How often claims and final jobs are looked for without a notification
 * (a lease that expired raises none). */
#define POLL_S 1.0
/* The pause before results are written again after the store failed. */
#define RETRY_WRITE_S 0.5
/* At a stop, how long results left to write are tried. */
#define STOP_WRITE_S 5.0
#define MAX_CIRCUITS 256

/* An engine job proving one claimed partition. */
typedef struct local {
    uint64_t eid;
    char id[STORE_ID_CHARS + 1];
    uint32_t idx;
    durable_inputs in; /* its inputs, owned until the engine is done */
    /* its spilled witness's path (the engine reads it under another
     * name), for the failure's reason; NULL: not spilled */
    char *spilled;
    bool proved;
    bool stopped; /* cancelled here: the store's job is final */
} local;

/* What the engine told, queued by the observer for the thread. */
typedef struct event {
    bool final; /* else a partition proved */
    uint64_t eid;
    uint32_t idx;
    engine_state state;
    uint8_t proof[STORE_PROOF_MAX];
    size_t proof_len; /* the circuit's proof size */
    fr_t *pub;        /* malloc'd */
    uint64_t num_pub;
    char message[256];
} event;

typedef enum result_kind { RESULT_PROVED, RESULT_FAILED, RESULT_RELEASED } result_kind;

/* What the store is to be told, in order. */
typedef struct result {
    result_kind kind;
    char id[STORE_ID_CHARS + 1];
    uint32_t idx;
    uint8_t proof[STORE_PROOF_MAX];
    size_t proof_len;
    fr_t *pub; /* malloc'd */
    uint64_t num_pub;
    char reason[512];
} result;

struct cluster {
    store *st;
    const store_cluster_ops *ops;
    engine_t *engine;
    char host[128];
    double lease_s;
    uint32_t retries;
    const confine_dir *witness_dir;
    const confine_dir *spill_dir;
    void (*log)(void *ctx, const char *line);
    void *log_ctx;

    pthread_mutex_t mu; /* below; a leaf lock (taken under the engine's) */
    pthread_cond_t cv;
    event *events;
    size_t num_events, cap_events;
    bool draining, stop;
    cluster_view view;
    double down_since; /* 0: up */

    /* the thread's own */
    local *locals;
    size_t num_locals, cap_locals;
    result *results;
    size_t num_results, cap_results;
    pthread_t thread;
    bool started;
};

/* A line to the service's log. */
#define say(c, ...) msg_log((c)->log, (c)->log_ctx, __VA_ARGS__)

/* Room for one more element in *arr (of *cap); false when out of memory. */
static bool grow(void **arr, size_t *cap, size_t len, size_t elem)
{
    if (len < *cap)
        return true;
    size_t cap2 = *cap ? 2 * *cap : 16;
    void *grown = realloc(*arr, cap2 * elem);
    if (!grown)
        return false;
    *arr = grown;
    *cap = cap2;
    return true;
}

/* Records how the last exchange with the store went: the view, and a
 * line in the log when it changes. */
static void note(cluster *c, cuzk_status rc, const char *msg)
{
    bool up = rc != CUZK_ERR_IO; /* else an answer came: the store is there */
    pthread_mutex_lock(&c->mu);
    bool was_up = c->view.store_up;
    c->view.store_up = up;
    if (!up && was_up) {
        c->down_since = durable_now();
        snprintf(c->view.store_error, sizeof(c->view.store_error), "%s", msg);
    } else if (up) {
        c->down_since = 0;
        c->view.store_error[0] = 0;
    }
    pthread_mutex_unlock(&c->mu);
    if (!up && was_up)
        say(c, "%s: claims stalled, results kept until written", msg);
    else if (up && !was_up)
        say(c, "job store reachable again");
}

/* ------------------------------------------------------------- observer */

static void push(cluster *c, const event *ev)
{
    pthread_mutex_lock(&c->mu);
    if (grow((void **)&c->events, &c->cap_events, c->num_events, sizeof(event))) {
        c->events[c->num_events++] = *ev;
        pthread_cond_signal(&c->cv);
    } else {
        /* Lost: the lease expires and another host proves it. */
        free(ev->pub);
    }
    pthread_mutex_unlock(&c->mu);
}

static void on_partition(void *ctx, uint64_t eid, uint32_t idx, const uint8_t *proof,
                         size_t proof_len, const fr_t *pub, uint64_t num_pub)
{
    event ev = {.eid = eid, .idx = idx, .num_pub = num_pub};
    if (proof_len > sizeof(ev.proof))
        return; /* no curve's: lost, the lease expires and another host proves it */
    memcpy(ev.proof, proof, proof_len);
    ev.proof_len = proof_len;
    if (num_pub && !(ev.pub = malloc(num_pub * sizeof(fr_t))))
        return;
    if (num_pub)
        memcpy(ev.pub, pub, num_pub * sizeof(fr_t));
    push(ctx, &ev);
}

static void on_final(void *ctx, uint64_t eid, engine_state state, const char *message)
{
    event ev = {.final = true, .eid = eid, .state = state};
    snprintf(ev.message, sizeof(ev.message), "%s", message);
    push(ctx, &ev);
}

/* -------------------------------------------------------------- results */

static void add_result(cluster *c, result_kind kind, const local *l, const char *reason)
{
    if (!grow((void **)&c->results, &c->cap_results, c->num_results, sizeof(result)))
        return; /* lost: the lease expires and another host takes it */
    result *r = &c->results[c->num_results++];
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    memcpy(r->id, l->id, sizeof(r->id));
    r->idx = l->idx;
    if (reason)
        snprintf(r->reason, sizeof(r->reason), "on %s: %s", c->host, reason);
}

static void drop_result(result *r)
{
    free(r->pub);
}

/* --------------------------------------------------------------- locals */

static local *local_of(cluster *c, uint64_t eid)
{
    for (size_t i = 0; i < c->num_locals; i++)
        if (c->locals[i].eid == eid)
            return &c->locals[i];
    return NULL;
}

/* What the engine told: proofs and failures become results; a final
 * engine job is forgotten. */
static void handle(cluster *c, event *ev)
{
    local *l = local_of(c, ev->eid);
    if (!l) {
        free(ev->pub);
        return;
    }
    if (!ev->final) {
        if (ev->idx == l->idx && !l->proved &&
            grow((void **)&c->results, &c->cap_results, c->num_results, sizeof(result))) {
            add_result(c, RESULT_PROVED, l, NULL);
            result *r = &c->results[c->num_results - 1];
            memcpy(r->proof, ev->proof, ev->proof_len);
            r->proof_len = ev->proof_len;
            r->pub = ev->pub;
            r->num_pub = ev->num_pub;
            ev->pub = NULL;
            l->proved = true;
        }
        free(ev->pub);
        return;
    }
    if (!l->proved && !l->stopped) {
        char reason[320]; /* the engine's message, within what a result keeps */
        msg_set(reason, sizeof(reason), "%s%s%s%s", ev->message,
                l->spilled ? " (its witness: the spilled file " : "", l->spilled ? l->spilled : "",
                l->spilled ? ")" : "");
        add_result(c, ev->state == ENGINE_STATE_FAILED ? RESULT_FAILED : RESULT_RELEASED, l,
                   ev->state == ENGINE_STATE_FAILED ? reason : NULL);
    }
    engine_forget(c->engine, l->eid);
    durable_inputs_free(&l->in);
    free(l->spilled);
    *l = c->locals[--c->num_locals];
}

/* Cancels the engine jobs whose store job is final (cancelled on another
 * host, failed, or done by another host's proof of a partition whose
 * lease this host had lost). */
static void stop_finals(cluster *c)
{
    size_t n = c->num_locals, m = 0;
    if (!n)
        return;
    char(*ids)[STORE_ID_CHARS + 1] = malloc(n * sizeof(*ids));
    bool *final = calloc(n, sizeof(*final));
    for (size_t i = 0; ids && final && i < n; i++)
        if (!c->locals[i].stopped && !c->locals[i].proved)
            memcpy(ids[m++], c->locals[i].id, sizeof(ids[0]));
    char msg[512] = "";
    if (ids && final && m) {
        cuzk_status rc = c->ops->finals(c->st, (const char(*)[STORE_ID_CHARS + 1]) ids, m, final,
                                        msg, sizeof(msg));
        note(c, rc, msg);
        for (size_t k = 0; rc == CUZK_OK && k < m; k++) {
            for (size_t i = 0; final[k] && i < c->num_locals; i++) {
                local *l = &c->locals[i];
                if (strcmp(l->id, ids[k]) || l->stopped || l->proved)
                    continue;
                l->stopped = true;
                engine_cancel(c->engine, l->eid, NULL, 0);
            }
        }
    }
    free(ids);
    free(final);
}

/* ---------------------------------------------------------------- claim */

/* Claimed partitions go to the engine in the queue's order. */
static int by_queue_order(const void *a, const void *b)
{
    const store_lease *x = a, *y = b;
    if (x->job.priority != y->job.priority)
        return x->job.priority < y->job.priority ? -1 : 1;
    if (x->job.submitted_at != y->job.submitted_at)
        return x->job.submitted_at < y->job.submitted_at ? -1 : 1;
    int k = strcmp(x->id, y->id);
    return k ? k : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Starts an engine job proving one claimed partition (the lease holds its
 * job's row and its input); the failure is the lease's result. */
static void start_one(cluster *c, const store_lease *lease)
{
    const store_job *job = &lease->job;
    local l = {.idx = lease->idx};
    memcpy(l.id, lease->id, sizeof(l.id));
    char why[768] = "";
    engine_circuit_info ci;
    /* the job's partitions but the claimed one are given as done: only
     * its input is needed (and read) */
    bool *only = calloc(job->partitions, sizeof(*only));
    store_partition *parts = calloc(job->partitions, sizeof(*parts));
    engine_job_spec spec = {0};
    bool ok = only && parts && lease->idx < job->partitions;
    if (!ok)
        snprintf(why, sizeof(why), "out of memory");
    if (ok && engine_circuit_info_of(c->engine, job->circuit, &ci) != CUZK_OK) {
        ok = false;
        snprintf(why, sizeof(why), "circuit %s is not registered here", job->circuit);
    } else if (ok && ci.curve != job->curve) {
        ok = false;
        snprintf(why, sizeof(why), "circuit %s is on %s here, the job's on %s", job->circuit,
                 curve_id_snarkjs_name(ci.curve), curve_id_snarkjs_name(job->curve));
    }
    if (ok) {
        only[lease->idx] = true;
        parts[lease->idx] = lease->input; /* borrowed: the engine copies a witness */
        ok = durable_job_spec(&l.in, &spec, job, parts, ci.num_public, only, c->witness_dir,
                              c->spill_dir, why, sizeof(why));
    }
    free(only);
    free(parts);
    bool closing = false;
    if (ok && lease->input.spilled && lease->input.wtns_path &&
        !(l.spilled = strdup(lease->input.wtns_path))) {
        ok = false;
        snprintf(why, sizeof(why), "out of memory");
    }
    if (ok && engine_submit(c->engine, &spec, &l.eid, why, sizeof(why)) != CUZK_OK) {
        ok = false;
        closing = strstr(why, "shutting down") != NULL;
    }
    if (ok && grow((void **)&c->locals, &c->cap_locals, c->num_locals, sizeof(local))) {
        c->locals[c->num_locals++] = l;
        return;
    }
    if (ok) { /* no room to track it: its events would be lost */
        engine_cancel(c->engine, l.eid, NULL, 0);
        snprintf(why, sizeof(why), "out of memory");
        closing = true;
    }
    durable_inputs_free(&l.in);
    free(l.spilled);
    add_result(c, closing ? RESULT_RELEASED : RESULT_FAILED, &l, closing ? NULL : why);
}

/* The registered circuits' names (at most MAX_CIRCUITS), and the engine's
 * bound on partitions in flight here. */
static size_t circuits(cluster *c, engine_circuit_info *ci, const char **names, uint32_t *bound)
{
    engine_stats es;
    engine_get_stats(c->engine, &es, ci, MAX_CIRCUITS);
    size_t n = es.num_circuits < MAX_CIRCUITS ? es.num_circuits : MAX_CIRCUITS;
    for (size_t i = 0; i < n; i++)
        names[i] = ci[i].name;
    /* Enough to keep every prover busy and the synthesis queue full, no
     * more: the rest is left for other hosts. */
    *bound = es.queue_bound + (es.devices + es.cpu_fallback) * es.workers_per_device;
    if (!*bound)
        *bound = 1;
    return n;
}

/* What a claim asks for now: the circuits registered here, and the room
 * the engine has (its bound less the partitions claimed here and not
 * proved yet, and the results not written yet, less `writing` of them
 * about to be). */
typedef struct ask {
    engine_circuit_info *ci;
    const char **names;
    size_t n;
    uint32_t room;
} ask;

static void ask_now(cluster *c, ask *a, uint32_t writing)
{
    memset(a, 0, sizeof(*a));
    a->ci = calloc(MAX_CIRCUITS, sizeof(*a->ci));
    a->names = calloc(MAX_CIRCUITS, sizeof(*a->names));
    uint32_t bound = 0;
    a->n = a->ci && a->names ? circuits(c, a->ci, a->names, &bound) : 0;
    /* a partition proved here leaves the engine at once: no room kept */
    uint32_t busy = (uint32_t)c->num_results - writing;
    for (size_t i = 0; i < c->num_locals; i++)
        busy += !c->locals[i].proved;
    a->room = a->n && busy < bound ? bound - busy : 0;
}

static void ask_free(ask *a)
{
    free(a->names);
    free(a->ci);
}

/* Starts what was claimed, in the queue's order, and frees the leases. */
static void start_leases(cluster *c, store_lease *leases, uint32_t got)
{
    if (got) /* qsort wants an array even for none */
        qsort(leases, got, sizeof(*leases), by_queue_order);
    for (uint32_t i = 0; i < got; i++)
        start_one(c, &leases[i]); /* the claim takes only unfinished jobs' */
    store_leases_free(leases, got);
    free(leases);
    pthread_mutex_lock(&c->mu);
    c->view.claimed += got;
    pthread_mutex_unlock(&c->mu);
}

static void claim_some(cluster *c)
{
    ask a;
    ask_now(c, &a, 0);
    uint32_t got = 0;
    store_lease *leases = a.room ? calloc(a.room, sizeof(*leases)) : NULL;
    char msg[512] = "";
    if (leases) {
        cuzk_status rc = c->ops->claim(c->st, c->host, a.names, a.n, a.room, c->lease_s, leases,
                                       &got, msg, sizeof(msg));
        note(c, rc, msg);
    }
    start_leases(c, leases, got);
    ask_free(&a);
}

/* ---------------------------------------------------------------- write */

/* Writes a proof (u), results[written] (those before it are written);
 * when it is the last result to write and the host may claim, claims
 * what room it leaves in the same transaction (complete_claim: one round
 * trip and one commit for both). *claimed: whether a claim was made. */
static cuzk_status write_proof(cluster *c, const store_update *u, size_t written, bool may_claim,
                               bool *finished, bool *claimed, char *msg, size_t msg_len)
{
    *claimed = false;
    if (written + 1 != c->num_results || !may_claim)
        return c->ops->complete(c->st, c->host, u, finished, msg, msg_len);
    ask a;
    ask_now(c, &a, (uint32_t)written + 1);
    uint32_t got = 0;
    store_lease *leases = a.room ? calloc(a.room, sizeof(*leases)) : NULL;
    cuzk_status rc =
        c->ops->complete_claim(c->st, c->host, u, finished, a.names, a.n, leases ? a.room : 0,
                               c->lease_s, leases, &got, msg, msg_len);
    *claimed = rc == CUZK_OK && leases;
    start_leases(c, leases, got);
    ask_free(&a);
    return rc;
}

/* Writes the results in order until one cannot be written now (the last
 * proof with a claim when may_claim: *claimed). */
static bool write_results(cluster *c, bool may_claim, bool *claimed)
{
    size_t done = 0;
    cuzk_status rc = CUZK_OK;
    char msg[512] = "";
    uint64_t proved = 0, failed = 0, released = 0;
    for (; done < c->num_results; done++) {
        result *r = &c->results[done];
        bool final = false;
        if (r->kind == RESULT_PROVED) {
            store_update u = {.kind = STORE_PARTITION_DONE,
                              .idx = r->idx,
                              .proof = r->proof,
                              .proof_len = r->proof_len,
                              .pub = r->pub,
                              .num_pub = r->num_pub};
            memcpy(u.id, r->id, sizeof(u.id));
            rc = write_proof(c, &u, done, may_claim, &final, claimed, msg, sizeof(msg));
            proved += rc == CUZK_OK;
            r = &c->results[done]; /* what it claimed may have added results */
        } else if (r->kind == RESULT_FAILED) {
            rc = c->ops->fail_partition(c->st, r->id, r->idx, r->reason, c->retries, &final, msg,
                                        sizeof(msg));
            if (rc == CUZK_OK) {
                failed++;
                say(c, "job %s partition %u failed %s%s", r->id, r->idx, r->reason,
                    final ? "; the job failed: its retries are spent" : "; claimable again");
            }
        } else {
            rc = c->ops->release(c->st, c->host, r->id, r->idx, msg, sizeof(msg));
            released += rc == CUZK_OK;
        }
        if (rc != CUZK_OK && rc != CUZK_ERR_INVALID_ARGUMENT)
            break; /* kept, tried again */
        /* This host made the job final: its spilled witnesses go now. */
        if (rc == CUZK_OK && final)
            spill_drop(c->st, c->spill_dir, r->id, c->log, c->log_ctx);
        drop_result(r);
    }
    note(c, rc, msg);
    memmove(c->results, c->results + done, (c->num_results - done) * sizeof(result));
    c->num_results -= done;
    pthread_mutex_lock(&c->mu);
    c->view.proved += proved;
    c->view.failed += failed;
    c->view.released += released;
    pthread_mutex_unlock(&c->mu);
    return c->num_results == 0;
}

/* --------------------------------------------------------------- thread */

static void beat(cluster *c, bool draining)
{
    engine_circuit_info *ci = calloc(MAX_CIRCUITS, sizeof(*ci));
    const char **names = calloc(MAX_CIRCUITS, sizeof(*names));
    char list[4096] = "";
    uint32_t bound;
    size_t n = ci && names ? circuits(c, ci, names, &bound) : 0, len = 0;
    for (size_t i = 0; i < n && len < sizeof(list); i++)
        len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? "," : "", names[i]);
    char msg[512] = "";
    note(c, c->ops->beat(c->st, c->host, list, draining, c->lease_s, msg, sizeof(msg)), msg);
    free(names);
    free(ci);
}

static void *cluster_main(void *arg)
{
    cluster *c = arg;
    double next_beat = 0, next_poll = 0, next_write = 0, stop_until = 0;
    uint64_t seen = c->ops->events(c->st);
    for (;;) {
        pthread_mutex_lock(&c->mu);
        if (!c->num_events && !c->stop) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += TICK_NS;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&c->cv, &c->mu, &until);
        }
        event *evs = c->events;
        size_t n = c->num_events;
        c->events = NULL;
        c->num_events = c->cap_events = 0;
        bool draining = c->draining, stop = c->stop;
        pthread_mutex_unlock(&c->mu);

        for (size_t i = 0; i < n; i++)
            handle(c, &evs[i]);
        free(evs);
        double now = durable_now();
        if (stop && !stop_until)
            stop_until = now + STOP_WRITE_S;
        bool claimed = false, may_claim = !draining && !stop;
        if (c->num_results && now >= next_write && !write_results(c, may_claim, &claimed))
            next_write = now + RETRY_WRITE_S;
        if (stop && (!c->num_results || now >= stop_until))
            break;
        if (now >= next_beat) {
            beat(c, draining || stop);
            /* thrice per lease: one lost beat does not lose a lease */
            next_beat = now + c->lease_s / 3;
        }
        uint64_t ev = c->ops->events(c->st);
        bool told = ev != seen, poll = now >= next_poll;
        seen = ev;
        if (told || poll)
            stop_finals(c);
        if (may_claim && !claimed && (told || poll || n))
            claim_some(c);
        if (poll)
            next_poll = now + POLL_S;
        pthread_mutex_lock(&c->mu);
        c->view.in_flight = (uint32_t)c->num_locals;
        c->view.pending = (uint32_t)c->num_results;
        pthread_mutex_unlock(&c->mu);
    }
    char msg[512] = "";
    if (c->ops->leave(c->st, c->host, msg, sizeof(msg)) != CUZK_OK)
        say(c, "%s (its leases run out instead)", msg);
    return NULL;
}

/* ----------------------------------------------------------------- life */

cuzk_status cluster_start(cluster **out, const cluster_opts *o, char *msg, size_t msg_len)
{
    *out = NULL;
    cluster *c = calloc(1, sizeof(*c));
    if (!c)
        return CUZK_ERR_OUT_OF_MEMORY;
    c->st = o->st;
    c->ops = store_cluster(o->st);
    c->engine = o->engine;
    c->lease_s = o->lease_s;
    c->retries = o->retries;
    c->witness_dir = o->witness_dir;
    c->spill_dir = o->spill_dir;
    c->log = o->log;
    c->log_ctx = o->log_ctx;
    if (o->host && *o->host) {
        snprintf(c->host, sizeof(c->host), "%s", o->host);
    } else {
        char name[64] = "host";
        gethostname(name, sizeof(name));
        name[sizeof(name) - 1] = 0;
        snprintf(c->host, sizeof(c->host), "%s/%ld", name, (long)getpid());
    }
    snprintf(c->view.host, sizeof(c->view.host), "%s", c->host);
    c->view.store_up = true;
    c->view.lease_s = c->lease_s;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    engine_observer obs = {.ctx = c, .partition_done = on_partition, .job_final = on_final};
    engine_set_observer(c->engine, &obs);
    int e = pthread_create(&c->thread, NULL, cluster_main, c);
    if (e) {
        engine_set_observer(c->engine, NULL);
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
        free(c);
        msg_set(msg, msg_len, "cannot start the cluster's claimer: %s", strerror(e));
        return CUZK_ERR_IO;
    }
    c->started = true;
    say(c, "cluster host %s: claims partitions (lease %.1f s, %u tries each)", c->host, c->lease_s,
        c->retries);
    *out = c;
    return CUZK_OK;
}

/* Tells the thread to drain, or to stop. */
static void tell(cluster *c, bool stop)
{
    pthread_mutex_lock(&c->mu);
    c->draining = c->view.draining = true;
    c->stop |= stop;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void cluster_drain(cluster *c)
{
    if (c)
        tell(c, false);
}

void cluster_stop(cluster *c)
{
    if (!c)
        return;
    tell(c, true);
    pthread_join(c->thread, NULL);
    engine_set_observer(c->engine, NULL);
    for (size_t i = 0; i < c->num_events; i++)
        free(c->events[i].pub);
    free(c->events);
    for (size_t i = 0; i < c->num_locals; i++) {
        durable_inputs_free(&c->locals[i].in);
        free(c->locals[i].spilled);
    }
    free(c->locals);
    for (size_t i = 0; i < c->num_results; i++)
        drop_result(&c->results[i]);
    if (c->num_results)
        say(c, "%zu results not written: their leases run out and other hosts prove them",
            c->num_results);
    free(c->results);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

void cluster_snapshot(cluster *c, cluster_view *out)
{
    pthread_mutex_lock(&c->mu);
    *out = c->view;
    out->store_down_s = c->down_since > 0 ? durable_now() - c->down_since : 0;
    pthread_mutex_unlock(&c->mu);
}
