/* The engine's threads:
 *   synth-i    take the next partition (sched_pick_synth), or load a
 *              circuit; witness, then a, b, c; into the prove queue
 *   devD-wK    take a synthesized partition this device may run; the
 *              backend's MSM sums; buffers back to the pool; retry on
 *              another device or fail the job on a backend error
 *   final-i    assemble with fresh r, s, encode, verify, answer
 *   watchdog   fails jobs past their deadline; joins a thread that died
 *              (a synthesis or prover worker's that ended mid-partition:
 *              synth_died, prover_died) and starts it again
 * Each takes engine.mu only to move work between queues. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"
#include "engine/metrics.h"
#include "formats/bellman_params.h"
#include "formats/circom_wtns.h"
#include "formats/iden3_curve.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"
#include "util/rng.h"

void engine_span(engine *e, const char *name, const char *cat, const job *j, uint32_t idx,
                 const char *who, int device, uint64_t start, uint64_t end, uint64_t bytes)
{
    if (!event_log_on(e->log) && !e->cfg.metrics)
        return;
    event_span_rec s = {.name = name,
                        .cat = cat,
                        .job = j->id,
                        .partition = idx,
                        .circuit = j->c->name,
                        .worker = who,
                        .device = device,
                        .start_ns = start,
                        .end_ns = end,
                        .bytes = bytes};
    event_span(e->log, &s);
    engine_metrics_span(e->cfg.metrics, &s);
}

void engine_counters(engine *e)
{
    if (!event_log_on(e->log))
        return;
    uint64_t now = backend_clock_ns();
    event_counter(e->log, "buffer_bytes_in_use", -1, now, (double)e->buf_in_use);
    event_counter(e->log, "prove_queue", -1, now, (double)e->prove_q.len);
}

/* ------------------------------------------------------------ synthesis */

