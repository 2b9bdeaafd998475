#define _GNU_SOURCE /* pthread_setname_np */
#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

/*
 * parallel_for runs on a process-wide pool of helper threads, started on
 * first use and kept, because starting threads on every call cost more than
 * the small loops of a proof.
 *
 * A call is a job: [0, n) cut into chunks that threads claim with one atomic
 * add, and t - 1 helper slots. The calling thread claims chunks from the
 * start; an idle helper takes a slot and claims chunks too. The slots are the
 * thread budget: the caller and at most t - 1 helpers run the job's fn at
 * once, however many helpers are idle.
 *
 * Size: when the queued jobs have more open slots than there are idle
 * helpers, the pool starts the difference (up to PARALLEL_MAX_HELPERS). So
 * it grows to the most helpers that callers have wanted at one time, and no
 * further. Idle helpers sleep on a condition variable. They are never
 * stopped: they are detached and hold no heap memory, so exit leaves
 * nothing to leak. They inherit the signal mask of the thread that starts them, as
 * the per-call threads before them did (cuzk serve blocks its signals first).
 *
 * Why concurrent and nested calls cannot deadlock: a caller never waits for
 * a helper to come. It claims chunks of its own job until none are left,
 * withdraws the slots no helper took, and then waits only for the helpers
 * already in the job to finish the chunks they hold. Such a helper is
 * running fn. If fn calls parallel_for (a nested call, as each of the two
 * MSM groups of a proof runs a Pippenger inside one chunk of an outer call),
 * that call is a job of its own under the same rule: the helper waits only
 * on threads running chunks of the job it created inside its chunk. Every
 * wait thus points down the nesting of calls, which is finite, and ends at a
 * thread running plain code. Concurrent callers share the idle helpers
 * first come, first served; a job that gets none (all busy, the pool at its
 * limit, or a thread that failed to start) is finished by its caller alone:
 * slower, never stuck. Nested calls get helpers like any other, so each MSM
 * group keeps its own thread budget rather than running on one thread.
 *
 * A waiting caller does not run other jobs' chunks. It would then wait on
 * work that is none of its own, and stacks could nest without bound.
 *
 * One mutex guards the queue, the counts and each job's slot and helper
 * counts; the chunks themselves are claimed without it.
 */

/* A bound on the pool, far above any budget the engine gives, so a runaway
 * number of concurrent callers cannot exhaust the process's threads. Past
 * it, jobs run with the helpers that are free. */
#define PARALLEL_MAX_HELPERS 1024u

/* The helpers' thread name (at most 15 characters); the tests count them by it. */
#define PARALLEL_HELPER_NAME "cuzk-parallel"

typedef struct parallel_job {
    parallel_fn fn;
    void *ctx;
    size_t n, chunk;
    atomic_size_t next; /* start of the next unclaimed chunk */
    /* Guarded by pool.lock: */
    unsigned open_slots; /* helpers that may still join */
    unsigned helpers_in; /* helpers that joined and have not left */
    bool caller_waiting; /* the caller sleeps on done until helpers_in is 0 */
    pthread_cond_t done;
    struct parallel_job *prev, *next_queued; /* in the queue while open_slots > 0 */
} parallel_job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work;       /* a job with open slots was queued */
    parallel_job *head, *tail; /* jobs with open slots, oldest first */
    unsigned helpers;          /* helper threads started */
    unsigned idle;             /* helpers in no job, those starting up included */
    unsigned sleeping;         /* idle helpers blocked on work */
    unsigned open_slots;       /* Σ open_slots over the queue */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

unsigned parallel_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

unsigned parallel_threads(unsigned requested)
{
    return requested ? requested : parallel_cpu_count();
}

/* Claims and runs chunks until none are left (caller and helpers alike). */
static void parallel_job_run(parallel_job *job)
{
    for (;;) {
        size_t begin = atomic_fetch_add_explicit(&job->next, job->chunk, memory_order_relaxed);
        if (begin >= job->n)
            return;
        size_t end = job->n - begin > job->chunk ? begin + job->chunk : job->n;
        job->fn(job->ctx, begin, end);
    }
}

/* Queue operations; pool.lock held. */
static void pool_enqueue(parallel_job *job)
{
    job->prev = pool.tail;
    job->next_queued = NULL;
    if (pool.tail)
        pool.tail->next_queued = job;
    else
        pool.head = job;
    pool.tail = job;
}

