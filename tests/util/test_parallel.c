/* parallel_for on its helper pool: every index visited exactly once, chunks
 * at least `grain` long, the thread budget of each call respected, from one
 * caller, from concurrent callers, and from inside another call's chunks;
 * the pool no larger than the callers' budgets need. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "seed.h"
#include "util/parallel.h"
#include "util/rng.h"

/* A loop that records what parallel_for did: visits per index, chunks
 * shorter than grain that do not end the loop, and the most fn calls
 * running at once. Failures are counted, not asserted, since fn runs on
 * helper threads where cmocka cannot fail a test. */
typedef struct visit_loop {
    size_t n, grain;
    unsigned threads;
    atomic_uchar *visits;
    atomic_uint short_chunks;
    atomic_uint running, max_running;
    unsigned sleep_us; /* per chunk, so that chunks overlap in time */
} visit_loop;

static void visit_loop_init(visit_loop *v, size_t n, size_t grain, unsigned threads)
{
    memset(v, 0, sizeof(*v));
    v->n = n;
    v->grain = grain;
    v->threads = threads;
    v->visits = calloc(n ? n : 1, sizeof(atomic_uchar));
    if (!v->visits) {
        fprintf(stderr, "test_parallel: out of memory for %zu visits\n", n);
        abort();
    }
    atomic_init(&v->short_chunks, 0);
    atomic_init(&v->running, 0);
    atomic_init(&v->max_running, 0);
}

static void sleep_us(unsigned us)
{
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
}

static void visit_chunk(void *arg, size_t begin, size_t end)
{
    visit_loop *v = arg;
    unsigned now = atomic_fetch_add(&v->running, 1) + 1;
    unsigned seen = atomic_load(&v->max_running);
    while (now > seen && !atomic_compare_exchange_weak(&v->max_running, &seen, now)) {
    }
    size_t grain = v->grain ? v->grain : 1;
    if (end - begin < grain && end != v->n)
        atomic_fetch_add(&v->short_chunks, 1);
    for (size_t i = begin; i < end && i < v->n; i++)
        atomic_fetch_add(&v->visits[i], 1);
    if (v->sleep_us)
        sleep_us(v->sleep_us);
    atomic_fetch_sub(&v->running, 1);
}

/* Number of problems the loop shows (0: all well); prints the first. */
static unsigned visit_loop_check(const visit_loop *v, const char *what)
{
    unsigned bad = 0;
    for (size_t i = 0; i < v->n; i++)
        if (atomic_load(&v->visits[i]) != 1) {
            if (!bad)
                fprintf(stderr, "%s: n %zu grain %zu threads %u: index %zu visited %u times\n",
                        what, v->n, v->grain, v->threads, i, (unsigned)atomic_load(&v->visits[i]));
            bad++;
        }
    if (atomic_load(&v->short_chunks)) {
        fprintf(stderr, "%s: n %zu grain %zu: %u chunks shorter than grain\n", what, v->n, v->grain,
                atomic_load(&v->short_chunks));
        bad++;
    }
    unsigned budget = parallel_threads(v->threads);
    if (atomic_load(&v->max_running) > budget) {
        fprintf(stderr, "%s: n %zu grain %zu: %u chunks at once on a budget of %u threads\n", what,
                v->n, v->grain, atomic_load(&v->max_running), budget);
        bad++;
    }
    return bad;
}

static void visit_loop_free(visit_loop *v)
{
    free(v->visits);
}

/* Runs one loop and returns its problem count. */
static unsigned run_loop(size_t n, size_t grain, unsigned threads, const char *what)
{
    visit_loop v;
    visit_loop_init(&v, n, grain, threads);
    parallel_for(n, grain, threads, visit_chunk, &v);
    unsigned bad = visit_loop_check(&v, what);
    visit_loop_free(&v);
    return bad;
}

/* The pool's helpers: this process's threads named as parallel.c names
 * them (others, such as a sanitizer's, are not counted). */
static unsigned pool_helpers(void)
{
    DIR *dir = opendir("/proc/self/task");
    assert_non_null(dir);
    unsigned helpers = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], name[32] = "";
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* a thread that just ended */
        if (fgets(name, sizeof(name), f) && strcmp(name, "cuzk-parallel\n") == 0)
            helpers++;
        fclose(f);
    }
    closedir(dir);
    return helpers;
}

/* First, while the pool is empty: one caller calling again and again keeps
 * threads - 1 helpers, and a larger budget grows the pool to it. */
