/* The engine's control paths, driven by a stand-in backend whose prove()
 * can be held at a gate (so the test decides when a partition finishes)
 * and returns made-up sums (verification is off here; test_engine.c
 * checks real proofs): priority order under saturation, cancellation of
 * queued and running jobs with the buffers back in the pool, timeouts and
 * timed waits, preload / evict / LRU with refcounts, shutdown with queued
 * jobs, and registration errors. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "circuits/builtin.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "groth16/setup.h"
#include "builtin_params.h"
#include "seed.h"

static struct {
    porep_like_params shape;
    char params[64];
} fx;

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int group_setup(void **state)
{
    (void)state;
    test_builtin_params_file("engine_control", &fx.shape, fx.params, sizeof(fx.params), NULL);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(fx.params);
    return 0;
}

/* ------------------------------------------------------ gated backend */

typedef struct gated {
    backend_t base;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    unsigned entered, inside;
    int handle; /* what prepare hands out */
} gated;

static cuzk_status gated_prepare(backend_t *b, const backend_circuit_desc *d, void **h,
                                 uint64_t *bytes, char *m, size_t ml)
{
    (void)d;
    (void)m;
    (void)ml;
    gated *g = b->impl;
    *h = &g->handle;
    *bytes = 0;
    return CUZK_OK;
}

static void gated_release(backend_t *b, void *h)
{
    (void)b;
    (void)h;
}

static cuzk_status gated_prove(backend_t *b, unsigned dev, void *h, const backend_input *in,
                               groth16_sums *out, backend_phase_fn fn, void *ctx, char *m,
                               size_t ml)
{
    (void)dev;
    (void)in;
    (void)m;
    (void)ml;
    gated *g = b->impl;
    assert_ptr_equal(h, &g->handle);
    uint64_t t0 = backend_clock_ns();
    pthread_mutex_lock(&g->mu);
    g->entered++;
    g->inside++;
    pthread_cond_broadcast(&g->cv);
    while (!g->open)
        pthread_cond_wait(&g->cv, &g->mu);
    g->inside--;
    pthread_mutex_unlock(&g->mu);
    g1_jac_set_infinity(&out->a);
    g1_jac_set_infinity(&out->b1);
    g1_jac_set_infinity(&out->c);
    g2_jac_set_infinity(&out->b);
    if (fn)
        fn(ctx, PHASE_H, "cpu", t0, backend_clock_ns(), 0);
    return CUZK_OK;
}

static void gated_init(gated *g, unsigned devices)
{
    memset(g, 0, sizeof(*g));
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->base = (backend_t){.name = "cpu",
                          .is_cpu = true,
                          .num_devices = devices,
                          .impl = g,
                          .prepare = gated_prepare,
                          .release = gated_release,
                          .prove = gated_prove};
}

static void gated_free(gated *g)
{
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
}

static void gate_set(gated *g, bool open)
{
    pthread_mutex_lock(&g->mu);
    g->open = open;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Waits until `n` calls have entered prove() (a minute at most). */
static void gate_wait_entered(gated *g, unsigned n)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&g->mu);
    int rc = 0;
    while (g->entered < n && rc == 0)
        rc = pthread_cond_timedwait(&g->cv, &g->mu, &until);
    unsigned entered = g->entered;
    pthread_mutex_unlock(&g->mu);
    if (entered < n)
        fail_msg("only %u of %u partitions reached the backend", entered, n);
}

/* --------------------------------------------------------------- helpers */

/* One synthesis worker, one prover, a queue of one: saturated at once. */
static engine_t *make_engine(gated *g, const char *events, uint64_t resident_budget)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend_override = &g->base;
    cfg.synth_workers = 1;
    cfg.workers_per_device = 1;
    cfg.queue_bound = 1;
    cfg.verify = false;
    cfg.event_log = events;
    cfg.resident_budget = resident_budget;
    cfg.quiet = true;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    return e;
}

static void register_builtin(engine_t *e, const char *name)
{
    circuit_spec spec = {.name = name,
                                .kind = CIRCUIT_BUILTIN,
                                .shape = fx.shape,
                                .params_path = fx.params,
                                .check = FORMATS_CHECK_CURVE};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
}

