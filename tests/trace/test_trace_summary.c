/* The trace summary on hand-made logs with known answers: percentile and
 * interval math, device busy % and idle gaps with their causes, per-phase
 * percentiles, throughput and failures, counter statistics while busy, and
 * the planted sm_util dip that overlaps a planted copy span; the synthesis
 * pool's latency percentiles and rate. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seed.h"
#include "trace/stats.h"
#include "trace/summary.h"
#include "trace/trace.h"
#include "util/rng.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/trace/"
#define T0 1000000000ULL
#define MS 1000000ULL

static char msg[256];

static void near(double got, double want, const char *what)
{
    if (fabs(got - want) > 1e-9 * (1 + fabs(want)))
        fail_msg("%s: %.12g, expected %.12g", what, got, want);
}

static trace *load(const char *path)
{
    trace *t = NULL;
    if (trace_read_file(&t, path, true, msg, sizeof msg) != CUZK_OK)
        fail_msg("%s: %s", path, msg);
    return t;
}

static trace_summary *summarize(const trace *t, double gap_ms, double dip)
{
    trace_summary_options opt = {gap_ms, dip, "sm_util"};
    trace_summary *s = NULL;
    assert_int_equal(trace_summarize(&s, t, &opt), CUZK_OK);
    return s;
}

static char *print(const trace *t, const trace_summary *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    trace_summary_print(f, t, s);
    fclose(f);
    return text;
}

static void test_percentiles(void **state)
{
    (void)state;
    double v[] = {4, 1, 3, 2};
    near(trace_percentile(v, 4, 50), 2.5, "p50 of 1..4");
    near(trace_percentile_sorted(v, 4, 95), 3.85, "p95 of 1..4");
    near(trace_percentile_sorted(v, 4, 0), 1, "p0");
    near(trace_percentile_sorted(v, 4, 100), 4, "p100");
    near(trace_percentile_sorted(v, 4, 5), 1.15, "p5 of 1..4");
    double one = 7;
    near(trace_percentile(&one, 1, 95), 7, "one value");
    near(trace_percentile(NULL, 0, 50), 0, "no values");
    double eleven[11];
    for (int i = 0; i < 11; i++)
        eleven[10 - i] = i * 10.0;
    near(trace_percentile(eleven, 11, 50), 50, "p50 of 0..100 by 10");
    near(trace_percentile_sorted(eleven, 11, 95), 95, "p95 of 0..100 by 10");
    /* properties: monotone in p, within [min, max], exact at the ranks */
    rng_t rng;
    rng_seed(&rng, test_seed("trace_percentiles"));
    for (int it = 0; it < test_iters(200); it++) {
        size_t n = 1 + rng_u64(&rng) % 50;
        double x[64];
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(rng_u64(&rng) % 1000);
        trace_percentile(x, n, 50);
        double prev = x[0];
        for (int p = 0; p <= 100; p += 5) {
            double q = trace_percentile_sorted(x, n, p);
            assert_true(q >= prev && q >= x[0] && q <= x[n - 1]);
            prev = q;
        }
        for (size_t i = 0; n > 1 && i < n; i++)
            near(trace_percentile_sorted(x, n, 100.0 * (double)i / (double)(n - 1)), x[i], "rank");
    }
}

static void test_intervals(void **state)
{
    (void)state;
    trace_iv v[] = {{50, 60}, {10, 20}, {15, 30}, {30, 35}, {40, 40}, {70, 80}, {72, 75}};
    size_t n = trace_iv_union(v, 7);
    assert_int_equal(n, 3);
    assert_true(v[0].a == 10 && v[0].b == 35);
    assert_true(v[1].a == 50 && v[1].b == 60);
    assert_true(v[2].a == 70 && v[2].b == 80);
    assert_int_equal(trace_iv_total(v, n), 45);
    assert_int_equal(trace_iv_covered(v, n, 0, 100), 45);
    assert_int_equal(trace_iv_covered(v, n, 20, 55), 20);
    assert_int_equal(trace_iv_covered(v, n, 35, 50), 0);
    assert_int_equal(trace_iv_covered(v, n, 75, 76), 1);
    assert_true(trace_iv_contains(v, n, 10));
    assert_false(trace_iv_contains(v, n, 35));
    assert_true(trace_iv_contains(v, n, 79));
    assert_false(trace_iv_contains(v, n, 80));
    assert_false(trace_iv_contains(v, n, 5));
}

