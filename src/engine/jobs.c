/* The job table: submission, queries, waiting, cancellation, and the one
 * place where a job reaches its terminal state. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"
#include "engine/metrics.h"
#include "formats/bellman_params.h"
#include "util/wipe.h"

/* ------------------------------------------------------------- table */

static size_t jobs_index(const engine *e, uint64_t id)
{
    size_t lo = 0, hi = e->num_jobs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->jobs[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

job *jobs_find(engine *e, uint64_t id)
{
    size_t i = jobs_index(e, id);
    return i < e->num_jobs && e->jobs[i]->id == id ? e->jobs[i] : NULL;
}

/* Fixed r, s are as secret as drawn ones while the proof is of use. */
static void free_rs(job *j)
{
    if (j->rs)
        cuzk_wipe(j->rs, 2 * (size_t)j->n * sizeof(fr_t));
    free(j->rs);
    j->rs = NULL;
}

static void job_free(job *j)
{
    if (!j)
        return;
    for (uint32_t i = 0; j->parts && i < j->n; i++) {
        free(j->parts[i].wtns_path);
        free(j->parts[i].witness);
        free(j->parts[i].abc);
    }
    free(j->parts);
    free(j->final_states);
    free(j->retry);
    free_rs(j);
    free(j->pub);
    free(j->proof);
    free(j);
}

static void jobs_remove_at(engine *e, size_t i)
{
    job_free(e->jobs[i]);
    memmove(&e->jobs[i], &e->jobs[i + 1], (e->num_jobs - i - 1) * sizeof(job *));
    e->num_jobs--;
}

/* Keeps at most keep_finished finished jobs: the oldest go first. */
static void jobs_trim_finished(engine *e)
{
    size_t finished = 0;
    for (size_t i = 0; i < e->num_jobs; i++)
        finished += engine_state_is_terminal(e->jobs[i]->state);
    for (size_t i = 0; i < e->num_jobs && finished > e->cfg.keep_finished;) {
        if (engine_state_is_terminal(e->jobs[i]->state)) {
            jobs_remove_at(e, i);
            finished--;
        } else {
            i++;
        }
    }
}

void jobs_free_all(engine *e)
{
    for (size_t i = 0; i < e->num_jobs; i++)
        job_free(e->jobs[i]);
    free(e->jobs);
    e->jobs = NULL;
    e->num_jobs = e->cap_jobs = 0;
}

/* ------------------------------------------------------------ states */

engine_state job_state(const job *j)
{
    if (engine_state_is_terminal(j->state))
        return j->state;
    engine_state s = ENGINE_STATE_DONE;
    bool started = false;
    for (uint32_t i = 0; i < j->n; i++) {
        engine_state p = j->parts[i].state;
        if (p != ENGINE_STATE_QUEUED || j->parts[i].attempts > 0 || j->parts[i].synth_failures > 0)
            started = true;
        if (!engine_state_is_terminal(p) && p < s)
            s = p;
    }
    if (!started)
        return ENGINE_STATE_QUEUED;
    return s == ENGINE_STATE_QUEUED ? ENGINE_STATE_SYNTHESIZING : s;
}

void job_maybe_finish(engine *e, job *j)
{
    if (engine_state_is_terminal(j->state) || j->inflight > 0)
        return;
    if (!j->stop && j->done < j->n)
        return;
    j->state = j->stop ? j->stop_state : ENGINE_STATE_DONE;
    for (uint32_t i = 0; i < j->n; i++)
        if (!engine_state_is_terminal(j->parts[i].state))
            j->parts[i].state = ENGINE_STATE_CANCELLED;
    j->finish_ns = backend_clock_ns();
    sched_remove(e, j);
    j->c->refs--;
    j->c->last_used = ++e->tick;
    /* The witnesses (and a fixed blinding) are not needed any more; nor
     * are the partitions' working records (the prover's sums, ~800 bytes
     * each: 50 MB for a job of 65536 partitions, kept for nothing until
     * engine.keep_finished drops the job). Their final states remain. */
    uint8_t *states = malloc(j->n);
    for (uint32_t i = 0; i < j->n; i++) {
        free(j->parts[i].witness);
        j->parts[i].witness = NULL;
        if (states) {
            states[i] = (uint8_t)j->parts[i].state;
            free(j->parts[i].wtns_path);
            free(j->parts[i].abc);
        }
    }
    if (states) {
        free(j->parts);
        j->parts = NULL;
        free(j->retry);
        j->retry = NULL;
        j->final_states = states;
    }
    free_rs(j);
    if (e->observer.job_final)
        e->observer.job_final(e->observer.ctx, j->id, j->state, j->message);
    event_job(e->log, j->id, j->label, j->c->name, engine_state_name(j->state), j->finish_ns, j->n,
              engine_priority_name(j->prio), j->message);
    engine_metrics_job(e->cfg.metrics, j->c->name, j->state, j->n, j->done, j->submit_ns,
                       j->finish_ns);
    event_log_flush(e->log);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->synth_cv); /* the circuit may have gone idle */
    pthread_cond_broadcast(&e->watch_cv);
}

void job_stop(engine *e, job *j, engine_state why, const char *fmt, ...)
{
    if (engine_state_is_terminal(j->state) || j->stop)
        return;
    j->stop = true;
    j->stop_state = why;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->message, sizeof(j->message), fmt, ap);
    va_end(ap);
    sched_remove(e, j);
    for (uint32_t i = 0; i < j->n; i++)
        if (j->parts[i].state == ENGINE_STATE_QUEUED)
            j->parts[i].state = ENGINE_STATE_CANCELLED;
    sched_drop_job(e, j);
    job_maybe_finish(e, j);
}

