/* The engine's metrics in the Prometheus text format: counters of jobs
 * and partitions by circuit and state, latency histograms (cumulative
 * buckets, sum, count), device busy time and its ratio (copies not
 * counted), label escaping, the gauges of a stats snapshot, and a text
 * where every sample belongs to a declared family. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "engine/metrics.h"

#define S 1000000000ull

/* The value of the sample line that starts with `series ` (exact), or
 * fails the test. */
static double sample(const char *text, const char *series)
{
    size_t n = strlen(series);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (!strncmp(p, series, n) && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    }
    fail_msg("no sample %s in:\n%s", series, text);
    return 0;
}

static bool has_line_prefix(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, prefix, n))
            return true;
    return false;
}

/* Every sample's family (its name less _bucket/_sum/_count for
 * histograms) has a # TYPE line before it; names and values are well
 * formed. */
static void check_exposition(const char *text)
{
    char declared[128][64];
    size_t nd = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        assert_non_null(end); /* every line ends with a newline */
        char line[1024];
        size_t len = (size_t)(end - p);
        assert_true(len < sizeof(line));
        memcpy(line, p, len);
        line[len] = 0;
        p = end + 1;
        if (!strncmp(line, "# HELP ", 7))
            continue;
        if (!strncmp(line, "# TYPE ", 7)) {
            char name[64], type[32];
            assert_int_equal(sscanf(line + 7, "%63s %31s", name, type), 2);
            assert_true(!strcmp(type, "counter") || !strcmp(type, "gauge") ||
                        !strcmp(type, "histogram"));
            assert_true(nd < 128);
            snprintf(declared[nd++], sizeof(declared[0]), "%s", name);
            continue;
        }
        size_t name_len = strcspn(line, "{ ");
        char name[64];
        assert_true(name_len > 0 && name_len < sizeof(name));
        memcpy(name, line, name_len);
        name[name_len] = 0;
        for (size_t i = 0; i < name_len; i++)
            assert_true((name[i] >= 'a' && name[i] <= 'z') || name[i] == '_');
        const char *value = strrchr(line, ' ');
        assert_non_null(value);
        char *vend;
        strtod(value + 1, &vend);
        assert_true(*vend == 0 && vend != value + 1);
        bool found = false;
        for (size_t i = 0; i < nd && !found; i++) {
            size_t dl = strlen(declared[i]);
            found = !strcmp(name, declared[i]) ||
                    (!strncmp(name, declared[i], dl) &&
                     (!strcmp(name + dl, "_bucket") || !strcmp(name + dl, "_sum") ||
                      !strcmp(name + dl, "_count")));
        }
        if (!found)
            fail_msg("sample %s has no # TYPE before it", name);
    }
}

static void span(engine_metrics *m, const char *circuit, const char *name, const char *cat,
                 int device, uint64_t start, uint64_t end)
{
    event_span_rec s = {.name = name,
                        .cat = cat,
                        .job = 1,
                        .circuit = circuit,
                        .worker = "w",
                        .device = device,
                        .start_ns = start,
                        .end_ns = end};
    engine_metrics_span(m, &s);
}

