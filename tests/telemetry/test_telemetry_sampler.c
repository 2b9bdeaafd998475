/* The telemetry sampler with the fake source and a sink that keeps every
 * reading: no thread work while nothing is held, rounds at the interval
 * while held, one last round when the hold (and its linger) ends,
 * unsupported metrics dropped, slow metrics read in turn, timestamps on
 * the monotonic clock; and the NVML source refusing cleanly when the
 * library is absent or is not NVML. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "telemetry/telemetry.h"

#define MAX_READINGS 4096

typedef struct reading {
    char name[16];
    int device;
    uint64_t ts_ns;
    double value;
} reading;

typedef struct capture {
    pthread_mutex_t mu;
    reading r[MAX_READINGS];
    size_t n;
} capture;

static void keep(void *ctx, const char *name, int device, uint64_t ts_ns, double value)
{
    capture *c = ctx;
    pthread_mutex_lock(&c->mu);
    if (c->n < MAX_READINGS) {
        reading *r = &c->r[c->n++];
        snprintf(r->name, sizeof(r->name), "%s", name);
        r->device = device;
        r->ts_ns = ts_ns;
        r->value = value;
    }
    pthread_mutex_unlock(&c->mu);
}

static size_t count(capture *c, const char *name, int device)
{
    pthread_mutex_lock(&c->mu);
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        k += (!name || !strcmp(c->r[i].name, name)) && (device < 0 || c->r[i].device == device);
    pthread_mutex_unlock(&c->mu);
    return k;
}

static size_t total(capture *c)
{
    return count(c, NULL, -1);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* sm_util counts up per reading of device d, so order can be checked. */
static double scripted(void *ctx, unsigned device, telemetry_metric m, uint64_t ts_ns)
{
    (void)ctx;
    (void)ts_ns;
    return m == TELEMETRY_SM_UTIL ? 10.0 * (device + 1) : (double)m;
}

static capture *capture_new(void)
{
    capture *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    pthread_mutex_init(&c->mu, NULL);
    return c;
}