void job_drop_partition(engine *e, job *j, uint32_t idx)
{
    partition *p = &j->parts[idx];
    if (p->set) {
        pool_give_back(e, j->c, p->set);
        p->set = NULL;
    }
    if (!engine_state_is_terminal(p->state))
        p->state = ENGINE_STATE_CANCELLED;
    j->inflight--;
    job_maybe_finish(e, j);
}

void job_skip_done(job *j)
{
    while (j->next_start < j->n && j->parts[j->next_start].state == ENGINE_STATE_DONE)
        j->next_start++;
}

void job_requeue(engine *e, job *j, uint32_t idx)
{
    partition *p = &j->parts[idx];
    p->state = ENGINE_STATE_QUEUED;
    p->enqueued_ns = backend_clock_ns();
    j->retry[(j->retry_head + j->retry_len) % j->n] = idx;
    j->retry_len++;
    j->inflight--;
    e->retries++;
    sched_add(e, j);
    pthread_cond_broadcast(&e->synth_cv);
}

/* ---------------------------------------------------------- submission */

static cuzk_status copy_inputs(job *j, const engine_job_spec *spec, const circuit *c, char *msg,
                               size_t msg_len)
{
    for (uint32_t i = 0; i < j->n; i++) {
        partition *p = &j->parts[i];
        p->slot = -1;
        if (spec->done && spec->done[i])
            continue; /* proved before: engine_submit takes its proof */
        engine_partition_input seeded = {.seed = spec->seed + i};
        const engine_partition_input *in = spec->inputs ? &spec->inputs[i] : &seeded;
        p->seed = in->seed;
        if (in->witness) {
            if (in->witness_len != c->num_vars) {
                engine_msg(msg, msg_len,
                           "partition %u: the witness has %llu values, circuit %s "
                           "has %llu variables",
                           i, (unsigned long long)in->witness_len, c->name,
                           (unsigned long long)c->num_vars);
                return CUZK_ERR_INVALID_ARGUMENT;
            }
            if (!(p->witness = malloc(sizeof(fr_t) * c->num_vars)))
                return CUZK_ERR_OUT_OF_MEMORY;
            memcpy(p->witness, in->witness, sizeof(fr_t) * c->num_vars);
        } else if (in->wtns_path) {
            if (!(p->wtns_path = strdup(in->wtns_path)))
                return CUZK_ERR_OUT_OF_MEMORY;
        } else if (!c->ops->witness_from_seed) {
            engine_msg(msg, msg_len,
                       "partition %u: circuit %s needs a witness (its kind, %s, makes none "
                       "from a seed)",
                       i, c->name, c->ops->name);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        if (!!in->a + !!in->b + !!in->c == 0 && c->ops->needs_abc) {
            engine_msg(msg, msg_len,
                       "partition %u: circuit %s (kind %s) needs a, b and c with each witness", i,
                       c->name, c->ops->name);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        if ((in->a || in->b || in->c) && c->abc_on_backend) {
            engine_msg(msg, msg_len,
                       "partition %u: circuit %s evaluates a, b, c from the witness on its "
                       "backend; a, b and c are given only for circuits without a constraint "
                       "system (kind external)",
                       i, c->name);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        if (in->a || in->b || in->c) {
            if (!in->a || !in->b || !in->c || in->abc_len != c->rows) {
                engine_msg(msg, msg_len,
                           "partition %u: a, b and c must all be given, %llu values each (the "
                           "rows of circuit %s), got %llu",
                           i, (unsigned long long)c->rows, c->name,
                           (unsigned long long)in->abc_len);
                return CUZK_ERR_INVALID_ARGUMENT;
            }
            if (!(p->abc = malloc(3 * sizeof(fr_t) * c->rows)))
                return CUZK_ERR_OUT_OF_MEMORY;
            memcpy(p->abc, in->a, sizeof(fr_t) * c->rows);
            memcpy(p->abc + c->rows, in->b, sizeof(fr_t) * c->rows);
            memcpy(p->abc + 2 * c->rows, in->c, sizeof(fr_t) * c->rows);
        }
    }
    return CUZK_OK;
}

/* The partitions proved before (spec->done): DONE, with their proofs and
 * public inputs; the first never-started partition is the first other. */
static cuzk_status take_done(job *j, const engine_job_spec *spec, const circuit *c, char *msg,
                             size_t msg_len)
{
    if (!spec->done_proofs || (c->num_public && !spec->done_public)) {
        engine_msg(msg, msg_len, "partitions given as done need their proofs and public inputs");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < j->n; i++) {
        if (!spec->done[i])
            continue;
        j->parts[i].state = ENGINE_STATE_DONE;
        j->done++;
        memcpy(j->proof + (size_t)i * c->proof_bytes, spec->done_proofs + (size_t)i * c->proof_bytes,
               c->proof_bytes);
        if (c->num_public)
            memcpy(j->pub + (size_t)i * c->num_public, spec->done_public + i * c->num_public,
                   sizeof(fr_t) * c->num_public);
    }
    job_skip_done(j);
    return CUZK_OK;
}

cuzk_status engine_submit(engine_t *e, const engine_job_spec *spec, uint64_t *id, char *msg,
                          size_t msg_len)
{
    *id = 0;
    if (!spec || spec->partitions == 0 || (unsigned)spec->priority >= ENGINE_PRIORITY_COUNT) {
        engine_msg(msg, msg_len, "a job needs a circuit, a priority and at least one partition");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    job *j = calloc(1, sizeof(*j));
    if (!j)
        return CUZK_ERR_OUT_OF_MEMORY;
    j->n = spec->partitions;
    j->prio = spec->priority;
    snprintf(j->label, sizeof(j->label), "%s", spec->label ? spec->label : "");
    j->parts = calloc(j->n, sizeof(partition));
    j->retry = calloc(j->n, sizeof(uint32_t));
    cuzk_status st = CUZK_OK;
    if (!j->parts || !j->retry) {
        job_free(j);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    if (!spec->r != !spec->s) {
        job_free(j);
        engine_msg(msg, msg_len, "a fixed blinding needs both r and s");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (spec->r) {
        if (!(j->rs = malloc(2 * (size_t)j->n * sizeof(fr_t)))) {
            job_free(j);
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < j->n; i++) {
            j->rs[2 * i] = spec->r[i];
            j->rs[2 * i + 1] = spec->s[i];
        }
    }
    /* Circuits are never unregistered, so c stays valid outside the lock;
     * its counts are fixed at registration. */
    pthread_mutex_lock(&e->mu);
    circuit *c = registry_find(e, spec->circuit);
    bool closing = e->closing;
    pthread_mutex_unlock(&e->mu);
    if (closing) {
        engine_msg(msg, msg_len, "the engine is shutting down");
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else if (!c) {
        engine_msg(msg, msg_len, "no circuit named %s", spec->circuit ? spec->circuit : "(null)");
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else if (!(j->proof = calloc(j->n, c->proof_bytes)) ||
               !(j->pub =
                     calloc((size_t)j->n * (c->num_public ? c->num_public : 1), sizeof(fr_t)))) {
        st = CUZK_ERR_OUT_OF_MEMORY;
    } else {
        st = copy_inputs(j, spec, c, msg, msg_len);
    }
    if (st == CUZK_OK && spec->done)
        st = take_done(j, spec, c, msg, msg_len);
    if (st != CUZK_OK) {
        job_free(j);
        return st;
    }
    j->c = c;
    pthread_mutex_lock(&e->mu);
    if (e->closing) {
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        engine_msg(msg, msg_len, "the engine is shutting down");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    /* Trimmed here, where no thread holds a pointer to a finished job. */
    jobs_trim_finished(e);
    if (e->num_jobs == e->cap_jobs) {
        size_t cap = e->cap_jobs ? 2 * e->cap_jobs : 64;
        job **grown = realloc(e->jobs, cap * sizeof(job *));
        if (!grown) {
            pthread_mutex_unlock(&e->mu);
            job_free(j);
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        e->jobs = grown;
        e->cap_jobs = cap;
    }
    j->id = e->next_id++;
    j->seq = e->next_seq++;
    j->state = ENGINE_STATE_QUEUED;
    j->submit_ns = backend_clock_ns();
    double timeout = spec->timeout_s != 0 ? spec->timeout_s : e->cfg.default_timeout_s;
    j->deadline_ns = timeout > 0 ? j->submit_ns + (uint64_t)(timeout * 1e9) : 0;
    for (uint32_t i = 0; i < j->n; i++)
        j->parts[i].enqueued_ns = j->submit_ns;
    e->jobs[e->num_jobs++] = j; /* ids grow: the table stays sorted */
    c->refs++;
    c->last_used = ++e->tick;
    *id = j->id;
    event_job(e->log, j->id, j->label, c->name, "queued", j->submit_ns, j->n,
              engine_priority_name(j->prio), "");
    engine_metrics_job(e->cfg.metrics, c->name, ENGINE_STATE_QUEUED, j->n, 0, j->submit_ns,
                       j->submit_ns);
    sched_add(e, j);
    job_maybe_finish(e, j); /* every partition proved before */
    pthread_cond_broadcast(&e->synth_cv);
    if (j->deadline_ns)
        pthread_cond_broadcast(&e->watch_cv);
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

/* ------------------------------------------------------------ queries */

static void fill_info(const job *j, engine_job_info *info)
{
    memset(info, 0, sizeof(*info));
    info->id = j->id;
    snprintf(info->circuit, sizeof(info->circuit), "%s", j->c->name);
    info->priority = j->prio;
    info->state = job_state(j);
    info->partitions = j->n;
    info->partitions_done = j->done;
    info->attempts = j->attempts;
    info->submit_ns = j->submit_ns;
    info->finish_ns = j->finish_ns;
    snprintf(info->message, sizeof(info->message), "%s", j->message);
}

cuzk_status engine_job_status(engine_t *e, uint64_t id, engine_job_info *info, engine_state *parts,
                              uint32_t parts_cap)
{
    pthread_mutex_lock(&e->mu);
    job *j = jobs_find(e, id);
    if (j) {
        if (info)
            fill_info(j, info);
        for (uint32_t i = 0; parts && i < parts_cap && i < j->n; i++)
            parts[i] = j->parts ? j->parts[i].state : (engine_state)j->final_states[i];
    }
    pthread_mutex_unlock(&e->mu);
    return j ? CUZK_OK : CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status engine_wait(engine_t *e, uint64_t id, double timeout_s, engine_state *state)
{
    struct timespec until;
    if (timeout_s >= 0)
        engine_timeout_at(&until, timeout_s);
    pthread_mutex_lock(&e->mu);
    job *j;
    cuzk_status st = CUZK_OK;
    for (;;) {
        if (!(j = jobs_find(e, id))) {
            st = CUZK_ERR_INVALID_ARGUMENT;
            break;
        }
        if (state)
            *state = job_state(j);
        if (engine_state_is_terminal(j->state))
            break;
        if (timeout_s < 0) {
            pthread_cond_wait(&e->done_cv, &e->mu);
        } else if (pthread_cond_timedwait(&e->done_cv, &e->mu, &until) == ETIMEDOUT) {
            if (state && (j = jobs_find(e, id)))
                *state = job_state(j);
            break;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status engine_cancel(engine_t *e, uint64_t id, char *msg, size_t msg_len)
{
    pthread_mutex_lock(&e->mu);
    job *j = jobs_find(e, id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        engine_msg(msg, msg_len, "no job %llu", (unsigned long long)id);
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else if (engine_state_is_terminal(j->state) || j->stop) {
        engine_msg(msg, msg_len, "job %llu is already %s", (unsigned long long)id,
                   j->stop ? "stopping" : engine_state_name(j->state));
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else {
        job_stop(e, j, ENGINE_STATE_CANCELLED, "cancelled by request");
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status engine_job_proof(engine_t *e, uint64_t id, uint8_t *out, size_t cap, size_t *len)
{
    pthread_mutex_lock(&e->mu);
    job *j = jobs_find(e, id);
    cuzk_status st = CUZK_ERR_INVALID_ARGUMENT;
    if (j && j->state == ENGINE_STATE_DONE) {
        size_t need = (size_t)j->n * j->c->proof_bytes;
        if (len)
            *len = need;
        if (out && cap >= need) {
            memcpy(out, j->proof, need);
            st = CUZK_OK;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status engine_job_public(engine_t *e, uint64_t id, fr_t *out, size_t cap, size_t *count,
                              size_t *per_partition)
{
    pthread_mutex_lock(&e->mu);
    job *j = jobs_find(e, id);
    cuzk_status st = CUZK_ERR_INVALID_ARGUMENT;
    /* DONE is set under the lock after every partition's synthesis wrote
     * its slot, so the values are complete and no longer written. */
    if (j && j->state == ENGINE_STATE_DONE) {
        size_t per = (size_t)j->c->num_public, need = (size_t)j->n * per;
        if (count)
            *count = need;
        if (per_partition)
            *per_partition = per;
        if (out && cap >= need) {
            memcpy(out, j->pub, need * sizeof(fr_t));
            st = CUZK_OK;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

void engine_set_observer(engine_t *e, const engine_observer *obs)
{
    pthread_mutex_lock(&e->mu);
    e->observer = obs ? *obs : (engine_observer){0};
    pthread_mutex_unlock(&e->mu);
}

cuzk_status engine_forget(engine_t *e, uint64_t id)
{
    pthread_mutex_lock(&e->mu);
    size_t i = jobs_index(e, id);
    cuzk_status st = CUZK_ERR_INVALID_ARGUMENT;
    if (i < e->num_jobs && e->jobs[i]->id == id && engine_state_is_terminal(e->jobs[i]->state)) {
        jobs_remove_at(e, i);
        st = CUZK_OK;
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

size_t engine_list_jobs(engine_t *e, engine_job_info *out, size_t cap)
{
    pthread_mutex_lock(&e->mu);
    size_t n = e->num_jobs;
    for (size_t i = 0; out && i < cap && i < n; i++)
        fill_info(e->jobs[i], &out[i]);
    pthread_mutex_unlock(&e->mu);
    return n;
}