static void test_pool_grows_to_need(void **state)
{
    (void)state;
    assert_int_equal(pool_helpers(), 0);
    for (int i = 0; i < 500; i++)
        assert_int_equal(run_loop(4096, 16, 4, "pool of 4"), 0);
    assert_int_equal(pool_helpers(), 3);
    for (int i = 0; i < 200; i++)
        assert_int_equal(run_loop(4096, 16, 8, "pool of 8"), 0);
    assert_int_equal(pool_helpers(), 7);
}

static void test_empty_and_single(void **state)
{
    (void)state;
    /* n = 0: fn is never called, whatever the other arguments. */
    visit_loop v;
    visit_loop_init(&v, 0, 1, 4);
    parallel_for(0, 1, 4, visit_chunk, &v);
    parallel_for(0, 0, 0, visit_chunk, &v);
    assert_int_equal(atomic_load(&v.max_running), 0);
    visit_loop_free(&v);
    /* n = 1: one call with [0, 1). */
    for (unsigned t = 0; t <= 8; t++)
        assert_int_equal(run_loop(1, 0, t, "n = 1"), 0);
    assert_int_equal(run_loop(1, 1000, 8, "n = 1"), 0);
}

static void test_every_index_once(void **state)
{
    (void)state;
    static const size_t ns[] = {1, 2, 3, 7, 63, 64, 65, 100, 1000, 4096, 4097, 65539};
    static const size_t grains[] = {0, 1, 3, 64, 1000, 1 << 20};
    static const unsigned threads[] = {0, 1, 2, 3, 4, 5, 8, 17};
    unsigned bad = 0;
    for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
        for (size_t b = 0; b < sizeof(grains) / sizeof(grains[0]); b++)
            for (size_t c = 0; c < sizeof(threads) / sizeof(threads[0]); c++)
                bad += run_loop(ns[a], grains[b], threads[c], "grid");
    assert_int_equal(bad, 0);
}

static void test_every_index_once_random(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("test_every_index_once_random"));
    unsigned bad = 0;
    int iters = test_iters(300);
    for (int i = 0; i < iters; i++) {
        size_t n = (size_t)(rng_u64(&rng) % 20000);
        size_t grain = (size_t)(rng_u64(&rng) % 300);
        unsigned t = (unsigned)(rng_u64(&rng) % 12);
        bad += run_loop(n, grain, t, "random");
    }
    assert_int_equal(bad, 0);
}

/* Chunks that sleep overlap: the budget is what bounds them. */
static void test_budget_respected(void **state)
{
    (void)state;
    static const unsigned threads[] = {2, 3, 4, 6};
    unsigned most = 0;
    for (size_t i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
        visit_loop v;
        visit_loop_init(&v, 64, 1, threads[i]);
        v.sleep_us = 2000;
        parallel_for(v.n, 1, threads[i], visit_chunk, &v);
        assert_int_equal(visit_loop_check(&v, "budget"), 0);
        if (atomic_load(&v.max_running) > most)
            most = atomic_load(&v.max_running);
        visit_loop_free(&v);
    }
    /* The pool does run chunks side by side (the callers alone would take
     * 128 ms a loop, ample time for a helper to wake). */
    assert_true(most >= 2);
}

#define CALLERS 8

typedef struct caller_arg {
    uint64_t seed;
    int iters;
    unsigned bad;
} caller_arg;

/* One of CALLERS threads calling parallel_for at the same time as the
 * others, with its own random loops; some with sleeping chunks, so that the
 * budgets are tested while the callers compete for helpers. */
static void *caller_main(void *p)
{
    caller_arg *a = p;
    rng_t rng;
    rng_seed(&rng, a->seed);
    for (int i = 0; i < a->iters; i++) {
        visit_loop v;
        size_t n = (size_t)(rng_u64(&rng) % 5000);
        visit_loop_init(&v, n, (size_t)(rng_u64(&rng) % 100), (unsigned)(rng_u64(&rng) % 9));
        if (i % 16 == 0)
            v.sleep_us = 100;
        parallel_for(v.n, v.grain, v.threads, visit_chunk, &v);
        a->bad += visit_loop_check(&v, "concurrent");
        visit_loop_free(&v);
    }
    return NULL;
}