static uint64_t submit_t(engine_t *e, const char *circuit, engine_priority prio, uint32_t parts,
                         double timeout)
{
    engine_job_spec js = {
        .circuit = circuit, .priority = prio, .partitions = parts, .seed = 1, .timeout_s = timeout};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    return id;
}

static uint64_t submit(engine_t *e, const char *circuit, engine_priority prio, uint32_t parts)
{
    return submit_t(e, circuit, prio, parts, 0);
}

static engine_state wait_for(engine_t *e, uint64_t id, double timeout, engine_job_info *info)
{
    engine_state st;
    ok(engine_wait(e, id, timeout, &st));
    if (info)
        ok(engine_job_status(e, id, info, NULL, 0));
    return st;
}

/* Polls until partition idx of job id is in state want. */
static void wait_partition(engine_t *e, uint64_t id, uint32_t idx, engine_state want)
{
    for (int i = 0; i < 20000; i++) {
        engine_state parts[8];
        ok(engine_job_status(e, id, NULL, parts, 8));
        if (parts[idx] == want)
            return;
        usleep(1000);
    }
    fail_msg("job %llu partition %u never became %s", (unsigned long long)id, idx,
             engine_state_name(want));
}

static void expect_pool_idle(engine_t *e)
{
    engine_stats s;
    engine_circuit_info ci[4];
    engine_get_stats(e, &s, ci, 4);
    assert_int_equal(s.buffer_in_use, 0);
    assert_int_equal(s.pool_acquires, s.pool_releases);
    for (size_t i = 0; i < s.num_circuits && i < 4; i++)
        assert_int_equal(ci[i].sets, ci[i].sets_free);
}

/* ----------------------------------------------------------------- tests */

static void test_priority_order(void **state)
{
    (void)state;
    char events[64];
    snprintf(events, sizeof(events), "/tmp/cuzk-control-events-XXXXXX");
    close(mkstemp(events));
    gated g;
    gated_init(&g, 1);
    engine_t *e = make_engine(&g, events, 0);
    register_builtin(e, "c");
    /* The prover holds B at the gate; F fills the queue of one. */
    uint64_t b = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
    gate_wait_entered(&g, 1);
    uint64_t f = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
    wait_partition(e, f, 0, ENGINE_STATE_PROVING);
    static const engine_priority order[] = {ENGINE_PRIORITY_LOW, ENGINE_PRIORITY_NORMAL,
                                            ENGINE_PRIORITY_HIGH, ENGINE_PRIORITY_CRITICAL,
                                            ENGINE_PRIORITY_NORMAL};
    uint64_t ids[5];
    for (int i = 0; i < 5; i++)
        ids[i] = submit(e, "c", order[i], 1);
    engine_job_info info;
    ok(engine_job_status(e, ids[0], &info, NULL, 0));
    assert_int_equal(info.state, ENGINE_STATE_QUEUED);
    gate_set(&g, true);
    for (int i = 0; i < 5; i++)
        assert_int_equal(wait_for(e, ids[i], 30, NULL), ENGINE_STATE_DONE);
    engine_destroy(e);

    /* Start order from the events: when each job's synthesis began. */
    uint64_t expect[7] = {b, f, ids[3], ids[2], ids[1], ids[4], ids[0]};
    uint64_t start[7] = {0};
    FILE *fp = fopen(events, "r");
    char line[2048];
    while (fgets(line, sizeof(line), fp)) {
        json_t *o = json_loads(line, 0, NULL);
        assert_non_null(o);
        const char *name = json_string_value(json_object_get(o, "name"));
        if (name && !strcmp(name, "synthesize")) {
            uint64_t job = (uint64_t)json_integer_value(json_object_get(o, "job"));
            for (int i = 0; i < 7; i++)
                if (expect[i] == job)
                    start[i] = (uint64_t)json_integer_value(json_object_get(o, "start_ns"));
        }
        json_decref(o);
    }
    fclose(fp);
    for (int i = 0; i < 7; i++) {
        assert_true(start[i] > 0);
        if (i > 0 && start[i] < start[i - 1])
            fail_msg("job %llu started before job %llu", (unsigned long long)expect[i],
                     (unsigned long long)expect[i - 1]);
    }
    unlink(events);
    gated_free(&g);
}

