/* A generated log of 10^5 spans (a day's worth of partitions on four
 * devices, with counters) goes through the reader, the summary and every
 * exporter in a few seconds, and the timeline stays small. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "seed.h"
#include "trace/export.h"
#include "trace/summary.h"
#include "trace/trace.h"
#include "util/rng.h"

#define SPANS 100000
#define DEVICES 4
#define WORKERS_PER_DEVICE 2
#define SYNTH_WORKERS 6

/* Release builds get a few seconds; sanitizer builds are ~10x slower. */
#ifdef CUZK_VERIFY
#define LIMIT_S 60.0
#else
#define LIMIT_S 5.0
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const gpu_phases[] = {"upload", "h",        "msm_h",    "msm_l",
                                         "msm_a",  "msm_b_g1", "msm_b_g2", "download"};

/* Partitions flow: queue_wait, synthesize, eval_abc on a synth worker, the
 * GPU phases on a device worker, finalize; each partition's spans make 12
 * lines. Counters every 10 ms per device. */
static char *generate(size_t *spans_out, size_t *len_out)
{
    rng_t rng;
    rng_seed(&rng, test_seed("trace_large"));
    char *text = NULL;
    size_t len = 0, spans = 0;
    FILE *f = open_memstream(&text, &len);
    fputs("{\"type\":\"meta\",\"clock\":\"monotonic\",\"t0_ns\":5000000000,\"pid\":99,"
          "\"host\":\"big\",\"version\":\"0.1.0\"}\n",
          f);
    uint64_t synth_free[SYNTH_WORKERS] = {0}, gpu_free[DEVICES][WORKERS_PER_DEVICE] = {{0}};
    uint64_t t0 = 5000000000ULL, last = t0;
    for (uint64_t p = 0; spans + 12 <= SPANS; p++) {
        uint64_t job = p / 10, part = p % 10, q = t0 + p * 2000000;
        if (part == 0)
            fprintf(f,
                    "{\"type\":\"job\",\"job\":%llu,\"circuit\":\"porep\",\"state\":\"queued\","
                    "\"ts_ns\":%llu,\"partitions\":10,\"priority\":\"normal\",\"message\":\"\"}\n",
                    (unsigned long long)job, (unsigned long long)q);
        int sw = (int)(p % SYNTH_WORKERS);
        uint64_t a = q > synth_free[sw] ? q : synth_free[sw];
#define SPAN(name, cat, worker, dev, s, e)                                                         \
    fprintf(f,                                                                                     \
            "{\"type\":\"span\",\"name\":\"%s\",\"cat\":\"%s\",\"job\":%llu,\"partition\":%llu,"   \
            "\"circuit\":\"porep\",\"worker\":\"%s\",\"device\":%d,\"start_ns\":%llu,"             \
            "\"end_ns\":%llu,\"bytes\":%d}\n",                                                     \
            name, cat, (unsigned long long)job, (unsigned long long)part, worker, dev,             \
            (unsigned long long)(s), (unsigned long long)(e), 1 << 20);                            \
    spans++
        char w[32];
        snprintf(w, sizeof w, "synth-%d", sw);
        SPAN("queue_wait", "queue", w, -1, q, a);
        uint64_t syn = 8000000 + rng_u64(&rng) % 4000000;
        SPAN("synthesize", "cpu", w, -1, a, a + syn);
        SPAN("eval_abc", "cpu", w, -1, a + syn, a + syn + 1000000);
        synth_free[sw] = a + syn + 1000000;
        int d = (int)(p % DEVICES), k = (int)((p / DEVICES) % WORKERS_PER_DEVICE);
        uint64_t g = synth_free[sw] > gpu_free[d][k] ? synth_free[sw] : gpu_free[d][k];
        snprintf(w, sizeof w, "dev%d-w%d", d, k);
        for (size_t ph = 0; ph < 8; ph++) {
            uint64_t dur = 300000 + rng_u64(&rng) % 700000;
            SPAN(gpu_phases[ph], ph == 0 || ph == 7 ? "copy" : "gpu", w, d, g, g + dur);
            g += dur;
        }
        gpu_free[d][k] = g;
        SPAN("finalize", "cpu", "final-0", -1, g, g + 200000);
        if (g + 200000 > last)
            last = g + 200000;
        if (part == 9)
            fprintf(f,
                    "{\"type\":\"job\",\"job\":%llu,\"circuit\":\"porep\",\"state\":\"done\","
                    "\"ts_ns\":%llu,\"partitions\":10}\n",
                    (unsigned long long)job, (unsigned long long)(g + 200000));
    }
    for (uint64_t ts = t0; ts < last; ts += 10000000)
        for (int d = 0; d < DEVICES; d++)
            fprintf(f,
                    "{\"type\":\"counter\",\"name\":\"sm_util\",\"device\":%d,\"ts_ns\":%llu,"
                    "\"value\":%d}\n",
                    d, (unsigned long long)ts, (int)(rng_u64(&rng) % 100));
    fclose(f);
    *spans_out = spans;
    *len_out = len;
    return text;
}

static void test_large_log(void **state)
{
    (void)state;
    size_t spans, len;
    char *log = generate(&spans, &len);
    char msg[256];
    double t_start = now();
    trace *t = NULL;
    assert_int_equal(trace_read_buffer(&t, log, len, true, msg, sizeof msg), CUZK_OK);
    double t_read = now();
    assert_int_equal(t->span_count, spans);
    trace_summary *s = NULL;
    assert_int_equal(trace_summarize(&s, t, NULL), CUZK_OK);
    double t_sum = now();
    assert_int_equal(s->device_count, DEVICES);
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    assert_int_equal(trace_write_perfetto(null, t), CUZK_OK);
    double t_perf = now();
    char *svg = NULL;
    size_t svg_len = 0;
    FILE *mem = open_memstream(&svg, &svg_len);
    trace_svg_stats st;
    assert_int_equal(trace_write_svg(mem, t, s, NULL, &st), CUZK_OK);
    fclose(mem);
    assert_int_equal(trace_write_html(null, t, s, NULL), CUZK_OK);
    trace_summary_print(null, t, s);
    assert_int_equal(trace_summary_write_json(null, t, s), CUZK_OK);
    fclose(null);
    double t_end = now();
    printf("%zu spans, %zu MB of log: read %.2f s, summary %.2f s, perfetto %.2f s, "
           "svg + html + summaries %.2f s; SVG %zu KB (%zu rectangles, %zu runs)\n",
           spans, len >> 20, t_read - t_start, t_sum - t_read, t_perf - t_sum, t_end - t_perf,
           svg_len >> 10, st.span_rects, st.runs);
    assert_int_equal(st.span_rects + st.spans_in_runs, spans);
    assert_true(svg_len < 8u << 20);
    if (t_end - t_start > LIMIT_S)
        fail_msg("took %.2f s, more than %.0f s", t_end - t_start, LIMIT_S);
    free(svg);
    trace_summary_free(s);
    trace_free(t);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
