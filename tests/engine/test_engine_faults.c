/* Fault injection (src/engine/faults.h, CUZK_FAULTS): a backend failure,
 * a buffer allocation that fails, and a synthesis or prover worker that
 * dies, each at one chosen partition of one chosen job. The partition is
 * retried (on another device, or the CPU fallback behind a GPU-like
 * backend); a fault that outlasts the retries fails its job only, with a
 * message naming the partition and the cause; the other partitions and
 * the other jobs complete and their proofs verify; the buffers all come
 * back; a dead worker is started again. Skipped (exit 77, saying why) in
 * builds without the hook (Release builds), after checking that they ignore
 * CUZK_FAULTS; the sanitizer flavour runs the tests. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/faults.h"
#include "engine_fixture.h"

static void base_config(engine_config *cfg)
{
    efx_base_config(cfg);
    cfg->workers_per_device = 1;
}

/* An engine with the faults spec in CUZK_FAULTS (read at creation), and
 * the circuit "small" registered. */
static engine_t *faulty_engine(const engine_config *cfg, const char *faults)
{
    setenv("CUZK_FAULTS", faults, 1);
    engine_t *e;
    cuzk_status st = engine_create(&e, cfg, efx_msg, sizeof(efx_msg));
    unsetenv("CUZK_FAULTS");
    efx_ok(st);
    efx_register(&efx, e, "small");
    return e;
}

static engine_job_info job_info(engine_t *e, uint64_t id)
{
    engine_job_info info;
    efx_ok(engine_job_status(e, id, &info, NULL, 0));
    return info;
}

static void expect_message(engine_t *e, uint64_t id, const char *const *parts, size_t n)
{
    engine_job_info info = job_info(e, id);
    for (size_t i = 0; i < n; i++)
        if (!strstr(info.message, parts[i]))
            fail_msg("job %llu's message lacks \"%s\": %s", (unsigned long long)id, parts[i],
                     info.message);
    printf("job %llu failed: %s\n", (unsigned long long)id, info.message);
}

/* Nothing held after the jobs ended: every buffer set back in its pool. */
static void expect_idle(engine_t *e)
{
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.buffer_in_use, 0);
    assert_int_equal(stats.synthesizing + stats.prove_queue + stats.proving, 0);
}

/* Job 1 and job 3 around a job 2 that meets the fault; the neighbours
 * complete and verify. Returns job 2's id. */
static uint64_t neighbours_done(engine_t *e, uint32_t parts, engine_state want2)
{
    uint64_t a = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 2, 100);
    uint64_t b = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, parts, 200);
    uint64_t c = efx_submit(e, "small", ENGINE_PRIORITY_HIGH, 2, 300);
    assert_int_equal(b, 2);
    efx_expect_state(e, a, ENGINE_STATE_DONE);
    efx_expect_state(e, c, ENGINE_STATE_DONE);
    efx_expect_state(e, b, want2);
    efx_check_proofs(&efx, e, a, 2, 100);
    efx_check_proofs(&efx, e, c, 2, 300);
    if (want2 == ENGINE_STATE_DONE)
        efx_check_proofs(&efx, e, b, parts, 200);
    return b;
}

/* ------------------------------------------------------------- backend */

static void test_backend_fail_retried(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    cfg.cpu_devices = 2; /* the CPU posing as two devices: the retry goes to the other */
    engine_t *e = faulty_engine(&cfg, "backend_fail=2:1x1");
    uint64_t id = neighbours_done(e, 3, ENGINE_STATE_DONE);
    assert_int_equal(job_info(e, id).attempts, 4);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.retries, 1);
    expect_idle(e);
    engine_destroy(e);
}

/* Behind a backend that is not the CPU, the failed partition is proved
 * again on the CPU fallback: the GPU stand-in sees every partition but
 * that one. */
static void test_backend_fail_on_cpu_fallback(void **state)
{
    (void)state;
    flaky f;
    flaky_init(&f, "gpu-stand-in", false, 1);
    engine_config cfg;
    base_config(&cfg);
    cfg.backend_override = &f.base;
    engine_t *e = faulty_engine(&cfg, "backend_fail=2:2x1");
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_true(stats.cpu_fallback);
    uint64_t id = neighbours_done(e, 4, ENGINE_STATE_DONE);
    assert_int_equal(job_info(e, id).attempts, 5);
    assert_int_equal(f.calls, 2 + 4 - 1 + 2); /* partition 2 of job 2 proved on the CPU */
    expect_idle(e);
    engine_destroy(e);
    flaky_free(&f);
}