static void test_cancel_queued_and_running(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "c");
    /* A: partition 0 at the gate, partition 1 synthesized in the queue. */
    uint64_t a = submit(e, "c", ENGINE_PRIORITY_NORMAL, 3);
    gate_wait_entered(&g, 1);
    wait_partition(e, a, 1, ENGINE_STATE_PROVING);
    uint64_t b = submit(e, "c", ENGINE_PRIORITY_HIGH, 3);

    /* B is queued: cancelled at once. */
    ok(engine_cancel(e, b, msg, sizeof(msg)));
    engine_job_info info;
    assert_int_equal(wait_for(e, b, 5, &info), ENGINE_STATE_CANCELLED);
    assert_string_equal(info.message, "cancelled by request");
    assert_int_equal(engine_cancel(e, b, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);

    /* A runs: the queued partition goes now, the running one at its
     * boundary, not before. */
    ok(engine_cancel(e, a, msg, sizeof(msg)));
    engine_state parts[3];
    ok(engine_job_status(e, a, NULL, parts, 3));
    assert_int_equal(parts[1], ENGINE_STATE_CANCELLED);
    assert_int_equal(parts[2], ENGINE_STATE_CANCELLED);
    assert_int_equal(wait_for(e, a, 0.1, NULL), ENGINE_STATE_PROVING);
    engine_stats s;
    engine_get_stats(e, &s, NULL, 0);
    assert_int_equal(s.buffer_in_use, s.buffer_allocated / s.pool_allocs); /* the gated one */
    gate_set(&g, true);
    assert_int_equal(wait_for(e, a, 10, &info), ENGINE_STATE_CANCELLED);
    ok(engine_job_status(e, a, NULL, parts, 3));
    assert_int_equal(parts[0], ENGINE_STATE_CANCELLED);
    expect_pool_idle(e);

    /* The engine goes on, from the pool. */
    engine_get_stats(e, &s, NULL, 0);
    uint64_t allocs = s.pool_allocs;
    uint64_t c = submit(e, "c", ENGINE_PRIORITY_LOW, 2);
    assert_int_equal(wait_for(e, c, 10, NULL), ENGINE_STATE_DONE);
    engine_get_stats(e, &s, NULL, 0);
    assert_int_equal(s.pool_allocs, allocs);
    expect_pool_idle(e);
    engine_destroy(e);
    gated_free(&g);
}

static void test_timeouts(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "c");
    ok(engine_preload(e, "c", msg, sizeof(msg))); /* no loading inside the deadlines */
    double t_run = now_s();
    uint64_t running = submit_t(e, "c", ENGINE_PRIORITY_NORMAL, 1, 0.5);
    gate_wait_entered(&g, 1);
    uint64_t filler = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
    wait_partition(e, filler, 0, ENGINE_STATE_PROVING);
    uint64_t queued = submit_t(e, "c", ENGINE_PRIORITY_NORMAL, 1, 0.3);

    /* A timed wait times out. */
    double t0 = now_s();
    assert_int_equal(wait_for(e, filler, 0.05, NULL), ENGINE_STATE_PROVING);
    double waited = now_s() - t0;
    assert_true(waited >= 0.045 && waited < 5);

    /* The queued job fails at its deadline; the running one cannot stop
     * inside the backend, so it fails at its boundary. */
    engine_job_info info;
    assert_int_equal(wait_for(e, queued, 10, &info), ENGINE_STATE_FAILED);
    assert_non_null(strstr(info.message, "timed out after 0.300 s"));
    assert_true(now_s() - t0 < 5);
    double left = t_run + 0.6 - now_s(); /* past the running job's deadline */
    if (left > 0)
        usleep((useconds_t)(left * 1e6));
    assert_int_equal(wait_for(e, running, 0.01, NULL), ENGINE_STATE_PROVING);
    gate_set(&g, true);
    assert_int_equal(wait_for(e, running, 10, &info), ENGINE_STATE_FAILED);
    assert_non_null(strstr(info.message, "timed out"));
    assert_int_equal(wait_for(e, filler, 10, NULL), ENGINE_STATE_DONE);
    expect_pool_idle(e);

    /* An engine-wide default applies to jobs without their own. */
    engine_destroy(e);
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend_override = &g.base;
    cfg.default_timeout_s = 0.1;
    cfg.verify = false;
    gate_set(&g, false);
    g.entered = 0;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    register_builtin(e, "c");
    uint64_t d = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
    uint64_t none = submit_t(e, "c", ENGINE_PRIORITY_NORMAL, 1, -1);
    usleep(300000); /* past d's deadline, wherever it is in the pipeline */
    gate_set(&g, true);
    assert_int_equal(wait_for(e, d, 10, NULL), ENGINE_STATE_FAILED);
    assert_int_equal(wait_for(e, none, 10, NULL), ENGINE_STATE_DONE);
    engine_destroy(e);
    gated_free(&g);
}

