#define _POSIX_C_SOURCE 200809L
#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

unsigned parallel_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

unsigned parallel_threads(unsigned requested)
{
    return requested ? requested : parallel_cpu_count();
}

typedef struct parallel_job {
    parallel_fn fn;
    void *ctx;
    size_t n, chunk;
    atomic_size_t next; /* next chunk start: threads claim chunks dynamically */
} parallel_job;

static void *parallel_worker(void *arg)
{
    parallel_job *job = arg;
    for (;;) {
        size_t begin = atomic_fetch_add(&job->next, job->chunk);
        if (begin >= job->n)
            break;
        size_t end = begin + job->chunk < job->n ? begin + job->chunk : job->n;
        job->fn(job->ctx, begin, end);
    }
    return NULL;
}

void parallel_for(size_t n, size_t grain, unsigned threads, parallel_fn fn, void *ctx)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    unsigned t = parallel_threads(threads);
    size_t max_useful = (n + grain - 1) / grain;
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
    pthread_t *tids = malloc(sizeof(pthread_t) * (t - 1));
    unsigned started = 0;
    if (tids) {
        for (; started < t - 1; started++)
            if (pthread_create(&tids[started], NULL, parallel_worker, &job) != 0)
                break; /* fewer threads: the remaining work still gets done below */
    }
    parallel_worker(&job);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
}
