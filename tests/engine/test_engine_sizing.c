/* The synthesis pool's auto size (engine_synth_pool_size): over every CPU
 * count and circuit size, workers × threads fit the CPUs and each is at
 * least 1; few workers with many threads at PoRep sizes, many with one at
 * small sizes; a count given is kept and the other fills the CPUs; and an
 * engine reports the split it made. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "util/parallel.h"

static void split(unsigned cpus, unsigned max_workers, unsigned log_rows, unsigned workers,
                  unsigned threads, unsigned *w_out, unsigned *t_out)
{
    *w_out = workers, *t_out = threads;
    engine_synth_pool_size(cpus, max_workers, log_rows, w_out, t_out);
}

static void test_rule_fits(void **state)
{
    (void)state;
    for (unsigned cpus = 0; cpus <= 300; cpus++) {
        for (unsigned max_workers = 1; max_workers <= 64; max_workers *= 8) {
            unsigned prev_workers = UINT32_MAX;
            for (unsigned log = 0; log <= 32; log++) {
                unsigned w, t;
                split(cpus, max_workers, log, 0, 0, &w, &t);
                unsigned avail = cpus ? cpus : 1;
                if (w < 1 || t < 1 || w > max_workers || (uint64_t)w * t > avail)
                    fail_msg("cpus %u, max %u, 2^%u: %u workers x %u threads", cpus, max_workers,
                             log, w, t);
                /* larger circuits never get more workers */
                assert_true(w <= prev_workers);
                prev_workers = w;
                /* the CPUs are used: one more thread each would not fit */
                assert_true((uint64_t)w * (t + 1) > avail);
            }
        }
    }
}

static void test_rule_values(void **state)
{
    (void)state;
    unsigned w, t;
    /* a 64-core host, 4 provers and 4 finalizers: 56 CPUs */
    split(56, 64, 27, 0, 0, &w, &t);
    assert_int_equal(w, 3), assert_int_equal(t, 18);
    split(56, 64, 22, 0, 0, &w, &t); /* 4 threads wanted */
    assert_int_equal(w, 14), assert_int_equal(t, 4);
    split(56, 64, 18, 0, 0, &w, &t); /* small: one thread each */
    assert_int_equal(w, 56), assert_int_equal(t, 1);
    /* 200 CPUs at a small size: the workers' cap, the rest as threads */
    split(200, 64, 16, 0, 0, &w, &t);
    assert_int_equal(w, 64), assert_int_equal(t, 3);
    /* fewer CPUs than a PoRep partition wants: one worker with them all */
    split(12, 64, 27, 0, 0, &w, &t);
    assert_int_equal(w, 1), assert_int_equal(t, 12);
    /* none to spare: one of each */
    split(0, 64, 27, 0, 0, &w, &t);
    assert_int_equal(w, 1), assert_int_equal(t, 1);
    /* one given: kept, the other fills the CPUs */
    split(56, 64, 27, 7, 0, &w, &t);
    assert_int_equal(w, 7), assert_int_equal(t, 8);
    split(56, 64, 27, 100, 0, &w, &t);
    assert_int_equal(w, 100), assert_int_equal(t, 1);
    split(56, 64, 27, 0, 5, &w, &t);
    assert_int_equal(w, 11), assert_int_equal(t, 5);
    split(56, 8, 16, 0, 1, &w, &t);
    assert_int_equal(w, 8), assert_int_equal(t, 1);
    split(4, 64, 27, 0, 16, &w, &t);
    assert_int_equal(w, 1), assert_int_equal(t, 16);
    /* both given: as given */
    split(4, 64, 27, 9, 9, &w, &t);
    assert_int_equal(w, 9), assert_int_equal(t, 9);
}

/* An engine on the CPU backend splits ncpu / 4 (at least 1) and says so. */
static void test_engine_reports_split(void **state)
{
    (void)state;
    char msg[256];
    unsigned cpus = parallel_cpu_count() / 4 ? parallel_cpu_count() / 4 : 1;
    for (unsigned log = 16; log <= 27; log += 11) {
        engine_config cfg;
        engine_config_default(&cfg);
        assert_int_equal(cfg.synth_workers, 0);
        assert_int_equal(cfg.synth_threads, 0);
        cfg.backend = BACKEND_CPU;
        cfg.device_threads = 1;
        cfg.quiet = true;
        cfg.expected_log_rows = log;
        engine_t *e;
        if (engine_create(&e, &cfg, msg, sizeof msg) != CUZK_OK)
            fail_msg("engine_create: %s", msg);
        engine_stats st;
        engine_get_stats(e, &st, NULL, 0);
        unsigned w, t;
        split(cpus, 8, log, 0, 0, &w, &t);
        assert_int_equal(st.synth_workers, w);
        assert_int_equal(st.synth_threads, t);
        assert_true(st.synth_workers * st.synth_threads <= cpus);
        engine_destroy(e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_fits),
        cmocka_unit_test(test_rule_values),
        cmocka_unit_test(test_engine_reports_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