static cuzk_status load_witness(const circuit *c, const partition *p, fr_t *w, unsigned threads,
                                char *msg, size_t msg_len)
{
    cuzk_status st = CUZK_OK;
    if (p->witness) {
        memcpy(w, p->witness, sizeof(fr_t) * c->num_vars);
    } else if (p->wtns_path) {
        circom_wtns_t wt;
        if ((st = circom_wtns_open(&wt, p->wtns_path, msg, msg_len)) != CUZK_OK)
            return st;
        if (wt.curve != c->curve) {
            /* a witness for one curve and a key for the other: never a proof */
            st = formats_curves_match(p->wtns_path, wt.curve, c->path, c->curve, msg, msg_len);
        } else if (wt.num_values != c->num_vars) {
            engine_msg(msg, msg_len, "%s has %llu values, circuit %s has %llu variables",
                       p->wtns_path, (unsigned long long)wt.num_values, c->name,
                       (unsigned long long)c->num_vars);
            st = CUZK_ERR_INVALID_ARGUMENT;
        } else {
            st = circom_wtns_decode(w, &wt, 0, c->num_vars, msg, msg_len);
        }
        circom_wtns_close(&wt);
        return st;
    } else if ((st = c->ops->witness_from_seed(&c->spec, p->seed, w, c->num_vars, threads)) !=
               CUZK_OK) {
        engine_msg(msg, msg_len, "the witness for seed %llu: %s", (unsigned long long)p->seed,
                   cuzk_status_str(st));
        return st;
    }
    bool one =
        c->curve == CURVE_BN254 ? bn254_fr_is_one(bn254_fr_slots_const(&w[0])) : fr_is_one(&w[0]);
    if (!one) {
        engine_msg(msg, msg_len, "the witness's first value (the constant ONE) is not 1");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

/* Witness and a, b, c of one partition into its buffers (unlocked); the
 * witness alone where the backend evaluates a, b, c (set->abc NULL: it
 * checks them and reports eval_abc as its own phase). */
static cuzk_status synthesize(engine *e, const worker *w, job *j, uint32_t idx, buf_set *set,
                              char *msg, size_t msg_len)
{
    const circuit *c = j->c;
    const partition *p = &j->parts[idx];
    uint64_t t0 = backend_clock_ns();
    cuzk_status st = load_witness(c, p, set->w, e->cfg.synth_threads, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    /* The public inputs, for the finalizer's check (this partition's slot
     * of j->pub is written only here). */
    memcpy(j->pub + (size_t)idx * c->num_public, set->w + 1, sizeof(fr_t) * c->num_public);
    uint64_t t1 = backend_clock_ns();
    engine_span(e, proof_phase_name(PHASE_SYNTHESIZE), "cpu", j, idx, w->name, -1, t0, t1,
                c->num_vars * sizeof(fr_t));
    if (!set->abc)
        return CUZK_OK;
    size_t n = c->domain_n;
    fr_t *a = set->abc, *b = a + n, *cc = b + n;
    const circuit_loaded *ld = &c->loaded;
    if (p->abc) {
        /* the caller's a, b, c: copied, then checked like evaluated ones */
        for (int k = 0; k < 3; k++)
            memcpy(set->abc + (size_t)k * n, p->abc + (size_t)k * ld->rows,
                   sizeof(fr_t) * ld->rows);
    } else if (ld->cs) {
        circuit_eval_abc(ld, set->w, set->abc, n, e->cfg.synth_threads);
    } else {
        engine_msg(msg, msg_len, "circuit %s has no constraint system: a, b, c must be given",
                   c->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    /* The exact check, as the CPU prover makes it: an unsatisfied witness
     * is refused here, before it takes a device. (Where c is defined as
     * a·b and evaluated here, it holds by construction.) */
    if ((p->abc || !ld->c_is_ab) &&
        !groth16_rows_satisfied_over(c->curve, a, b, cc, ld->rows, e->cfg.synth_threads)) {
        engine_msg(msg, msg_len, "the witness does not satisfy the constraints");
        return CUZK_ERR_UNSATISFIED;
    }
    uint64_t t2 = backend_clock_ns();
    engine_span(e, proof_phase_name(PHASE_EVAL_ABC), "cpu", j, idx, w->name, -1, t1, t2,
                3 * ld->rows * sizeof(fr_t));
    return CUZK_OK;
}

/* A circuit that cannot be loaded fails every unfinished job naming it. */
static void fail_circuit_jobs(engine *e, circuit *c, const char *why)
{
    for (size_t i = 0; i < e->num_jobs; i++)
        if (e->jobs[i]->c == c)
            job_stop(e, e->jobs[i], ENGINE_STATE_FAILED, "%s", why);
}

/* A synthesis attempt that failed for a reason that may pass (out of
 * memory, a worker that died): again while retries last, else the job
 * fails naming the partition and the cause. Other failures (the inputs'
 * fault) fail the job at once. */
static void synth_failed(engine *e, job *j, uint32_t idx, bool retry, const char *what)
{
    partition *pt = &j->parts[idx];
    if (retry && ++pt->synth_failures <= e->cfg.retries) {
        if (pt->set) {
            pool_give_back(e, j->c, pt->set);
            pt->set = NULL;
        }
        job_requeue(e, j, idx);
        return;
    }
    if (retry)
        job_stop(e, j, ENGINE_STATE_FAILED, "partition %u: synthesis failed after %u attempt%s: %s",
                 idx, pt->synth_failures, pt->synth_failures == 1 ? "" : "s", what);
    else
        job_stop(e, j, ENGINE_STATE_FAILED, "partition %u: synthesis failed: %s", idx, what);
    pt->state = ENGINE_STATE_FAILED;
    job_drop_partition(e, j, idx);
}

/* What a synthesis worker holds while it works unlocked, for the cleanup
 * handler should its thread end there. */
typedef struct synth_task {
    engine *e;
    worker *w;
    pick *p;
    buf_set *set;  /* the partition's buffers once it has them */
    bool reserved; /* pool_take reserved a set that is not allocated yet */
} synth_task;

/* The worker's thread ends in the middle of a partition (pthread_exit, or
 * an injected synth_die): the partition goes back for another attempt (or
 * its job fails), its buffers back to the pool, and the watchdog is told
 * to join the thread and start a new one. */
static void synth_died(void *arg)
{
    synth_task *t = arg;
    engine *e = t->e;
    job *j = t->p->j;
    uint32_t idx = t->p->idx;
    pthread_mutex_lock(&e->mu);
    e->synthesizing--;
    if (t->reserved)
        pool_unreserve(e, t->p->c);
    j->parts[idx].set = t->set;
    char what[96];
    engine_msg(what, sizeof(what), "synthesis worker %s died", t->w->name);
    if (j->stop)
        job_drop_partition(e, j, idx);
    else
        synth_failed(e, j, idx, true, what);
    t->w->dead = true;
    pthread_cond_broadcast(&e->watch_cv);
    engine_counters(e);
    pthread_mutex_unlock(&e->mu);
}

/* synth_one's unlocked part: buffers, witness, a, b, c; the thread ends
 * here (synth_died) when die. */
static cuzk_status synth_unlocked(synth_task *t, uint64_t queued, bool no_buffers, bool die,
                                  char *msg, size_t msg_len)
{
    engine *e = t->e;
    const pick *p = t->p;
    pool_free_list(p->trim);
    uint64_t now = backend_clock_ns();
    engine_span(e, proof_phase_name(PHASE_QUEUE_WAIT), "queue", p->j, p->idx, t->w->name, -1,
                queued, now, 0);
    if (p->need_alloc && !no_buffers && (t->set = pool_alloc_set(e, p->c)))
        t->reserved = false;
    cuzk_status st = CUZK_OK;
    if (!t->set) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        engine_msg(msg, msg_len, "cannot allocate %llu bytes of buffers%s",
                   (unsigned long long)p->c->set_bytes, no_buffers ? " (injected)" : "");
    }
    if (st == CUZK_OK)
        st = synthesize(e, t->w, p->j, p->idx, t->set, msg, msg_len);
    if (die)
        pthread_exit(NULL); /* synth_died runs */
    return st;
}

static void synth_one(engine *e, worker *w, pick *p)
{
    job *j = p->j;
    partition *pt = &j->parts[p->idx];
    pt->state = ENGINE_STATE_SYNTHESIZING;
    pt->set = p->set;
    j->inflight++;
    e->synthesizing++;
    uint64_t queued = pt->enqueued_ns;
    /* Injected faults (faults.h), decided under the lock. */
    bool no_buffers = faults_hit(e->faults, FAULT_ALLOC_FAIL, j->id, p->idx);
    bool die = faults_hit(e->faults, FAULT_SYNTH_DIE, j->id, p->idx);
    if (no_buffers && p->set) { /* as if the pool had been empty */
        pool_give_back(e, p->c, p->set);
        pt->set = p->set = NULL;
    }
    engine_counters(e);
    pthread_mutex_unlock(&e->mu);

    synth_task task = {.e = e, .w = w, .p = p, .set = p->set, .reserved = p->need_alloc};
    char msg[384] = "";
    cuzk_status st;
    pthread_cleanup_push(synth_died, &task);
    st = synth_unlocked(&task, queued, no_buffers, die, msg, sizeof(msg));
    pthread_cleanup_pop(0);

    pthread_mutex_lock(&e->mu);
    e->synthesizing--;
    if (task.reserved)
        pool_unreserve(e, p->c);
    pt->set = task.set;
    if (j->stop) {
        job_drop_partition(e, j, p->idx);
    } else if (st != CUZK_OK) {
        synth_failed(e, j, p->idx, st == CUZK_ERR_OUT_OF_MEMORY,
                     msg[0] ? msg : cuzk_status_str(st));
    } else {
        pt->state = ENGINE_STATE_PROVING;
        wq_push(&e->prove_q, (work){j, p->idx});
        pthread_cond_broadcast(&e->prove_cv);
    }
    engine_counters(e);
}

static void synth_loop(worker *w)
{
    engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    while (!e->exiting) {
        pick p = sched_pick_synth(e);
        if (p.kind == PICK_SYNTH) {
            synth_one(e, w, &p);
            continue;
        }
        if (p.trim) {
            pthread_mutex_unlock(&e->mu);
            pool_free_list(p.trim);
            pthread_mutex_lock(&e->mu);
        }
        if (p.kind == PICK_LOAD) {
            registry_unload_victims(e, p.victims);
            char msg[512] = "";
            pthread_mutex_unlock(&e->mu);
            cuzk_status st = registry_load(e, p.c, msg, sizeof(msg));
            pthread_mutex_lock(&e->mu);
            registry_loaded(e, p.c, st);
            if (st == CUZK_OK)
                pool_prefill(e, p.c);
            if (st != CUZK_OK)
                fail_circuit_jobs(e, p.c, msg);
            continue;
        }
        if (!p.trim)
            pthread_cond_wait(&e->synth_cv, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

/* -------------------------------------------------------------- provers */

typedef struct phase_ctx {
    engine *e;
    const job *j;
    uint32_t idx;
    const char *worker;
    int device;
} phase_ctx;

static void on_phase(void *ctx, proof_phase phase, const char *cat, uint64_t start, uint64_t end,
                     uint64_t bytes)
{
    phase_ctx *pc = ctx;
    engine_span(pc->e, proof_phase_name(phase), cat, pc->j, pc->idx, pc->worker, pc->device, start,
                end, bytes);
}

static void on_copy(void *ctx, const backend_copy *cp)
{
    phase_ctx *pc = ctx;
    engine_copy_span(pc->e, pc->j, pc->idx, pc->worker, pc->device, cp);
}

/* After a failed attempt on slot s: avoid s next time, unless no device
 * that holds the circuit would be left. */
static void avoid_slot(engine *e, const circuit *c, partition *pt, unsigned s)
{
    pt->avoid |= (uint64_t)1 << s;
    for (unsigned k = 0; k < e->num_slots; k++)
        if (!(pt->avoid & ((uint64_t)1 << k)) && registry_serves(e, c, k))
            return;
    pt->avoid = 0;
}

/* A failed attempt (backend error or a proof that does not verify):
 * again elsewhere while retries last, else the job fails. */
static void attempt_failed(engine *e, job *j, uint32_t idx, unsigned s, bool retry,
                           const char *what)
{
    partition *pt = &j->parts[idx];
    const slot *sl = &e->slots[s];
    if (retry && pt->attempts <= e->cfg.retries) {
        avoid_slot(e, j->c, pt, s);
        job_requeue(e, j, idx);
        return;
    }
    job_stop(e, j, ENGINE_STATE_FAILED,
             "partition %u failed on %s device %u after %u attempt%s: %s", idx,
             e->backends[sl->backend]->name, sl->device, pt->attempts, pt->attempts == 1 ? "" : "s",
             what);
    pt->state = ENGINE_STATE_FAILED;
    job_drop_partition(e, j, idx);
}

/* What a prover worker holds while it works unlocked, for the cleanup
 * handler should its thread end there. */
typedef struct prove_task {
    engine *e;
    worker *w;
    work it;
    bool held; /* inside engine_telemetry_hold */
} prove_task;

/* The prover's thread ends in the middle of a partition (pthread_exit from
 * below prove(), or an injected prove_die): a failed attempt, retried
 * elsewhere while retries last; the watchdog joins the thread and starts
 * a new one. */
static void prover_died(void *arg)
{
    prove_task *t = arg;
    engine *e = t->e;
    if (t->held)
        engine_telemetry_hold(e, false);
    job *j = t->it.j;
    partition *pt = &j->parts[t->it.idx];
    pthread_mutex_lock(&e->mu);
    e->proving--;
    pool_give_back(e, j->c, pt->set);
    pt->set = NULL;
    char what[96];
    engine_msg(what, sizeof(what), "prover worker %s died", t->w->name);
    if (j->stop)
        job_drop_partition(e, j, t->it.idx);
    else
        attempt_failed(e, j, t->it.idx, t->w->slot, true, what);
    t->w->dead = true;
    pthread_cond_broadcast(&e->watch_cv);
    engine_counters(e);
    pthread_mutex_unlock(&e->mu);
}

/* prover_loop's unlocked part: the backend's MSM sums (or the injected
 * failure); the thread ends here (prover_died) when die. */
static cuzk_status prove_unlocked(prove_task *t, bool inject, bool die, char *msg, size_t msg_len)
{
    engine *e = t->e;
    const worker *w = t->w;
    const slot *sl = &e->slots[w->slot];
    backend_t *b = e->backends[sl->backend];
    job *j = t->it.j;
    partition *pt = &j->parts[t->it.idx];
    const circuit *c = j->c;
    phase_ctx pc = {.e = e, .j = j, .idx = t->it.idx, .worker = w->name, .device = (int)w->slot};
    backend_input in = {.w = pt->set->w,
                        .abc = pt->set->abc, /* NULL: the backend evaluates them */
                        .rows = c->loaded.rows,
                        .rows_checked = pt->set->abc != NULL, /* at synthesis */
                        .copy = on_copy,
                        .copy_ctx = &pc};
    cuzk_status st = CUZK_ERR_DEVICE;
    if (inject) { /* faults.h: as a failing backend answers */
        engine_msg(msg, msg_len, "injected backend failure");
    } else {
        t->held = true;
        engine_telemetry_hold(e, true);
        st = b->prove(b, sl->device, c->handle[sl->backend], &in, &pt->sums, on_phase, &pc, msg,
                      msg_len);
        engine_telemetry_hold(e, false);
        t->held = false;
    }
    if (die)
        pthread_exit(NULL); /* prover_died runs */
    return st;
}

static void prover_loop(worker *w)
{
    engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        work it;
        if (!sched_pick_prove(e, w->slot, &it)) {
            if (e->exiting)
                break;
            pthread_cond_wait(&e->prove_cv, &e->mu);
            continue;
        }
        job *j = it.j;
        partition *pt = &j->parts[it.idx];
        circuit *c = j->c;
        pt->attempts++;
        j->attempts++;
        pt->slot = (int)w->slot;
        /* Injected faults (faults.h), decided under the lock. */
        bool inject = faults_hit(e->faults, FAULT_BACKEND_FAIL, j->id, it.idx);
        bool die = faults_hit(e->faults, FAULT_PROVE_DIE, j->id, it.idx);
        e->proving++;
        pthread_cond_broadcast(&e->synth_cv); /* room in the queue */
        pthread_mutex_unlock(&e->mu);

        prove_task task = {.e = e, .w = w, .it = it};
        char msg[384] = "";
        cuzk_status st;
        pthread_cleanup_push(prover_died, &task);
        st = prove_unlocked(&task, inject, die, msg, sizeof(msg));
        pthread_cleanup_pop(0);

        pthread_mutex_lock(&e->mu);
        e->proving--;
        pool_give_back(e, c, pt->set);
        pt->set = NULL;
        if (j->stop) {
            job_drop_partition(e, j, it.idx);
        } else if (st != CUZK_OK) {
            char what[512];
            engine_msg(what, sizeof(what), "%s (%s)", msg[0] ? msg : "no message",
                       cuzk_status_str(st));
            attempt_failed(e, j, it.idx, w->slot, st != CUZK_ERR_UNSATISFIED, what);
        } else {
            pt->state = ENGINE_STATE_FINALIZING;
            e->partitions_proved++;
            wq_push(&e->final_q, it);
            pthread_cond_signal(&e->final_cv);
        }
        engine_counters(e);
    }
    pthread_mutex_unlock(&e->mu);
}

/* ----------------------------------------------------------- finalizers */

static void wipe(void *p, size_t n)
{
    volatile uint8_t *v = p;
    for (size_t i = 0; i < n; i++)
        v[i] = 0;
}

/* What a finalizer holds while it works unlocked, for the cleanup handler
 * should its thread end there. */
typedef struct final_task {
    engine *e;
    worker *w;
    work it;
    rng_t *rng;
} final_task;

/* The finalizer's thread ends in the middle of a partition (an injected
 * final_die, or pthread_exit from below): its sums may be what killed it,
 * so the attempt counts as failed and the partition is proved again while
 * retries last; its randomness is wiped; the watchdog joins the thread and
 * starts a new one. */
static void final_died(void *arg)
{
    final_task *t = arg;
    engine *e = t->e;
    rng_wipe(t->rng);
    job *j = t->it.j;
    partition *pt = &j->parts[t->it.idx];
    pthread_mutex_lock(&e->mu);
    e->finalizing--;
    char what[96];
    engine_msg(what, sizeof(what), "finalizer %s died", t->w->name);
    if (j->stop)
        job_drop_partition(e, j, t->it.idx);
    else
        attempt_failed(e, j, t->it.idx, (unsigned)pt->slot, true, what);
    t->w->dead = true;
    pthread_cond_broadcast(&e->watch_cv);
    engine_counters(e);
    pthread_mutex_unlock(&e->mu);
}

/* final_loop's unlocked part: the proof assembled from the partition's
 * sums into bytes (c->proof_bytes of them, *est) and verified (*vst); the
 * thread ends here (final_died) when die. */
static void final_unlocked(final_task *t, bool verify, bool die,
                           uint8_t bytes[CURVE_PROOF_MAX_BYTES], cuzk_status *est, cuzk_status *vst)
{
    engine *e = t->e;
    const worker *w = t->w;
    const work it = t->it;
    job *j = it.j;
    partition *pt = &j->parts[it.idx];
    const circuit *c = j->c;
    const fr_t *pub = j->pub + (size_t)it.idx * c->num_public;
    bool bn254 = c->curve == CURVE_BN254;
    uint64_t t0 = backend_clock_ns();
    /* r, s in the circuit's scalar field (fr_t slots) */
    fr_t r, s;
    if (j->rs) { /* fixed at submit; j->rs lives until the job finishes */
        memcpy(&r, &j->rs[2 * (size_t)it.idx], sizeof(r));
        memcpy(&s, &j->rs[2 * (size_t)it.idx + 1], sizeof(s));
    } else if (bn254) {
        bn254_fr_random(bn254_fr_slots(&r), t->rng);
        bn254_fr_random(bn254_fr_slots(&s), t->rng);
    } else {
        fr_random(&r, t->rng);
        fr_random(&s, t->rng);
    }
    union {
        groth16_proof_t bls12_381;
        bn254_groth16_proof_t bn254;
    } proof;
    if (bn254) {
        bn254_groth16_assemble(&proof.bn254, c->loaded.bn254_vk, &pt->sums.bn254,
                               bn254_fr_slots_const(&r), bn254_fr_slots_const(&s));
        bn254_proof_encode(bytes, &proof.bn254);
        *est = CUZK_OK;
    } else {
        groth16_assemble(&proof.bls12_381, c->loaded.vk, &pt->sums, &r, &s);
        *est = bellman_proof_encode(bytes, &proof.bls12_381);
    }
    wipe(&r, sizeof(r));
    wipe(&s, sizeof(s));
    uint64_t t1 = backend_clock_ns();
    engine_span(e, proof_phase_name(PHASE_ASSEMBLE), "cpu", j, it.idx, w->name, -1, t0, t1,
                c->proof_bytes);
    *vst = CUZK_OK;
    if (verify && *est == CUZK_OK) {
        *vst = bn254 ? bn254_groth16_verify(c->loaded.bn254_vk, &proof.bn254,
                                            bn254_fr_slots_const(pub), c->num_public)
                     : groth16_verify(&c->pvk, &proof.bls12_381, pub, c->num_public);
        engine_span(e, proof_phase_name(PHASE_VERIFY), "cpu", j, it.idx, w->name, -1, t1,
                    backend_clock_ns(), c->proof_bytes);
    }
    engine_span(e, proof_phase_name(PHASE_FINALIZE), "cpu", j, it.idx, w->name, -1, t0,
                backend_clock_ns(), c->proof_bytes);
    if (die)
        pthread_exit(NULL); /* final_died runs */
}

static void final_loop(worker *w, rng_t *rng)
{
    engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        work it;
        if (!wq_take(&e->final_q, 0, &it)) {
            if (e->exiting)
                break;
            pthread_cond_wait(&e->final_cv, &e->mu);
            continue;
        }
        job *j = it.j;
        partition *pt = &j->parts[it.idx];
        circuit *c = j->c;
        e->finalizing++;
        bool verify = e->cfg.verify;
        bool die = faults_hit(e->faults, FAULT_FINAL_DIE, j->id, it.idx); /* faults.h */
        pthread_mutex_unlock(&e->mu);
        final_task task = {.e = e, .w = w, .it = it, .rng = rng};
        uint8_t bytes[CURVE_PROOF_MAX_BYTES];
        cuzk_status est, vst;
        pthread_cleanup_push(final_died, &task);
        final_unlocked(&task, verify, die, bytes, &est, &vst);
        pthread_cleanup_pop(0);

        pthread_mutex_lock(&e->mu);
        e->finalizing--;
        if (j->stop) {
            job_drop_partition(e, j, it.idx);
        } else if (est != CUZK_OK) {
            /* A zero A, B or C: possible only for a degenerate witness. */
            attempt_failed(e, j, it.idx, (unsigned)pt->slot, false,
                           "the proof has a point at infinity and cannot be encoded");
        } else if (vst != CUZK_OK) {
            e->verify_failures++;
            attempt_failed(e, j, it.idx, (unsigned)pt->slot, true,
                           vst == CUZK_ERR_VERIFY_FAILED ? "the proof does not verify"
                                                         : cuzk_status_str(vst));
        } else {
            memcpy(j->proof + (size_t)it.idx * c->proof_bytes, bytes, c->proof_bytes);
            if (e->observer.partition_done)
                e->observer.partition_done(e->observer.ctx, j->id, it.idx, bytes, c->proof_bytes,
                                           j->pub + (size_t)it.idx * c->num_public, c->num_public);
            pt->state = ENGINE_STATE_DONE;
            j->done++;
            j->inflight--;
            job_maybe_finish(e, j);
        }
    }
    pthread_mutex_unlock(&e->mu);
}

/* ------------------------------------------------------------- watchdog */

/* Joins the threads that died and starts them again (locked; a dying
 * thread has released engine.mu before it ends). */
static void restart_dead(engine *e)
{
    for (unsigned i = 0; i < e->num_workers; i++) {
        worker *d = &e->workers[i];
        if (!d->dead)
            continue;
        pthread_join(d->tid, NULL);
        d->dead = false;
        d->started = pthread_create(&d->tid, NULL, worker_main, d) == 0;
        if (d->started)
            e->workers_restarted++;
        if (!e->cfg.quiet || !d->started)
            fprintf(stderr, "cuzk: worker %s died; %s\n", d->name,
                    d->started ? "started again" : "cannot start it again");
    }
}

static void watchdog_loop(worker *w)
{
    engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    while (!e->exiting) {
        restart_dead(e);
        uint64_t now = backend_clock_ns(), next = 0;
        for (size_t i = 0; i < e->num_jobs; i++) {
            job *j = e->jobs[i];
            if (!j->deadline_ns || j->stop || engine_state_is_terminal(j->state))
                continue;
            if (j->deadline_ns <= now)
                job_stop(e, j, ENGINE_STATE_FAILED, "timed out after %.3f s",
                         (double)(j->deadline_ns - j->submit_ns) * 1e-9);
            else if (!next || j->deadline_ns < next)
                next = j->deadline_ns;
        }
        if (next) {
            struct timespec ts = {.tv_sec = (time_t)(next / 1000000000u),
                                  .tv_nsec = (long)(next % 1000000000u)};
            pthread_cond_timedwait(&e->watch_cv, &e->mu, &ts);
        } else {
            pthread_cond_wait(&e->watch_cv, &e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
}

void *worker_main(void *arg)
{
    worker *w = arg;
    switch (w->kind) {
    case WORKER_SYNTH:
        synth_loop(w);
        break;
    case WORKER_PROVER:
        prover_loop(w);
        break;
    case WORKER_FINAL: {
        rng_t rng;
        if (rng_seed_secure(&rng) != CUZK_OK) {
            /* engine_create checked that the system has randomness */
            fprintf(stderr, "cuzk: %s: no system randomness for r, s\n", w->name);
            abort();
        }
        final_loop(w, &rng);
        rng_wipe(&rng);
        break;
    }
    case WORKER_WATCHDOG:
        watchdog_loop(w);
        break;
    }
    return NULL;
}