static bool resident(engine_t *e, const char *name, engine_circuit_info *out)
{
    engine_stats s;
    engine_circuit_info ci[4];
    engine_get_stats(e, &s, ci, 4);
    for (size_t i = 0; i < s.num_circuits && i < 4; i++) {
        if (!strcmp(ci[i].name, name)) {
            if (out)
                *out = ci[i];
            return ci[i].resident;
        }
    }
    fail_msg("no circuit %s", name);
    return false;
}

static void test_preload_evict_lru(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    gate_set(&g, true);
    /* Sizes from a first engine: E before loading (estimate), R after. */
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "a");
    engine_circuit_info ci = {0};
    resident(e, "a", &ci);
    uint64_t est = ci.resident_bytes;
    ok(engine_preload(e, "a", msg, sizeof(msg)));
    assert_true(resident(e, "a", &ci));
    uint64_t real = ci.resident_bytes;
    print_message("resident size: %llu bytes estimated, %llu loaded\n", (unsigned long long)est,
                  (unsigned long long)real);
    engine_destroy(e);

    /* Room for two: R + E fits, 2R + E does not. */
    e = make_engine(&g, NULL, real + est + real / 2);
    register_builtin(e, "a");
    register_builtin(e, "b");
    register_builtin(e, "c");
    ok(engine_preload(e, "a", msg, sizeof(msg)));
    ok(engine_preload(e, "b", msg, sizeof(msg)));
    ok(engine_preload(e, "a", msg, sizeof(msg))); /* a is now the more recent */
    assert_true(resident(e, "a", &ci) && ci.loads == 1);
    ok(engine_preload(e, "c", msg, sizeof(msg)));
    assert_true(resident(e, "a", NULL));
    assert_false(resident(e, "b", NULL)); /* least recently used went */
    assert_true(resident(e, "c", NULL));

    /* A job on b loads it again, evicting the idle LRU one (a). */
    uint64_t jb = submit(e, "b", ENGINE_PRIORITY_NORMAL, 1);
    assert_int_equal(wait_for(e, jb, 10, NULL), ENGINE_STATE_DONE);
    assert_true(resident(e, "b", &ci) && ci.loads == 2);
    assert_false(resident(e, "a", NULL));

    /* In use: refused; idle: freed. */
    gate_set(&g, false);
    g.entered = 0;
    uint64_t jc = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
    gate_wait_entered(&g, 1);
    assert_int_equal(engine_evict(e, "c", msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "in use"));
    assert_true(resident(e, "c", NULL));
    engine_stats s;
    engine_get_stats(e, &s, NULL, 0);
    uint64_t before = s.resident_bytes;
    ok(engine_evict(e, "b", msg, sizeof(msg)));
    assert_false(resident(e, "b", NULL));
    engine_get_stats(e, &s, NULL, 0);
    assert_int_equal(s.resident_bytes, before - real);
    /* Evicting a circuit that is not resident is fine. */
    ok(engine_evict(e, "a", msg, sizeof(msg)));
    gate_set(&g, true);
    assert_int_equal(wait_for(e, jc, 10, NULL), ENGINE_STATE_DONE);
    ok(engine_evict(e, "c", msg, sizeof(msg)));
    engine_get_stats(e, &s, NULL, 0);
    assert_int_equal(s.resident_bytes, 0);
    assert_int_equal(s.buffer_allocated, 0); /* the pools went with their circuits */
    assert_int_equal(s.pool_allocs, s.pool_frees);

    /* Nothing fits a budget below one circuit: preload and jobs say so. */
    engine_destroy(e);
    e = make_engine(&g, NULL, real / 2);
    register_builtin(e, "a");
    assert_int_equal(engine_preload(e, "a", msg, sizeof(msg)), CUZK_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(msg, "resident budget"));
    engine_job_info info;
    uint64_t j = submit(e, "a", ENGINE_PRIORITY_NORMAL, 1);
    assert_int_equal(wait_for(e, j, 10, &info), ENGINE_STATE_FAILED);
    assert_non_null(strstr(info.message, "resident budget"));
    engine_destroy(e);
    gated_free(&g);
}