static void test_busy_and_gaps(void **state)
{
    (void)state;
    trace *t = load(FIX "gaps.jsonl");
    trace_summary *s = summarize(t, 5, 50);
    assert_int_equal(s->device_count, 2);
    const trace_device_summary *d0 = &s->devices[0], *d1 = &s->devices[1];
    /* gpu0: gpu spans cover [10,40] [50,60] [70,80] [83,90] [100,110] of [10,110] */
    assert_int_equal(d0->first_ns, T0 + 10 * MS);
    assert_int_equal(d0->last_ns, T0 + 110 * MS);
    assert_int_equal(d0->busy_ns, 67 * MS);
    near(d0->busy_pct, 67.0, "gpu0 busy %");
    assert_int_equal(d0->gpu_spans, 7);
    assert_int_equal(d0->copy_spans, 1);
    assert_int_equal(d0->copy_ns, 10 * MS);
    /* gaps over 5 ms: [40,50] synthesis, [60,70] transfer, [90,100] nothing;
     * [80,83] is too short */
    assert_int_equal(d0->gap_count, 3);
    const trace_gap_cause causes[] = {TRACE_GAP_SYNTHESIS, TRACE_GAP_TRANSFER, TRACE_GAP_NO_WORK};
    const uint64_t starts[] = {40, 60, 90};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(d0->gaps[i].cause, causes[i]);
        assert_int_equal(d0->gaps[i].start_ns, T0 + starts[i] * MS);
        assert_int_equal(d0->gaps[i].end_ns, T0 + (starts[i] + 10) * MS);
        assert_int_equal(d0->gap_ns[causes[i]], 10 * MS);
    }
    assert_int_equal(d0->gaps[0].synthesis_ns, 10 * MS);
    assert_int_equal(d0->gaps[1].transfer_ns, 10 * MS);
    assert_int_equal(d0->gaps[1].synthesis_ns, 0);
    assert_string_equal(trace_gap_cause_name(d0->gaps[0].cause), "waiting for synthesis");
    assert_string_equal(trace_gap_cause_name(d0->gaps[2].cause), "no work queued");
    near(d1->busy_pct, 100.0, "gpu1 busy %");
    assert_int_equal(d1->gap_count, 0);
    char *text = print(t, s);
    assert_non_null(strstr(text, "gpu0: busy 67.0 %"));
    assert_non_null(strstr(text, "waiting for synthesis"));
    free(text);
    trace_summary_free(s);
    /* the threshold: 2 ms adds the 3 ms gap (nothing overlaps it); 10 ms
     * reports none, a gap must be longer than the threshold */
    s = summarize(t, 2, 50);
    assert_int_equal(s->devices[0].gap_count, 4);
    assert_int_equal(s->devices[0].gaps[3].cause, TRACE_GAP_NO_WORK);
    assert_int_equal(s->devices[0].gap_ns[TRACE_GAP_NO_WORK], 13 * MS);
    trace_summary_free(s);
    s = summarize(t, 10, 50);
    assert_int_equal(s->devices[0].gap_count, 0);
    trace_summary_free(s);
    trace_free(t);
}