static void test_counters_and_histograms(void **state)
{
    (void)state;
    engine_metrics *m;
    assert_int_equal(engine_metrics_create(&m), CUZK_OK);
    uint64_t t = backend_clock_ns();
    engine_metrics_job(m, "c1", ENGINE_STATE_QUEUED, 3, 0, t, t);
    engine_metrics_job(m, "c1", ENGINE_STATE_QUEUED, 2, 0, t, t);
    engine_metrics_job(m, "c1", ENGINE_STATE_DONE, 3, 3, t, t + 2 * S);
    engine_metrics_job(m, "c1", ENGINE_STATE_FAILED, 2, 1, t, t + S / 2);
    engine_metrics_job(m, "c\"2\\", ENGINE_STATE_QUEUED, 4, 0, t, t);
    engine_metrics_job(m, "c\"2\\", ENGINE_STATE_CANCELLED, 4, 0, t, t + S / 100);
    /* msm_h of c1: 3 ms, 30 ms, 0.3 s, 3 s */
    span(m, "c1", "msm_h", "cpu", 0, t, t + 3 * S / 1000);
    span(m, "c1", "msm_h", "cpu", 0, t, t + 30 * S / 1000);
    span(m, "c1", "msm_h", "cpu", 0, t, t + 300 * S / 1000);
    span(m, "c1", "msm_h", "cpu", 0, t, t + 3 * S);
    span(m, "c1", "synthesize", "cpu", -1, t, t + S / 1000);

    char *text = engine_metrics_render_snapshot(m, NULL, NULL, 0, t + 4 * S);
    assert_non_null(text);
    check_exposition(text);
    assert_true(sample(text, "cuzk_jobs_total{circuit=\"c1\",state=\"submitted\"}") == 2);
    assert_true(sample(text, "cuzk_jobs_total{circuit=\"c1\",state=\"done\"}") == 1);
    assert_true(sample(text, "cuzk_jobs_total{circuit=\"c1\",state=\"failed\"}") == 1);
    assert_true(sample(text, "cuzk_jobs_total{circuit=\"c1\",state=\"cancelled\"}") == 0);
    assert_true(sample(text, "cuzk_partitions_total{circuit=\"c1\",state=\"submitted\"}") == 5);
    /* 3 of the done job and 1 of the failed one; the failed job's other
     * partition counts as failed. */
    assert_true(sample(text, "cuzk_partitions_total{circuit=\"c1\",state=\"done\"}") == 4);
    assert_true(sample(text, "cuzk_partitions_total{circuit=\"c1\",state=\"failed\"}") == 1);
    /* A quote and a backslash in a circuit name are escaped. */
    assert_true(sample(text, "cuzk_partitions_total{circuit=\"c\\\"2\\\\\",state=\"cancelled\"}") ==
                4);
    /* Cumulative buckets. */
    const char *h = "cuzk_phase_seconds_bucket{circuit=\"c1\",phase=\"msm_h\",le=";
    char series[256];
    struct {
        const char *le;
        double count;
    } want[] = {{"0.001", 0}, {"0.0025", 0}, {"0.005", 1}, {"0.025", 1}, {"0.05", 2},
                {"0.25", 2},  {"0.5", 3},    {"2.5", 3},   {"5", 4},     {"+Inf", 4}};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        snprintf(series, sizeof(series), "%s\"%s\"}", h, want[i].le);
        if (sample(text, series) != want[i].count)
            fail_msg("%s is %g, expected %g", series, sample(text, series), want[i].count);
    }
    assert_true(sample(text, "cuzk_phase_seconds_count{circuit=\"c1\",phase=\"msm_h\"}") == 4);
    double sum = sample(text, "cuzk_phase_seconds_sum{circuit=\"c1\",phase=\"msm_h\"}");
    assert_true(sum > 3.332 && sum < 3.334);
    assert_true(sample(text, "cuzk_phase_seconds_count{circuit=\"c1\",phase=\"synthesize\"}") == 1);
    assert_true(sample(text, "cuzk_job_seconds_count{circuit=\"c1\",state=\"done\"}") == 1);
    assert_true(sample(text, "cuzk_job_seconds_sum{circuit=\"c1\",state=\"done\"}") == 2);
    assert_true(
        sample(text, "cuzk_job_seconds_bucket{circuit=\"c1\",state=\"failed\",le=\"0.5\"}") == 1);
    /* No snapshot: no gauges. */
    assert_false(has_line_prefix(text, "cuzk_queue_depth"));
    free(text);
    engine_metrics_destroy(m);
}