static void capture_free(capture *c)
{
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static void test_idle_until_held_then_rounds(void **state)
{
    (void)state;
    capture *c = capture_new();
    telemetry_source *src;
    telemetry_fake_opts fo = {.devices = 2, .value = scripted};
    assert_int_equal(telemetry_fake_create(&src, &fo), CUZK_OK);
    telemetry_sampler *s;
    telemetry_sampler_opts so = {.interval_ms = 10, .linger_ms = 0, .own_source = false};
    assert_int_equal(telemetry_sampler_start(&s, src, &so, keep, c), CUZK_OK);

    /* Nothing held: the thread sleeps, the source is never asked. */
    sleep_ms(60);
    assert_int_equal(telemetry_fake_reads(src), 0);
    assert_int_equal(total(c), 0);

    uint64_t t0 = backend_clock_ns();
    telemetry_sampler_hold(s);
    sleep_ms(120);
    telemetry_sampler_release(s);
    sleep_ms(40); /* the last round happens at once (no linger) */
    uint64_t t1 = backend_clock_ns();
    size_t rounds = (size_t)telemetry_sampler_rounds(s);
    size_t n = total(c);
    /* 120 ms at 10 ms: about 12 rounds, plus the last; a loaded machine
     * may take fewer, never many more. */
    assert_true(rounds >= 3);
    assert_true(rounds <= 12 + 3);
    /* every metric of both devices, once per round */
    for (int d = 0; d < 2; d++)
        for (int m = 0; m < TELEMETRY_METRIC_COUNT; m++)
            assert_int_equal(count(c, telemetry_metric_name((telemetry_metric)m), d), rounds);
    assert_int_equal(n, rounds * 2 * TELEMETRY_METRIC_COUNT);
    /* values from the script, timestamps on the monotonic clock inside the
     * hold, non-decreasing per series */
    uint64_t last[2][TELEMETRY_METRIC_COUNT] = {{0}};
    for (size_t i = 0; i < n; i++) {
        const reading *r = &c->r[i];
        assert_true(r->ts_ns >= t0 && r->ts_ns <= t1);
        int m = 0;
        while (strcmp(telemetry_metric_name((telemetry_metric)m), r->name))
            m++;
        assert_true(r->ts_ns >= last[r->device][m]);
        last[r->device][m] = r->ts_ns;
        double want = m == TELEMETRY_SM_UTIL ? 10.0 * (r->device + 1) : (double)m;
        assert_true(r->value == want);
    }
    /* released: no more rounds */
    sleep_ms(60);
    assert_int_equal(total(c), n);
    telemetry_sampler_stop(s);
    src->destroy(src);
    capture_free(c);
}

static void test_linger_and_nested_holds(void **state)
{
    (void)state;
    capture *c = capture_new();
    telemetry_source *src;
    telemetry_fake_opts fo = {.devices = 1};
    assert_int_equal(telemetry_fake_create(&src, &fo), CUZK_OK);
    telemetry_sampler *s;
    telemetry_sampler_opts so = {.interval_ms = 10, .linger_ms = 150, .own_source = true};
    assert_int_equal(telemetry_sampler_start(&s, src, &so, keep, c), CUZK_OK);
    telemetry_sampler_hold(s);
    telemetry_sampler_hold(s);
    sleep_ms(30);
    telemetry_sampler_release(s); /* one still held */
    sleep_ms(30);
    size_t mid = total(c);
    telemetry_sampler_release(s); /* now the linger starts */
    sleep_ms(60);
    size_t lingering = total(c);
    assert_true(lingering > mid); /* still sampling inside the linger */
    sleep_ms(250);
    size_t after = total(c);
    sleep_ms(60);
    assert_int_equal(total(c), after); /* asleep after the linger */
    /* the steady busy default */
    assert_true(c->r[0].value == 100.0 || strcmp(c->r[0].name, "sm_util"));
    telemetry_sampler_stop(s); /* owns the source */
    capture_free(c);
}

static void test_unsupported_and_slow(void **state)
{
    (void)state;
    capture *c = capture_new();
    telemetry_source *src;
    uint32_t pcie = (1u << TELEMETRY_PCIE_RX_BPS) | (1u << TELEMETRY_PCIE_TX_BPS);
    telemetry_fake_opts fo = {.devices = 2,
                              .unsupported = 1u << TELEMETRY_POWER_W,
                              .slow = pcie};
    assert_int_equal(telemetry_fake_create(&src, &fo), CUZK_OK);
    telemetry_sampler *s;
    telemetry_sampler_opts so = {.interval_ms = 5, .linger_ms = 0, .own_source = true};
    assert_int_equal(telemetry_sampler_start(&s, src, &so, keep, c), CUZK_OK);
    telemetry_sampler_hold(s);
    sleep_ms(150);
    telemetry_sampler_stop(s); /* stop while held: one last round, then join */
    uint64_t rounds = 0;
    rounds = count(c, "sm_util", 0);
    assert_true(rounds >= 8);
    assert_int_equal(count(c, "power_w", -1), 0);
    /* four slow pairs (2 devices x 2), one per round, in turn */
    size_t slow[4] = {count(c, "pcie_rx_bps", 0), count(c, "pcie_tx_bps", 0),
                      count(c, "pcie_rx_bps", 1), count(c, "pcie_tx_bps", 1)};
    size_t slow_total = slow[0] + slow[1] + slow[2] + slow[3];
    assert_int_equal(slow_total, rounds);
    for (int k = 0; k < 4; k++)
        assert_true(slow[k] + 1 >= rounds / 4 && slow[k] <= rounds / 4 + 1);
    capture_free(c);
}

static void test_nvml_absent(void **state)
{
    (void)state;
    telemetry_source *src = (telemetry_source *)1;
    char why[256] = "";
    assert_int_equal(telemetry_nvml_open(&src, "/nonexistent/libnvidia-ml.so.1", 1, why,
                                         sizeof(why)),
                     CUZK_ERR_UNSUPPORTED);
    assert_null(src);
    assert_non_null(strstr(why, "/nonexistent/libnvidia-ml.so.1"));
    /* the variable names the library when the argument does not */
    setenv("CUZK_NVML_LIBRARY", "/nonexistent/other-nvml.so", 1);
    assert_int_equal(telemetry_nvml_open(&src, NULL, 1, why, sizeof(why)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(why, "/nonexistent/other-nvml.so"));
    unsetenv("CUZK_NVML_LIBRARY");
    /* a library that loads but is not NVML */
    assert_int_equal(telemetry_nvml_open(&src, "libm.so.6", 1, why, sizeof(why)),
                     CUZK_ERR_UNSUPPORTED);
    assert_null(src);
    assert_non_null(strstr(why, "lacks nvmlInit_v2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_until_held_then_rounds),
        cmocka_unit_test(test_linger_and_nested_holds),
        cmocka_unit_test(test_unsupported_and_slow),
        cmocka_unit_test(test_nvml_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