/* One buffer set's budget shared by two circuits: the idle circuit's set
 * gives way to the other's (freed once, not per partition). */
static void test_pools_share_the_budget(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    gate_set(&g, true);
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "a");
    engine_stats s;
    engine_circuit_info ci[2];
    engine_get_stats(e, &s, ci, 1);
    engine_destroy(e);

    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend_override = &g.base;
    cfg.verify = false;
    cfg.buffer_budget = ci[0].set_bytes;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    register_builtin(e, "a");
    register_builtin(e, "b");
    uint64_t ja = submit(e, "a", ENGINE_PRIORITY_NORMAL, 3);
    assert_int_equal(wait_for(e, ja, 10, NULL), ENGINE_STATE_DONE);
    uint64_t jb = submit(e, "b", ENGINE_PRIORITY_NORMAL, 3);
    assert_int_equal(wait_for(e, jb, 10, NULL), ENGINE_STATE_DONE);
    engine_get_stats(e, &s, ci, 2);
    assert_int_equal(s.pool_allocs, 2);
    assert_int_equal(s.pool_frees, 1);
    assert_int_equal(s.pool_acquires, 6);
    assert_true(s.buffer_peak <= cfg.buffer_budget);
    assert_int_equal(ci[0].sets, 0);
    assert_int_equal(ci[1].sets, 1);
    engine_destroy(e);
    gated_free(&g);
}

typedef struct opener {
    gated *g;
    unsigned delay_ms;
} opener;

static void *open_later(void *arg)
{
    opener *o = arg;
    usleep(o->delay_ms * 1000);
    gate_set(o->g, true);
    return NULL;
}

static void test_shutdown(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "c");
    uint64_t a = submit(e, "c", ENGINE_PRIORITY_NORMAL, 2);
    gate_wait_entered(&g, 1);
    uint64_t q[3];
    for (int i = 0; i < 3; i++)
        q[i] = submit(e, "c", (engine_priority)i, 2);
    pthread_t t;
    opener o = {&g, 200};
    pthread_create(&t, NULL, open_later, &o);
    engine_shutdown(e, false); /* waits for the partition at the gate */
    pthread_join(t, NULL);
    engine_job_info info;
    for (int i = 0; i < 3; i++) {
        ok(engine_job_status(e, q[i], &info, NULL, 0));
        assert_int_equal(info.state, ENGINE_STATE_CANCELLED);
        assert_string_equal(info.message, "engine shut down");
    }
    ok(engine_job_status(e, a, &info, NULL, 0));
    assert_int_equal(info.state, ENGINE_STATE_CANCELLED);
    assert_string_equal(info.message, "engine shut down");
    uint64_t id;
    engine_job_spec js = {.circuit = "c", .partitions = 1};
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    expect_pool_idle(e);
    engine_shutdown(e, false); /* idempotent */
    engine_destroy(e);

    /* Draining finishes what is queued. */
    gate_set(&g, false);
    g.entered = 0;
    e = make_engine(&g, NULL, 0);
    register_builtin(e, "c");
    for (int i = 0; i < 3; i++)
        q[i] = submit(e, "c", ENGINE_PRIORITY_LOW, 2);
    gate_wait_entered(&g, 1);
    o.delay_ms = 50;
    pthread_create(&t, NULL, open_later, &o);
    engine_shutdown(e, true);
    pthread_join(t, NULL);
    for (int i = 0; i < 3; i++) {
        ok(engine_job_status(e, q[i], &info, NULL, 0));
        assert_int_equal(info.state, ENGINE_STATE_DONE);
    }
    engine_destroy(e);
    gated_free(&g);
}