static void test_device_busy(void **state)
{
    (void)state;
    engine_metrics *m;
    assert_int_equal(engine_metrics_create(&m), CUZK_OK);
    uint64_t t = backend_clock_ns();
    /* Device 1 busy 0.5 s within the first second; a copy on device 1
     * overlapping it and a CPU stage count for nothing. */
    span(m, "c", "msm_l", "gpu", 1, t + S / 4, t + 3 * S / 4);
    span(m, "c", "upload", "copy", 1, t, t + S);
    span(m, "c", "verify", "cpu", -1, t, t + S);
    char *text = engine_metrics_render_snapshot(m, NULL, NULL, 0, t + S);
    check_exposition(text);
    assert_true(sample(text, "cuzk_device_busy_seconds_total{device=\"1\"}") == 0.5);
    assert_true(sample(text, "cuzk_device_busy_seconds_total{device=\"0\"}") == 0);
    double ratio = sample(text, "cuzk_device_busy_ratio{device=\"1\"}");
    assert_true(ratio > 0.49 && ratio < 0.51);
    free(text);
    /* Two minutes later the busy second has left the window; the total
     * stays. */
    text = engine_metrics_render_snapshot(m, NULL, NULL, 0, t + 121 * S);
    assert_true(sample(text, "cuzk_device_busy_ratio{device=\"1\"}") == 0);
    assert_true(sample(text, "cuzk_device_busy_seconds_total{device=\"1\"}") == 0.5);
    free(text);
    /* A span longer than the window keeps only its last window. */
    span(m, "c", "h", "gpu", 0, t + 121 * S - 100 * S, t + 121 * S);
    text = engine_metrics_render_snapshot(m, NULL, NULL, 0, t + 121 * S);
    ratio = sample(text, "cuzk_device_busy_ratio{device=\"0\"}");
    assert_true(ratio > 0.98 && ratio <= 1.0);
    assert_true(sample(text, "cuzk_device_busy_seconds_total{device=\"0\"}") == 100);
    free(text);
    engine_metrics_destroy(m);
}

static void test_snapshot_gauges(void **state)
{
    (void)state;
    engine_stats st;
    memset(&st, 0, sizeof(st));
    st.jobs[ENGINE_STATE_QUEUED] = 2;
    st.jobs[ENGINE_STATE_DONE] = 5;
    st.partitions_queued = 7;
    st.synthesizing = 1;
    st.prove_queue = 2;
    st.proving = 3;
    st.finalize_queue = 4;
    st.queue_bound = 6;
    st.devices = 2;
    st.resident_bytes = 1000;
    st.resident_budget = 5000;
    st.buffer_in_use = 300;
    st.retries = 9;
    st.workers_restarted = 2;
    engine_circuit_info ci[2];
    memset(ci, 0, sizeof(ci));
    snprintf(ci[0].name, sizeof(ci[0].name), "a");
    ci[0].resident = true;
    ci[0].resident_bytes = 1000;
    ci[0].refs = 3;
    snprintf(ci[1].name, sizeof(ci[1].name), "b");
    ci[1].resident_bytes = 777; /* an estimate: not resident */
    char *text = engine_metrics_render_snapshot(NULL, &st, ci, 2, backend_clock_ns());
    check_exposition(text);
    assert_true(sample(text, "cuzk_jobs{state=\"queued\"}") == 2);
    assert_true(sample(text, "cuzk_jobs{state=\"done\"}") == 5);
    assert_true(sample(text, "cuzk_queue_depth{queue=\"queued\"}") == 7);
    assert_true(sample(text, "cuzk_queue_depth{queue=\"prove\"}") == 2);
    assert_true(sample(text, "cuzk_queue_depth{queue=\"finalize\"}") == 4);
    assert_true(sample(text, "cuzk_queue_bound") == 6);
    assert_true(sample(text, "cuzk_resident_bytes_total") == 1000);
    assert_true(sample(text, "cuzk_resident_bytes{circuit=\"a\"}") == 1000);
    assert_true(sample(text, "cuzk_resident_bytes{circuit=\"b\"}") == 0);
    assert_true(sample(text, "cuzk_circuit_resident{circuit=\"b\"}") == 0);
    assert_true(sample(text, "cuzk_circuit_jobs{circuit=\"a\"}") == 3);
    assert_true(sample(text, "cuzk_buffer_in_use_bytes") == 300);
    assert_true(sample(text, "cuzk_retries_total") == 9);
    assert_true(sample(text, "cuzk_workers_restarted_total") == 2);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_and_histograms),
        cmocka_unit_test(test_device_busy),
        cmocka_unit_test(test_snapshot_gauges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