static void test_concurrent_callers(void **state)
{
    (void)state;
    uint64_t seed = test_seed("test_concurrent_callers");
    pthread_t tid[CALLERS];
    caller_arg args[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        args[i] = (caller_arg){.seed = seed + (uint64_t)i, .iters = test_iters(100)};
        assert_int_equal(pthread_create(&tid[i], NULL, caller_main, &args[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++) {
        pthread_join(tid[i], NULL);
        assert_int_equal(args[i].bad, 0);
    }
}

/* Nested calls: each chunk of an outer loop runs an inner loop of its own
 * with the same budget, down to `depth` levels; the leaves record their
 * visits, and every loop checks its own budget. */
typedef struct nest_tree {
    unsigned depth, threads;
    size_t width;            /* indices per loop */
    atomic_uint *visits;     /* per leaf */
    atomic_uint over_budget; /* loops that ran more chunks at once than threads */
} nest_tree;

typedef struct nest_loop {
    nest_tree *tree;
    unsigned level;
    size_t base; /* this loop's place among the loops of its level */
    atomic_uint running, max_running;
} nest_loop;

static void nest_chunk(void *arg, size_t begin, size_t end);

static void nest_run(nest_tree *tree, unsigned level, size_t base)
{
    nest_loop loop = {.tree = tree, .level = level, .base = base};
    atomic_init(&loop.running, 0);
    atomic_init(&loop.max_running, 0);
    parallel_for(tree->width, 1, tree->threads, nest_chunk, &loop);
    if (atomic_load(&loop.max_running) > tree->threads)
        atomic_fetch_add(&tree->over_budget, 1);
}

static void nest_chunk(void *arg, size_t begin, size_t end)
{
    nest_loop *loop = arg;
    unsigned now = atomic_fetch_add(&loop->running, 1) + 1;
    unsigned seen = atomic_load(&loop->max_running);
    while (now > seen && !atomic_compare_exchange_weak(&loop->max_running, &seen, now)) {
    }
    for (size_t i = begin; i < end; i++) {
        size_t index = loop->base * loop->tree->width + i;
        if (loop->level + 1 == loop->tree->depth)
            atomic_fetch_add(&loop->tree->visits[index], 1);
        else
            nest_run(loop->tree, loop->level + 1, index);
    }
    atomic_fetch_sub(&loop->running, 1);
}

/* Number of problems (0: all well); prints the first. */
static unsigned check_nested(unsigned depth, size_t width, unsigned threads)
{
    size_t leaves = 1;
    for (unsigned d = 0; d < depth; d++)
        leaves *= width;
    nest_tree tree = {.depth = depth, .threads = threads, .width = width};
    atomic_init(&tree.over_budget, 0);
    tree.visits = calloc(leaves, sizeof(atomic_uint));
    if (!tree.visits) {
        fprintf(stderr, "test_parallel: out of memory for %zu leaves\n", leaves);
        abort();
    }
    nest_run(&tree, 0, 0);
    unsigned bad = 0;
    for (size_t i = 0; i < leaves; i++)
        if (atomic_load(&tree.visits[i]) != 1 && bad++ == 0)
            fprintf(stderr, "nested depth %u width %zu threads %u: leaf %zu visited %u times\n",
                    depth, width, threads, i, atomic_load(&tree.visits[i]));
    if (atomic_load(&tree.over_budget)) {
        fprintf(stderr, "nested depth %u width %zu threads %u: %u loops over budget\n", depth,
                width, threads, atomic_load(&tree.over_budget));
        bad++;
    }
    free(tree.visits);
    return bad;
}

static void test_nested(void **state)
{
    (void)state;
    assert_int_equal(check_nested(2, 2, 2), 0); /* the two MSM groups' shape */
    assert_int_equal(check_nested(2, 64, 4), 0);
    assert_int_equal(check_nested(3, 16, 3), 0);
    assert_int_equal(check_nested(4, 6, 8), 0);
}

/* Nested calls from concurrent callers at once: the engine's workers each
 * proving, each proof running its two MSM groups. */
typedef struct nested_caller_arg {
    unsigned threads;
    unsigned bad;
} nested_caller_arg;

static void *nested_caller_main(void *p)
{
    nested_caller_arg *a = p;
    for (int i = 0; i < 20; i++)
        a->bad += check_nested(3, 8, a->threads);
    return NULL;
}

static void test_nested_concurrent(void **state)
{
    (void)state;
    pthread_t tid[CALLERS];
    nested_caller_arg args[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        args[i] = (nested_caller_arg){.threads = 2 + (unsigned)i % 4};
        assert_int_equal(pthread_create(&tid[i], NULL, nested_caller_main, &args[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++) {
        pthread_join(tid[i], NULL);
        assert_int_equal(args[i].bad, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_grows_to_need),
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_every_index_once_random),
        cmocka_unit_test(test_budget_respected),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_nested_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