static void test_registration_and_ids(void **state)
{
    (void)state;
    gated g;
    gated_init(&g, 1);
    gate_set(&g, true);
    engine_t *e = make_engine(&g, NULL, 0);
    register_builtin(e, "c");
    circuit_spec spec = {
        .name = "c", .kind = CIRCUIT_BUILTIN, .shape = fx.shape, .params_path = fx.params};
    assert_int_equal(engine_register(e, &spec, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "already registered"));
    spec.name = "missing";
    spec.params_path = "/nonexistent/params";
    assert_int_not_equal(engine_register(e, &spec, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "missing"));
    spec.name = "other-shape";
    spec.params_path = fx.params;
    assert_int_equal(porep_like_params_for_constraints(&spec.shape, 11, 8), CUZK_OK);
    assert_int_equal(engine_register(e, &spec, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    uint64_t id;
    engine_job_spec js = {.circuit = "nope", .partitions = 1};
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    js.circuit = "c";
    js.partitions = 0;
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(engine_wait(e, 12345, 0, NULL), CUZK_ERR_INVALID_ARGUMENT);

    /* Ids grow and are never reused, forgotten jobs included. */
    uint64_t last = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t j = submit(e, "c", ENGINE_PRIORITY_NORMAL, 1);
        assert_true(j > last);
        assert_int_equal(wait_for(e, j, 10, NULL), ENGINE_STATE_DONE);
        ok(engine_forget(e, j));
        assert_int_equal(engine_job_status(e, j, NULL, NULL, 0), CUZK_ERR_INVALID_ARGUMENT);
        last = j;
    }
    engine_destroy(e);
    gated_free(&g);
}

static void test_backend_selection(void **state)
{
    (void)state;
    backend_kind k;
    assert_true(backend_kind_parse("auto", &k) && k == BACKEND_AUTO);
    assert_true(backend_kind_parse("cpu", &k) && k == BACKEND_CPU);
    assert_true(backend_kind_parse("cuda", &k) && k == BACKEND_CUDA);
    assert_false(backend_kind_parse("gpu", &k));
    char note[160];
    backend_t *b;
    /* auto: the CPU with a line saying why, unless a GPU backend is built
     * in and finds a device. */
    ok(backend_create(&b, BACKEND_AUTO, NULL, note, sizeof(note), msg, sizeof(msg)));
    bool gpu = strcmp(b->name, "cpu") != 0;
    assert_true(b->num_devices >= 1);
    if (!gpu)
        assert_non_null(strstr(note, "proving on the CPU"));
    assert_true(note[0] != 0);
    b->destroy(b);
    ok(backend_create(&b, BACKEND_CPU, NULL, note, sizeof(note), msg, sizeof(msg)));
    assert_string_equal(b->name, "cpu");
    assert_string_equal(note, "");
    b->destroy(b);
    if (gpu)
        return; /* cuda is available here: nothing to refuse */
    assert_int_equal(backend_create(&b, BACKEND_CUDA, NULL, note, sizeof(note), msg, sizeof(msg)),
                     CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "CUDA backend is not available"));
    assert_null(b);
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = BACKEND_CUDA;
    engine_t *e;
    assert_int_equal(engine_create(&e, &cfg, msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_null(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        // clang-format off
        cmocka_unit_test(test_priority_order),
        cmocka_unit_test(test_cancel_queued_and_running),
        cmocka_unit_test(test_timeouts),
        cmocka_unit_test(test_preload_evict_lru),
        cmocka_unit_test(test_pools_share_the_budget),
        cmocka_unit_test(test_shutdown),
        cmocka_unit_test(test_registration_and_ids),
        cmocka_unit_test(test_backend_selection),
        // clang-format on
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