static void test_phases_and_throughput(void **state)
{
    (void)state;
    trace *t = load(FIX "gaps.jsonl");
    trace_summary *s = summarize(t, 5, 50);
    near((double)s->wall_ns, 116e6, "wall");
    assert_int_equal(s->jobs, 3);
    assert_int_equal(s->jobs_done, 1);
    assert_int_equal(s->jobs_failed, 1);
    assert_int_equal(s->jobs_cancelled, 1);
    assert_int_equal(s->jobs_unfinished, 0);
    assert_int_equal(s->partitions_done, 2);
    assert_false(s->throughput_from_spans);
    near(s->partitions_per_hour, 2 * 3600 / 0.116, "partitions/h");
    near(s->jobs_per_hour, 3600 / 0.116, "jobs/h");
    /* failures in the order they happened, with their messages */
    assert_int_equal(s->failure_count, 2);
    assert_int_equal(t->jobs[s->failures[0]].job, 2);
    assert_string_equal(t->jobs[s->failures[0]].message, "out of memory on device 0");
    assert_int_equal(t->jobs[s->failures[1]].job, 3);
    assert_int_equal(t->jobs[s->failures[1]].state, TRACE_JOB_CANCELLED);
    /* synthesize per partition: 8, 6 and 17 ms; finalize: 2 and 1 ms */
    const trace_phase_stat *syn = NULL, *fin = NULL;
    for (size_t i = 0; i < s->phase_count; i++) {
        if (s->phases[i].phase == TRACE_PHASE_SYNTHESIZE)
            syn = &s->phases[i];
        if (s->phases[i].phase == TRACE_PHASE_FINALIZE)
            fin = &s->phases[i];
        if (i)
            assert_true(s->phases[i].phase > s->phases[i - 1].phase);
    }
    assert_non_null(syn);
    assert_int_equal(syn->partitions, 3);
    near(syn->p50_ms, 8, "synthesize p50");
    near(syn->p95_ms, 16.1, "synthesize p95");
    near(syn->max_ms, 17, "synthesize max");
    near(syn->total_s, 0.031, "synthesize total");
    assert_non_null(fin);
    near(fin->p50_ms, 1.5, "finalize p50");
    assert_int_equal(fin->cat, TRACE_CAT_CPU);
    char *text = print(t, s);
    assert_non_null(strstr(text, "job 2 (porep-32g) failed at 0.112 s: out of memory"));
    assert_non_null(strstr(text, "cancelled by the client"));
    free(text);
    trace_summary_free(s);
    trace_free(t);
}

static void test_planted_dip(void **state)
{
    (void)state;
    trace *t = load(FIX "dip.jsonl");
    trace_summary *s = summarize(t, 5, 50);
    assert_int_equal(s->device_count, 1);
    const trace_device_summary *d = &s->devices[0];
    assert_int_equal(d->dip_count, 1);
    const trace_dip *dip = &d->dips[0];
    assert_string_equal(t->series[dip->series].name, "sm_util");
    assert_int_equal(dip->start_ns, T0 + 100 * MS);
    assert_int_equal(dip->end_ns, T0 + 130 * MS);
    assert_int_equal(dip->samples, 3);
    near(dip->min, 15, "dip min");
    near(dip->mean, 65.0 / 3, "dip mean");
    /* the planted download, and the gpu span running at the time; the msm_l
     * that ends where the dip begins does not overlap it */
    assert_int_equal(dip->overlap_count, 2);
    const trace_span *copy = &t->spans[dip->overlaps[0].span];
    assert_string_equal(t->phase_names[copy->phase], "download");
    assert_int_equal(copy->cat, TRACE_CAT_COPY);
    assert_int_equal(copy->job, 7);
    assert_int_equal(copy->partition, 3);
    assert_int_equal(dip->overlaps[0].overlap_ns, 30 * MS);
    assert_int_equal(t->spans[dip->overlaps[1].span].phase, TRACE_PHASE_H);
    assert_int_equal(dip->overlaps[1].overlap_ns, 12 * MS);
    /* counters while a gpu span runs: busy is [0,112) and [140,200) */
    const trace_counter_stat *sm = NULL;
    for (size_t k = 0; k < d->counter_count; k++)
        if (!strcmp(t->series[d->counters[k].series].name, "sm_util"))
            sm = &d->counters[k];
    assert_non_null(sm);
    assert_int_equal(sm->samples, 21);
    assert_int_equal(sm->busy_samples, 18);
    near(sm->mean, (16 * 90.0 + 20 + 15) / 18, "sm_util mean");
    near(sm->p5, 19.25, "sm_util p5");
    near(sm->min, 15, "sm_util min");
    /* the idle gap [112,140] is mostly covered by the download */
    assert_int_equal(d->gap_count, 1);
    assert_int_equal(d->gaps[0].cause, TRACE_GAP_TRANSFER);
    assert_int_equal(d->gaps[0].transfer_ns, 23 * MS);
    char *text = print(t, s);
    if (!strstr(text, "download (copy) job 7 partition 3 on dev0-w1: 30.000 ms"))
        fail_msg("the report does not name the copy:\n%s", text);
    free(text);
    trace_summary_free(s);
    /* the threshold: below 10 there is no dip; below 95 every sample in the
     * window is one dip */
    s = summarize(t, 5, 10);
    assert_int_equal(s->devices[0].dip_count, 0);
    trace_summary_free(s);
    s = summarize(t, 5, 95);
    assert_int_equal(s->devices[0].dip_count, 1);
    assert_int_equal(s->devices[0].dips[0].samples, 21);
    trace_summary_free(s);
    trace_free(t);
}