static void test_backend_fail_exhausts_retries(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    cfg.retries = 2;
    engine_t *e = faulty_engine(&cfg, "backend_fail=2:1x*");
    uint64_t id = neighbours_done(e, 3, ENGINE_STATE_FAILED);
    const char *want[] = {"partition 1 ", "after 3 attempts", "injected backend failure"};
    expect_message(e, id, want, 3);
    engine_state parts[3];
    efx_ok(engine_job_status(e, id, NULL, parts, 3));
    assert_int_equal(parts[1], ENGINE_STATE_FAILED);
    assert_int_equal(engine_job_proof(e, id, NULL, 0, NULL), CUZK_ERR_INVALID_ARGUMENT);
    expect_idle(e);
    engine_destroy(e);
}

/* ---------------------------------------------------------- allocation */

static void test_alloc_fail_retried(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    engine_t *e = faulty_engine(&cfg, "alloc_fail=2:0x2");
    uint64_t id = neighbours_done(e, 3, ENGINE_STATE_DONE);
    assert_int_equal(job_info(e, id).attempts, 3); /* no prover attempt was lost */
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.retries, 2);
    expect_idle(e);
    engine_destroy(e);
}

static void test_alloc_fail_exhausts_retries(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    cfg.retries = 1;
    engine_t *e = faulty_engine(&cfg, "alloc_fail=2:2x*");
    uint64_t id = neighbours_done(e, 3, ENGINE_STATE_FAILED);
    const char *want[] = {"partition 2: synthesis failed after 2 attempts", "cannot allocate"};
    expect_message(e, id, want, 2);
    expect_idle(e);
    engine_destroy(e);
}

/* ----------------------------------------------------- a worker's death */

static void test_synth_die_restarted(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg); /* one synthesis worker: nothing goes on unless it is restarted */
    engine_t *e = faulty_engine(&cfg, "synth_die=2:1x1");
    neighbours_done(e, 3, ENGINE_STATE_DONE);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.workers_restarted, 1);
    assert_int_equal(stats.synth_workers, 1);
    expect_idle(e);
    engine_destroy(e);
}

/* A worker dies at every attempt of partition 0 of job 2: the job fails
 * after the retries, naming the partition and the dead worker (want); the
 * engine goes on: a later job is proved by the restarted workers, one
 * restart per death. */
static void die_exhausts(const char *faults, unsigned retries, const char *const *want,
                         size_t nwant)
{
    engine_config cfg;
    base_config(&cfg);
    cfg.retries = retries;
    engine_t *e = faulty_engine(&cfg, faults);
    uint64_t id = neighbours_done(e, 2, ENGINE_STATE_FAILED);
    expect_message(e, id, want, nwant);
    uint64_t later = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 2, 400);
    efx_expect_state(e, later, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, later, 2, 400);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.workers_restarted, retries + 1);
    expect_idle(e);
    engine_destroy(e);
}

static void test_synth_die_exhausts_retries(void **state)
{
    (void)state;
    const char *want[] = {"partition 0: synthesis failed after 3 attempts",
                          "synthesis worker synth-0 died"};
    die_exhausts("synth_die=2:0x*", 2, want, 2);
}

/* A worker dies once, at partition 1 of job 2, after its work: the
 * attempt failed and the partition is proved again. With one worker of its
 * kind (one device and one prover; finalizers = 1), nothing goes on unless
 * it is restarted. */
static void die_restarted(const char *faults)
{
    engine_config cfg;
    base_config(&cfg);
    cfg.finalizers = 1;
    engine_t *e = faulty_engine(&cfg, faults);
    uint64_t id = neighbours_done(e, 3, ENGINE_STATE_DONE);
    assert_int_equal(job_info(e, id).attempts, 4);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.workers_restarted, 1);
    assert_int_equal(stats.retries, 1);
    expect_idle(e);
    engine_destroy(e);
}

/* A prover worker dies after its backend call. */
static void test_prove_die_restarted(void **state)
{
    (void)state;
    die_restarted("prove_die=2:1x1");
}

