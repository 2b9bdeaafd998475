/* parallel_for's own cost: many small loops, where starting the threads
 * weighs more than the work. One JSON line per (case, thread count).
 *
 * Usage: bench_parallel [--calls C] [--n N] [--grain G] [--threads T[,T...]]
 *                       [--callers K] [--runs R]
 * Defaults: 10000 calls of n = 4096, grain 64; threads 2 and all CPUs;
 * callers 4; runs 5 (median reported). Cases:
 *  - "serial": one thread makes the calls one after another;
 *  - "concurrent": K threads each make C / K calls at once, as the engine's
 *    workers do;
 *  - "nested": C / 64 outer calls of 2 chunks, each chunk making 32 inner
 *    calls on T / 2 threads, as the two MSM groups of a proof do.
 * The loop body adds a few integers per index, so the figures are mostly
 * parallel_for's overhead; a checksum guards against a lost chunk. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "util/parallel.h"

#define BENCH_MAX_THREAD_COUNTS 8
#define BENCH_MAX_RUNS 64
#define BENCH_MAX_CALLERS 64
#define BENCH_INNER_CALLS 32

typedef struct bench_loop {
    size_t n, grain;
    unsigned threads;
    atomic_uint_fast64_t sum; /* Σ index over every call: checks each chunk ran once */
} bench_loop;

static void bench_body(void *arg, size_t begin, size_t end)
{
    bench_loop *loop = arg;
    uint64_t s = 0;
    for (size_t i = begin; i < end; i++)
        s += i;
    atomic_fetch_add_explicit(&loop->sum, s, memory_order_relaxed);
}

typedef struct bench_caller {
    bench_loop *loop;
    size_t calls;
} bench_caller;

static void *bench_caller_main(void *arg)
{
    bench_caller *c = arg;
    for (size_t i = 0; i < c->calls; i++)
        parallel_for(c->loop->n, c->loop->grain, c->loop->threads, bench_body, c->loop);
    return NULL;
}

/* One chunk of the outer loop of "nested": inner calls on half the threads. */
static void bench_nested_outer(void *arg, size_t begin, size_t end)
{
    bench_loop *loop = arg;
    unsigned half = loop->threads / 2 ? loop->threads / 2 : 1;
    for (size_t g = begin; g < end; g++)
        for (int i = 0; i < BENCH_INNER_CALLS; i++)
            parallel_for(loop->n, loop->grain, half, bench_body, loop);
}

typedef enum bench_case {
    BENCH_SERIAL,
    BENCH_CONCURRENT,
    BENCH_NESTED,
    BENCH_CASE_COUNT
} bench_case;

static const char *const bench_case_name[BENCH_CASE_COUNT] = {"serial", "concurrent", "nested"};

/* Runs one case; returns the wall time in ms and the number of loops run in
 * *loops, or a negative time when the checksum is wrong. */
static double bench_run(bench_case kind, size_t calls, size_t n, size_t grain, unsigned threads,
                        unsigned callers, size_t *loops)
{
    bench_loop loop = {.n = n, .grain = grain, .threads = threads};
    atomic_init(&loop.sum, 0);
    uint64_t t0 = bench_now_ns();
    switch (kind) {
    case BENCH_SERIAL: {
        bench_caller c = {.loop = &loop, .calls = calls};
        bench_caller_main(&c);
        *loops = calls;
        break;
    }
    case BENCH_CONCURRENT: {
        pthread_t tid[BENCH_MAX_CALLERS];
        bench_caller c = {.loop = &loop, .calls = calls / callers};
        unsigned started = 0;
        for (; started < callers; started++)
            if (pthread_create(&tid[started], NULL, bench_caller_main, &c) != 0)
                break;
        for (unsigned i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        *loops = c.calls * started;
        break;
    }
    case BENCH_NESTED: {
        size_t outer = calls / (2 * BENCH_INNER_CALLS);
        for (size_t i = 0; i < outer; i++)
            parallel_for(2, 1, threads < 2 ? 2 : threads, bench_nested_outer, &loop);
        *loops = outer * 2 * BENCH_INNER_CALLS;
        break;
    }
    case BENCH_CASE_COUNT:
        break;
    }
    uint64_t t1 = bench_now_ns();
    uint64_t want = (uint64_t)*loops * ((uint64_t)n * (n - 1) / 2);
    if (atomic_load(&loop.sum) != want)
        return -1;
    return (double)(t1 - t0) / 1e6;
}

static int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void bench_usage(void)
{
    fprintf(stderr, "usage: bench_parallel [--calls C] [--n N] [--grain G] [--threads T[,T...]] "
                    "[--callers K] [--runs R]\n");
}

int main(int argc, char **argv)
{
    size_t calls = 10000, n = 4096, grain = 64;
    unsigned runs = 5, callers = 4, nthreads = 0;
    unsigned thread_counts[BENCH_MAX_THREAD_COUNTS];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *p = argv[++i];
            while (*p && nthreads < BENCH_MAX_THREAD_COUNTS) {
                thread_counts[nthreads++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc) {
            calls = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            n = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--grain") == 0 && i + 1 < argc) {
            grain = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--callers") == 0 && i + 1 < argc) {
            callers = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            bench_usage();
            return 2;
        }
    }
    if (nthreads == 0) {
        thread_counts[nthreads++] = 2;
        if (parallel_cpu_count() > 2)
            thread_counts[nthreads++] = parallel_cpu_count();
    }
    if (runs == 0 || runs > BENCH_MAX_RUNS || callers == 0 || callers > BENCH_MAX_CALLERS ||
        n == 0 || calls < 2 * BENCH_INNER_CALLS) {
        bench_usage();
        return 2;
    }

    int status = 0;
    for (unsigned ti = 0; ti < nthreads; ti++) {
        unsigned t = parallel_threads(thread_counts[ti]);
        for (int kind = 0; kind < BENCH_CASE_COUNT; kind++) {
            double ms[BENCH_MAX_RUNS];
            size_t loops = 0;
            /* One uncounted run first: thread stacks, a pool if there is one. */
            for (unsigned r = 0; r <= runs; r++) {
                double t_ms = bench_run((bench_case)kind, calls, n, grain, t, callers, &loops);
                if (t_ms < 0) {
                    fprintf(stderr, "bench_parallel: %s on %u threads lost or repeated a chunk\n",
                            bench_case_name[kind], t);
                    status = 1;
                    t_ms = 0;
                }
                if (r > 0)
                    ms[r - 1] = t_ms;
            }
            qsort(ms, runs, sizeof(double), bench_cmp_double);
            double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
            printf("{\"bench\":\"parallel_for\",\"case\":\"%s\",\"n\":%zu,\"grain\":%zu,"
                   "\"threads\":%u,\"callers\":%u,\"loops\":%zu,\"median_ms\":%.3f,"
                   "\"min_ms\":%.3f,\"max_ms\":%.3f,\"us_per_loop\":%.3f,\"runs\":%u,"
                   "\"commit\":\"%s\"}\n",
                   bench_case_name[kind], n, grain, t, kind == BENCH_CONCURRENT ? callers : 1,
                   loops, median, ms[0], ms[runs - 1], loops ? median * 1e3 / (double)loops : 0.0,
                   runs, CUZK_GIT_COMMIT);
            fflush(stdout);
        }
    }
    return status;
}