#define META "{\"type\":\"meta\",\"t0_ns\":0,\"pid\":1,\"host\":\"h\",\"version\":\"v\"}\n"
#define SPAN(name, cat, job, worker, dev, a, b)                                                    \
    "{\"type\":\"span\",\"name\":\"" name "\",\"cat\":\"" cat "\",\"job\":" #job                   \
    ",\"partition\":0,\"worker\":\"" worker "\",\"device\":" #dev ",\"start_ns\":" #a              \
    ",\"end_ns\":" #b "}\n"

static trace *parse(const char *text)
{
    trace *t = NULL;
    if (trace_read_buffer(&t, text, strlen(text), true, msg, sizeof msg) != CUZK_OK)
        fail_msg("%s", msg);
    return t;
}

static void test_gap_causes_compete(void **state)
{
    (void)state;
    /* a 20 ms gap: a copy covers 4 ms of it, synthesis 12 ms: synthesis wins;
     * a second gap with both covering all of it: transfer wins the tie */
    /* clang-format off */
    static const char log[] = META
        SPAN("h", "gpu", 1, "w", 0, 0, 10000000)
        SPAN("upload", "copy", 2, "c", 0, 10000000, 14000000)
        SPAN("synthesize", "cpu", 2, "s", -1, 18000000, 30000000)
        SPAN("h", "gpu", 2, "w", 0, 30000000, 40000000)
        SPAN("upload", "copy", 3, "c", 0, 40000000, 60000000)
        SPAN("queue_wait", "queue", 3, "q", -1, 40000000, 60000000)
        SPAN("h", "gpu", 3, "w", 0, 60000000, 70000000);
    /* clang-format on */
    trace *t = parse(log);
    trace_summary *s = summarize(t, 5, 50);
    const trace_device_summary *d = &s->devices[0];
    assert_int_equal(d->gap_count, 2);
    assert_int_equal(d->gaps[0].cause, TRACE_GAP_SYNTHESIS);
    assert_int_equal(d->gaps[0].transfer_ns, 4 * MS);
    assert_int_equal(d->gaps[0].synthesis_ns, 12 * MS);
    assert_int_equal(d->gaps[1].cause, TRACE_GAP_TRANSFER);
    near(d->busy_pct, 300.0 / 7, "busy %");
    /* no job lines: every job seen counts as done */
    assert_true(s->throughput_from_spans);
    assert_int_equal(s->jobs_done, 3);
    assert_int_equal(s->partitions_done, 3);
    trace_summary_free(s);
    trace_free(t);
}

/* The synthesis pool (synthesis.jsonl): partitions (1,0) 10 + 5 ms,
 * (1,1) 20 + 10, (1,2) 40 + 20 and a second attempt of 10, (2,0) 30 ms
 * on the host (its eval_abc ran on a device: not the pool's); queue waits
 * and finalize are not synthesis. Latencies {15, 30, 30, 70} ms: p50 30,
 * p90 at rank 2.7 = 30 + 0.7·40 = 58, mean 36.25; two workers; 4
 * partitions over a wall time of 200 ms = 20/s; capacity 2 / 36.25 ms. */
