/* Scheduling: which partition a synthesis worker starts next (priority
 * order, FIFO within a priority, within the queue bound and the budgets),
 * and which synthesized partition a prover of a given device takes. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"

/* ------------------------------------------------ jobs with work to start */

static bool has_pending(const job *j)
{
    return j->retry_len > 0 || j->next_start < j->n;
}

void sched_add(engine *e, job *j)
{
    if (j->in_sched || j->stop || engine_state_is_terminal(j->state) || !has_pending(j))
        return;
    /* Sorted by submission: walk back from the tail (new jobs go last). */
    job *after = e->sched_tail[j->prio];
    while (after && after->seq > j->seq)
        after = after->sched_prev;
    j->sched_prev = after;
    j->sched_next = after ? after->sched_next : e->sched_head[j->prio];
    if (j->sched_next)
        j->sched_next->sched_prev = j;
    else
        e->sched_tail[j->prio] = j;
    if (after)
        after->sched_next = j;
    else
        e->sched_head[j->prio] = j;
    j->in_sched = true;
}

void sched_remove(engine *e, job *j)
{
    if (!j->in_sched)
        return;
    if (j->sched_prev)
        j->sched_prev->sched_next = j->sched_next;
    else
        e->sched_head[j->prio] = j->sched_next;
    if (j->sched_next)
        j->sched_next->sched_prev = j->sched_prev;
    else
        e->sched_tail[j->prio] = j->sched_prev;
    j->sched_prev = j->sched_next = NULL;
    j->in_sched = false;
}

/* ------------------------------------------------------------- queues */

/* Queue order: priority, then submission, then partition. */
static bool work_before(work a, work b)
{
    if (a.j->prio != b.j->prio)
        return a.j->prio < b.j->prio;
    if (a.j->seq != b.j->seq)
        return a.j->seq < b.j->seq;
    return a.idx < b.idx;
}

void wq_push(work_queue *q, work w)
{
    if (q->len == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 16;
        work *grown = realloc(q->items, cap * sizeof(work));
        if (!grown)
            abort(); /* a few bytes per partition in flight; nothing sane to do */
        q->items = grown;
        q->cap = cap;
    }
    uint32_t i = q->len;
    while (i > 0 && work_before(w, q->items[i - 1])) {
        q->items[i] = q->items[i - 1];
        i--;
    }
    q->items[i] = w;
    q->len++;
}

bool wq_take(work_queue *q, uint32_t i, work *out)
{
    if (i >= q->len)
        return false;
    *out = q->items[i];
    memmove(&q->items[i], &q->items[i + 1], (q->len - i - 1) * sizeof(work));
    q->len--;
    return true;
}

void wq_free(work_queue *q)
{
    free(q->items);
    memset(q, 0, sizeof(*q));
}

/* Drops j's items from q: buffers back to the pool, partitions cancelled. */
static void drop_from(engine *e, work_queue *q, job *j)
{
    for (uint32_t i = 0; i < q->len;) {
        if (q->items[i].j != j) {
            i++;
            continue;
        }
        work w;
        wq_take(q, i, &w);
        partition *p = &j->parts[w.idx];
        if (p->set) {
            pool_give_back(e, j->c, p->set);
            p->set = NULL;
        }
        p->state = ENGINE_STATE_CANCELLED;
        j->inflight--;
    }
}

void sched_drop_job(engine *e, job *j)
{
    drop_from(e, &e->prove_q, j);
    drop_from(e, &e->final_q, j);
    pthread_cond_broadcast(&e->synth_cv); /* queue room, buffers */
}

/* ------------------------------------------------------------- picking */

static uint32_t take_partition(engine *e, job *j)
{
    uint32_t idx;
    if (j->retry_len > 0) {
        idx = j->retry[j->retry_head];
        j->retry_head = (j->retry_head + 1) % j->n;
        j->retry_len--;
    } else {
        idx = j->next_start++;
        job_skip_done(j);
    }
    if (!has_pending(j))
        sched_remove(e, j);
    return idx;
}

pick sched_pick_synth(engine *e)
{
    pick p;
    memset(&p, 0, sizeof(p));
    if (e->synthesizing + e->prove_q.len >= e->cfg.queue_bound)
        return p;
    for (int prio = 0; prio < ENGINE_PRIORITY_COUNT; prio++) {
        for (job *j = e->sched_head[prio], *next; j; j = next) {
            next = j->sched_next; /* job_stop below removes j only */
            circuit *c = j->c;
            if (c->state == CIRCUIT_LOADING || c->state == CIRCUIT_UNLOADING)
                continue; /* another thread is on it; later jobs may go */
            if (c->state == CIRCUIT_IDLE) {
                circuit *victims = NULL;
                int room = registry_make_room(e, c, &victims);
                if (room < 0) {
                    job_stop(e, j, ENGINE_STATE_FAILED,
                             "circuit %s needs about %llu bytes resident; the resident budget "
                             "is %llu",
                             c->name, (unsigned long long)c->estimate_bytes,
                             (unsigned long long)e->cfg.resident_budget);
                    continue;
                }
                if (room == 0)
                    continue; /* waits for circuits in use to go idle */
                p.kind = PICK_LOAD;
                p.c = c;
                p.victims = victims;
                return p;
            }
            buf_set *set = NULL;
            int got = pool_take(e, c, &set, &p.trim);
            if (got < 0) {
                job_stop(e, j, ENGINE_STATE_FAILED,
                         "one partition of circuit %s needs %llu bytes of buffers; the buffer "
                         "budget is %llu",
                         c->name, (unsigned long long)c->set_bytes,
                         (unsigned long long)e->cfg.buffer_budget);
                continue;
            }
            if (got == 0)
                return p; /* strict priority: wait for buffers to come back */
            p.kind = PICK_SYNTH;
            p.j = j;
            p.c = c;
            p.set = set;
            p.need_alloc = set == NULL;
            p.idx = take_partition(e, j);
            return p;
        }
    }
    return p;
}

bool sched_pick_prove(engine *e, unsigned s, work *out)
{
    const slot *sl = &e->slots[s];
    for (uint32_t i = 0; i < e->prove_q.len; i++) {
        const partition *p = &e->prove_q.items[i].j->parts[e->prove_q.items[i].idx];
        if (p->avoid & ((uint64_t)1 << s))
            continue;
        /* A fallback takes retries, and the partitions of circuits the
         * primary backend does not hold (registry_load). */
        if (sl->fallback && p->attempts == 0 && e->prove_q.items[i].j->c->handle[0])
            continue;
        if (!registry_serves(e, e->prove_q.items[i].j->c, s))
            continue;
        return wq_take(&e->prove_q, i, out);
    }
    return false;
}