static void test_prove_die_exhausts_retries(void **state)
{
    (void)state;
    const char *want[] = {"partition 0 failed on cpu device 0 after 2 attempts",
                          "prover worker dev0-w0 died"};
    die_exhausts("prove_die=2:0x*", 1, want, 2);
}

/* A finalizer dies after assembling and verifying a partition's proof,
 * before recording it. */
static void test_final_die_restarted(void **state)
{
    (void)state;
    die_restarted("final_die=2:1x1");
}

static void test_final_die_exhausts_retries(void **state)
{
    (void)state;
    const char *want[] = {"partition 0 failed", "after 2 attempts", "finalizer final-0 died"};
    die_exhausts("final_die=2:0x*", 1, want, 3);
}

/* Every attempt of every partition dies: the job fails after its retries
 * and the shutdown joins the dead and the restarted threads alike (the
 * sanitizer build sees that nothing leaks). */
static void test_synth_die_shutdown(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    engine_t *e = faulty_engine(&cfg, "synth_die=*:*x*");
    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 3, 500);
    efx_expect_state(e, id, ENGINE_STATE_FAILED);
    engine_shutdown(e, false); /* joins the dead and restarted threads alike */
    engine_destroy(e);
}

/* ---------------------------------------------------------------- spec */

static void test_bad_spec_refused(void **state)
{
    (void)state;
    const char *bad[] = {"backend_fail=1",
                         "bogus=1:1",
                         "alloc_fail=1:1x0",
                         "synth_die=a:1",
                         "backend_fail=1:1y",
                         "backend_fail=1:1x2,"
                         "alloc_fail"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        engine_config cfg;
        base_config(&cfg);
        setenv("CUZK_FAULTS", bad[i], 1);
        engine_t *e = NULL;
        cuzk_status st = engine_create(&e, &cfg, efx_msg, sizeof(efx_msg));
        unsetenv("CUZK_FAULTS");
        if (st != CUZK_ERR_INVALID_ARGUMENT || !strstr(efx_msg, "CUZK_FAULTS"))
            fail_msg("CUZK_FAULTS=%s: %s, %s", bad[i], cuzk_status_str(st), efx_msg);
        assert_null(e);
    }
}

/* Without the hook, CUZK_FAULTS is not read at all: a spec that would fail
 * every partition, or one that does not parse, changes nothing. */
static void test_ignored_without_hook(void **state)
{
    (void)state;
    const char *specs[] = {"backend_fail=*:*x*,alloc_fail=*:*x*", "not a spec"};
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        engine_config cfg;
        base_config(&cfg);
        engine_t *e = faulty_engine(&cfg, specs[i]);
        uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 2, 600);
        efx_expect_state(e, id, ENGINE_STATE_DONE);
        efx_check_proofs(&efx, e, id, 2, 600);
        assert_int_equal(job_info(e, id).attempts, 2);
        engine_destroy(e);
    }
}

int main(void)
{
    efx_name = "engine_faults";
    if (!ENGINE_FAULTS_COMPILED) {
        const struct CMUnitTest ignored[] = {cmocka_unit_test(test_ignored_without_hook)};
        if (cmocka_run_group_tests(ignored, efx_group_setup, efx_group_teardown) != 0)
            return 1;
        printf("SKIPPED: test_engine_faults: fault injection is not compiled into this build "
               "(a Release build, which ignores CUZK_FAULTS, as checked above; the sanitizer "
               "flavour, Debug builds and -DCUZK_FAULT_INJECTION=ON have it)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_fail_retried),
        cmocka_unit_test(test_backend_fail_on_cpu_fallback),
        cmocka_unit_test(test_backend_fail_exhausts_retries),
        cmocka_unit_test(test_alloc_fail_retried),
        cmocka_unit_test(test_alloc_fail_exhausts_retries),
        cmocka_unit_test(test_synth_die_restarted),
        cmocka_unit_test(test_synth_die_exhausts_retries),
        cmocka_unit_test(test_synth_die_shutdown),
        cmocka_unit_test(test_prove_die_restarted),
        cmocka_unit_test(test_prove_die_exhausts_retries),
        cmocka_unit_test(test_final_die_restarted),
        cmocka_unit_test(test_final_die_exhausts_retries),
        cmocka_unit_test(test_bad_spec_refused),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
}