static void test_synthesis_pool(void **state)
{
    (void)state;
    trace *t = load(FIX "synthesis.jsonl");
    trace_summary *s = summarize(t, 5, 50);
    const trace_synthesis_stat *sy = &s->synthesis;
    near((double)s->wall_ns, 200e6, "wall");
    assert_int_equal(sy->partitions, 4);
    assert_int_equal(sy->workers, 2);
    near(sy->p50_ms, 30, "synthesis p50");
    near(sy->p90_ms, 58, "synthesis p90");
    near(sy->max_ms, 70, "synthesis max");
    near(sy->mean_ms, 36.25, "synthesis mean");
    near(sy->per_s, 20, "synthesis partitions/s");
    near(sy->capacity_per_s, 2e3 / 36.25, "synthesis capacity");
    char *text = print(t, s);
    assert_non_null(strstr(text, "synthesis pool: 4 partitions on 2 workers; latency per partition "
                                 "p50 30.000 ms, p90 58.000 ms, max 70.000 ms; 20.000 "
                                 "partitions/s over the wall time (55.172/s with every worker "
                                 "busy)"));
    free(text);
    text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(trace_summary_write_json(f, t, s), CUZK_OK);
    fclose(f);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("not JSON: %s", err.text);
    json_t *js = json_object_get(root, "synthesis");
    assert_int_equal(json_integer_value(json_object_get(js, "partitions")), 4);
    assert_int_equal(json_integer_value(json_object_get(js, "workers")), 2);
    near(json_real_value(json_object_get(js, "p50_ms")), 30, "json synthesis p50");
    near(json_real_value(json_object_get(js, "p90_ms")), 58, "json synthesis p90");
    near(json_real_value(json_object_get(js, "partitions_per_s")), 20, "json synthesis rate");
    near(json_real_value(json_object_get(js, "capacity_per_s")), 2e3 / 36.25,
         "json synthesis capacity");
    json_decref(root);
    free(text);
    trace_summary_free(s);
    trace_free(t);

    /* no synthesis spans: zeros, and no line */
    t = parse(META);
    s = summarize(t, 5, 50);
    assert_int_equal(s->synthesis.partitions, 0);
    assert_int_equal(s->synthesis.workers, 0);
    near(s->synthesis.per_s, 0, "no synthesis");
    text = print(t, s);
    assert_null(strstr(text, "synthesis pool"));
    free(text);
    trace_summary_free(s);
    trace_free(t);
}

static void test_empty_log(void **state)
{
    (void)state;
    trace *t = parse(META);
    trace_summary *s = summarize(t, 5, 50);
    assert_int_equal(s->wall_ns, 0);
    assert_int_equal(s->device_count, 0);
    assert_int_equal(s->phase_count, 0);
    char *text = print(t, s);
    assert_non_null(strstr(text, "no spans"));
    free(text);
    trace_summary_free(s);
    trace_free(t);
}

/* A device seen only in counters (telemetry before its first span):
 * found by fuzzing, the partition pass sorted an empty list at a null
 * pointer plus zero. */
static void test_counter_only_device(void **state)
{
    (void)state;
    trace *t = parse(META "{\"type\":\"counter\",\"name\":\"sm_util\",\"device\":0,"
                          "\"ts_ns\":1,\"value\":50}\n");
    assert_int_equal(t->device_count, 1);
    trace_summary *s = summarize(t, 5, 50);
    assert_int_equal(s->partition_count, 0);
    assert_null(s->partitions);
    char *text = print(t, s);
    free(text);
    trace_summary_free(s);
    trace_free(t);
}

static void test_json_summary(void **state)
{
    (void)state;
    trace *t = load(FIX "dip.jsonl");
    trace_summary *s = summarize(t, 5, 50);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(trace_summary_write_json(f, t, s), CUZK_OK);
    fclose(f);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("not JSON: %s", err.text);
    json_t *dev = json_array_get(json_object_get(root, "devices"), 0);
    assert_non_null(dev);
    assert_string_equal(json_string_value(json_object_get(dev, "device")), "gpu0");
    near(json_real_value(json_object_get(dev, "busy_pct")), 86.0, "json busy %");
    json_t *dip = json_array_get(json_object_get(dev, "dips"), 0);
    json_t *ov = json_array_get(json_object_get(dip, "overlaps"), 0);
    assert_string_equal(json_string_value(json_object_get(ov, "phase")), "download");
    assert_string_equal(json_string_value(json_object_get(ov, "cat")), "copy");
    near(json_real_value(json_object_get(ov, "overlap_ms")), 30, "json overlap");
    json_t *gap = json_array_get(json_object_get(json_object_get(dev, "gaps"), "list"), 0);
    assert_string_equal(json_string_value(json_object_get(gap, "cause")), "transfer");
    json_t *jobs = json_object_get(root, "jobs");
    assert_int_equal(json_integer_value(json_object_get(jobs, "partitions_done")), 4);
    assert_true(json_is_array(json_object_get(root, "phases")));
    assert_true(json_is_array(json_object_get(root, "workers")));
    json_decref(root);
    free(text);
    trace_summary_free(s);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentiles),    cmocka_unit_test(test_intervals),
        cmocka_unit_test(test_busy_and_gaps),  cmocka_unit_test(test_phases_and_throughput),
        cmocka_unit_test(test_planted_dip),    cmocka_unit_test(test_gap_causes_compete),
        cmocka_unit_test(test_empty_log),      cmocka_unit_test(test_json_summary),
        cmocka_unit_test(test_synthesis_pool), cmocka_unit_test(test_counter_only_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