static void pool_dequeue(parallel_job *job)
{
    if (job->prev)
        job->prev->next_queued = job->next_queued;
    else
        pool.head = job->next_queued;
    if (job->next_queued)
        job->next_queued->prev = job->prev;
    else
        pool.tail = job->prev;
}

static void *pool_helper_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        parallel_job *job = pool.head;
        if (!job) {
            pool.sleeping++;
            pthread_cond_wait(&pool.work, &pool.lock);
            pool.sleeping--;
            continue;
        }
        if (--job->open_slots == 0)
            pool_dequeue(job);
        pool.open_slots--;
        pool.idle--;
        job->helpers_in++;
        pthread_mutex_unlock(&pool.lock);

        parallel_job_run(job);

        pthread_mutex_lock(&pool.lock);
        pool.idle++;
        /* Signalled under the lock: the caller cannot see helpers_in reach 0,
         * return and destroy job->done before this call is over. */
        if (--job->helpers_in == 0 && job->caller_waiting)
            pthread_cond_signal(&job->done);
    }
    return NULL;
}

/* Starts up to `count` helpers already counted in pool.helpers and
 * pool.idle; takes back the count of those that fail to start. */
static void pool_start_helpers(unsigned count)
{
    pthread_attr_t attr;
    unsigned started = 0;
    if (pthread_attr_init(&attr) == 0) {
        if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0)
            for (; started < count; started++) {
                pthread_t tid;
                if (pthread_create(&tid, &attr, pool_helper_main, NULL) != 0)
                    break; /* the rest would fail too */
                /* For top -H and debuggers; named here rather than by the
                 * helper, so that the name is there when this returns. */
                pthread_setname_np(tid, PARALLEL_HELPER_NAME);
            }
        pthread_attr_destroy(&attr);
    }
    if (started < count) {
        pthread_mutex_lock(&pool.lock);
        pool.helpers -= count - started;
        pool.idle -= count - started;
        pthread_mutex_unlock(&pool.lock);
    }
}

/* Offers job to the pool with `slots` helper slots. */
static void pool_submit(parallel_job *job, unsigned slots)
{
    pthread_mutex_lock(&pool.lock);
    job->open_slots = slots;
    pool_enqueue(job);
    pool.open_slots += slots;
    unsigned start = 0;
    if (pool.open_slots > pool.idle) {
        start = pool.open_slots - pool.idle;
        if (start > PARALLEL_MAX_HELPERS - pool.helpers)
            start = PARALLEL_MAX_HELPERS - pool.helpers;
        pool.helpers += start;
        pool.idle += start;
    }
    unsigned wake = slots < pool.sleeping ? slots : pool.sleeping;
    for (unsigned i = 0; i < wake; i++)
        pthread_cond_signal(&pool.work);
    pthread_mutex_unlock(&pool.lock);
    if (start)
        pool_start_helpers(start);
}

/* Called once the caller found no chunk left: withdraws the open slots and
 * waits for the helpers in the job to finish theirs. */
static void pool_finish(parallel_job *job)
{
    pthread_mutex_lock(&pool.lock);
    if (job->open_slots) {
        pool_dequeue(job);
        pool.open_slots -= job->open_slots;
        job->open_slots = 0;
    }
    while (job->helpers_in) {
        job->caller_waiting = true;
        pthread_cond_wait(&job->done, &pool.lock);
    }
    pthread_mutex_unlock(&pool.lock);
}

void parallel_for(size_t n, size_t grain, unsigned threads, parallel_fn fn, void *ctx)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    unsigned t = parallel_threads(threads);
    size_t max_useful = n / grain + (n % grain != 0);
    if (t > max_useful)
        t = (unsigned)max_useful;
    if (t <= 1) {
        fn(ctx, 0, n);
        return;
    }
    /* A few chunks per thread balance uneven work without much contention. */
    size_t chunk = n / ((size_t)t * 4);
    if (chunk < grain)
        chunk = grain;
    parallel_job job = {.fn = fn, .ctx = ctx, .n = n, .chunk = chunk};
    atomic_init(&job.next, 0);
    pthread_cond_init(&job.done, NULL);
    pool_submit(&job, t - 1);
    parallel_job_run(&job);
    pool_finish(&job);
    pthread_cond_destroy(&job.done);
}
