/* Device telemetry through the engine, end to end, without a GPU: a
 * stand-in "GPU" backend whose prove() runs a scripted partition (kernel
 * phase h, a copy of the witness, kernel phase msm_h, a result copy) and a
 * fake telemetry source keyed on the same clock (sm_util 95 in h, 5 during
 * the copy, 60 in msm_h, 0 between partitions). The event log is then read
 * back: the samples are counter lines on the phases' clock and inside the
 * job's life, every sample reads what the phase running at its timestamp
 * dictates, the Perfetto trace has the counter tracks and the copy's
 * fields, the SVG the curves, the summary finds the planted dip with the
 * planted copy overlapping it and the per-partition figures. Also: NVML
 * absent -> one line saying telemetry is off and the job still proves;
 * interval 0 -> no sampler thread. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
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
#include "telemetry/telemetry.h"
#include "trace/export.h"
#include "trace/stats.h"
#include "trace/summary.h"
#include "trace/trace.h"

#define H_MS 50
#define COPY_MS 60
#define MSM_MS 100
#define W_BYTES 123456u
#define RESULT_BYTES 144u

#define UTIL_H 95.0
#define UTIL_COPY 5.0
#define UTIL_MSM 60.0
#define UTIL_IDLE 0.0

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

static int group_setup(void **state)
{
    (void)state;
    test_builtin_params_file("telemetry_engine", &fx.shape, fx.params, sizeof(fx.params), NULL);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(fx.params);
    return 0;
}

/* ------------------------------------------- the script both sides share */

typedef enum dev_state { ST_IDLE, ST_H, ST_COPY, ST_MSM } dev_state;

#define MAX_CHANGES 64

typedef struct script {
    pthread_mutex_t mu;
    uint64_t at[MAX_CHANGES];
    dev_state state[MAX_CHANGES];
    unsigned n;
} script;

static script sc;

/* The device enters state s now; the time is taken under the lock, so a
 * sample logged at or after it sees the change (telemetry.h: the source
 * reads at the sample's timestamp). */
static uint64_t enter(dev_state s)
{
    pthread_mutex_lock(&sc.mu);
    uint64_t t = backend_clock_ns();
    if (sc.n < MAX_CHANGES) {
        sc.at[sc.n] = t;
        sc.state[sc.n++] = s;
    }
    pthread_mutex_unlock(&sc.mu);
    return t;
}

static dev_state state_at(uint64_t ts)
{
    pthread_mutex_lock(&sc.mu);
    dev_state s = ST_IDLE;
    for (unsigned i = 0; i < sc.n && sc.at[i] <= ts; i++)
        s = sc.state[i];
    pthread_mutex_unlock(&sc.mu);
    return s;
}

static double util_of(dev_state s)
{
    return s == ST_H ? UTIL_H : s == ST_COPY ? UTIL_COPY : s == ST_MSM ? UTIL_MSM : UTIL_IDLE;
}

static double fake_value(void *ctx, unsigned device, telemetry_metric m, uint64_t ts_ns)
{
    (void)ctx;
    (void)device;
    dev_state s = state_at(ts_ns);
    switch (m) {
    case TELEMETRY_SM_UTIL:
        return util_of(s);
    case TELEMETRY_PCIE_RX_BPS:
        return s == ST_COPY ? 2e9 : 0;
    case TELEMETRY_POWER_W:
        return s == ST_IDLE ? 80 : 400;
    default:
        return 1;
    }
}

static double distance(double a, double b)
{
    return a > b ? a - b : b - a;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------ stand-in GPU backend */

static int handle_token;

static cuzk_status standin_prepare(backend_t *b, const backend_circuit_desc *d, void **h,
                                   uint64_t *bytes, char *m, size_t ml)
{
    (void)b;
    (void)d;
    (void)m;
    (void)ml;
    *h = &handle_token;
    *bytes = 0;
    return CUZK_OK;
}

static void standin_release(backend_t *b, void *h)
{
    (void)b;
    (void)h;
}

static cuzk_status standin_prove(backend_t *b, unsigned dev, void *h, const backend_input *in,
                                 groth16_sums *out, backend_phase_fn fn, void *ctx, char *m,
                                 size_t ml)
{
    (void)b;
    (void)dev;
    (void)h;
    (void)m;
    (void)ml;
    uint64_t t0 = enter(ST_H);
    sleep_ms(H_MS);
    uint64_t t1 = enter(ST_COPY);
    if (fn)
        fn(ctx, PHASE_H, "gpu", t0, t1, 0);
    sleep_ms(COPY_MS);
    uint64_t t2 = enter(ST_MSM);
    if (in->copy) {
        backend_copy c = {.what = "w",
                          .dir = BACKEND_COPY_H2D,
                          .stream = 0,
                          .start_ns = t1,
                          .end_ns = t2,
                          .bytes = W_BYTES};
        in->copy(in->copy_ctx, &c);
    }
    sleep_ms(MSM_MS);
    uint64_t t3 = enter(ST_IDLE);
    if (fn)
        fn(ctx, PHASE_MSM_H, "gpu", t2, t3, 0);
    if (in->copy) {
        backend_copy c = {.what = "msm_h result",
                          .dir = BACKEND_COPY_D2H,
                          .stream = 1,
                          .start_ns = t3,
                          .end_ns = t3,
                          .bytes = RESULT_BYTES};
        in->copy(in->copy_ctx, &c);
    }
    g1_jac_set_infinity(&out->a);
    g1_jac_set_infinity(&out->b1);
    g1_jac_set_infinity(&out->c);
    g2_jac_set_infinity(&out->b);
    return CUZK_OK;
}

static backend_t standin = {.name = "standin-gpu",
                            .num_devices = 1,
                            .prepare = standin_prepare,
                            .release = standin_release,
                            .prove = standin_prove};

static engine_t *make_engine(const char *events, unsigned interval_ms, telemetry_source *src,
                             bool quiet)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend_override = &standin;
    cfg.cpu_fallback = false;
    cfg.synth_workers = 1;
    cfg.workers_per_device = 1;
    cfg.verify = false;
    cfg.event_log = events;
    cfg.quiet = quiet;
    cfg.telemetry_interval_ms = interval_ms;
    cfg.telemetry_source = src;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    circuit_spec spec = {.name = "tel",
                         .kind = CIRCUIT_BUILTIN,
                         .shape = fx.shape,
                         .params_path = fx.params,
                         .check = FORMATS_CHECK_CURVE};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    ok(engine_preload(e, "tel", msg, sizeof(msg)));
    return e;
}

static void prove_job(engine_t *e, uint32_t partitions)
{
    engine_job_spec js = {.circuit = "tel", .partitions = partitions, .seed = 1};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, id, 120.0, &st));
    assert_int_equal(st, ENGINE_STATE_DONE);
}

static char *temp_path(const char *stem)
{
    char *p = malloc(96);
    assert_non_null(p);
    snprintf(p, 96, "/tmp/cuzk-%s-XXXXXX", stem);
    int fd = mkstemp(p);
    assert_true(fd >= 0);
    close(fd);
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static size_t occurrences(const char *hay, const char *needle)
{
    size_t k = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

static const trace_series *series_named(const trace *t, int device, const char *name)
{
    for (size_t k = 0; k < t->series_count; k++)
        if (t->series[k].device == device && !strcmp(t->series[k].name, name))
            return &t->series[k];
    return NULL;
}

/* ----------------------------------------------------------------- tests */

static void test_samples_aligned_drawn_and_dip_found(void **state)
{
    (void)state;
    pthread_mutex_init(&sc.mu, NULL);
    sc.n = 0;
    telemetry_source *src;
    telemetry_fake_opts fo = {.devices = 1, .value = fake_value};
    assert_int_equal(telemetry_fake_create(&src, &fo), CUZK_OK);
    char *events = temp_path("telemetry-events");
    uint64_t before = backend_clock_ns();
    engine_t *e = make_engine(events, 10, src, true);
    prove_job(e, 2);
    engine_destroy(e);
    uint64_t after = backend_clock_ns();
    assert_true(telemetry_fake_reads(src) > 0);
    src->destroy(src);

    trace *t;
    ok(trace_read_file(&t, events, true, msg, sizeof(msg)));
    assert_true(t->telemetry_seen);
    assert_true(t->telemetry_on);
    assert_string_equal(t->telemetry_source, "fake");
    for (int m = 0; m < TELEMETRY_METRIC_COUNT; m++)
        assert_non_null(series_named(t, 0, telemetry_metric_name((telemetry_metric)m)));
    const trace_series *sm = series_named(t, 0, "sm_util");

    /* The job's life, from its lines. */
    uint64_t queued = 0, done = 0;
    for (size_t i = 0; i < t->job_event_count; i++) {
        if (t->job_events[i].state == TRACE_JOB_QUEUED)
            queued = t->job_events[i].ts_ns;
        if (t->job_events[i].state == TRACE_JOB_DONE)
            done = t->job_events[i].ts_ns;
    }
    assert_true(before < queued && queued < done && done < after);

    /* Same clock: every sample lies inside the engine's life, none before
     * the job came; and each reads what the phase at its time dictates
     * (95 in h, 60 in msm_h, 5 in the copy): off by one phase would show. */
    size_t in_h = 0, in_msm = 0, in_copy = 0, in_done = 0;
    for (uint32_t i = sm->first; i < sm->first + sm->count; i++) {
        const trace_sample *s = &t->samples[i];
        assert_true(s->ts_ns >= queued && s->ts_ns <= after);
        in_done += s->ts_ns <= done;
        for (size_t k = 0; k < t->span_count; k++) {
            const trace_span *sp = &t->spans[k];
            if (t->lanes[sp->lane].device != 0 || s->ts_ns < sp->start_ns || s->ts_ns >= sp->end_ns)
                continue;
            const char *ph = t->phase_names[sp->phase];
            if (!strcmp(ph, "h")) {
                assert_true(s->value == UTIL_H);
                in_h++;
            } else if (!strcmp(ph, "msm_h")) {
                assert_true(s->value == UTIL_MSM);
                in_msm++;
            } else if (sp->cat == TRACE_CAT_COPY) {
                assert_true(s->value == UTIL_COPY);
                in_copy++;
            }
        }
    }
    assert_true(in_done >= sm->count / 2); /* most samples while the job ran */
    assert_true(in_h >= 2 && in_msm >= 2 && in_copy >= 2);

    /* The copies: with their direction, stream and what. */
    size_t uploads = 0, downloads = 0;
    for (size_t k = 0; k < t->span_count; k++) {
        const trace_span *sp = &t->spans[k];
        if (sp->cat != TRACE_CAT_COPY)
            continue;
        if (sp->dir == TRACE_DIR_H2D) {
            uploads++;
            assert_string_equal(sp->what, "w");
            assert_int_equal(sp->stream, 0);
            assert_int_equal(sp->bytes, W_BYTES);
        } else {
            downloads++;
            assert_int_equal(sp->dir, TRACE_DIR_D2H);
            assert_string_equal(sp->what, "msm_h result");
            assert_int_equal(sp->stream, 1);
        }
    }
    assert_int_equal(uploads, 2);
    assert_int_equal(downloads, 2);

    /* The summary: a dip below 50 on each partition's copy, with the copy
     * named among what overlaps it, and nothing but copy-time samples in it. */
    trace_summary_options so = {TRACE_DEFAULT_GAP_MS, 50.0, "sm_util"};
    trace_summary *s;
    ok(trace_summarize(&s, t, &so));
    assert_int_equal(s->device_count, 1);
    const trace_device_summary *ds = &s->devices[0];
    size_t copy_dips = 0;
    for (size_t k = 0; k < ds->dip_count; k++) {
        const trace_dip *d = &ds->dips[k];
        for (uint32_t i = 0; i < d->overlap_count; i++) {
            const trace_span *sp = &t->spans[d->overlaps[i].span];
            if (sp->cat == TRACE_CAT_COPY && sp->dir == TRACE_DIR_H2D) {
                copy_dips++;
                assert_true(d->min == UTIL_COPY && d->mean == UTIL_COPY);
                assert_true(d->start_ns >= sp->start_ns && d->start_ns < sp->end_ns);
                assert_true(d->overlaps[i].overlap_ns * 2 >= d->end_ns - d->start_ns);
            }
        }
    }
    assert_int_equal(copy_dips, 2);

    /* Per partition: kernel time, sm_util in its kernel phases (the mean
     * and p5 recomputed here from the raw samples), bytes each way. */
    assert_int_equal(s->partition_count, 2);
    for (size_t p = 0; p < 2; p++) {
        const trace_partition_stat *ps = &s->partitions[p];
        assert_int_equal(ps->partition, p);
        assert_int_equal(ps->h2d_bytes, W_BYTES);
        assert_int_equal(ps->d2h_bytes, RESULT_BYTES);
        assert_int_equal(ps->copies, 2);
        assert_true(ps->kernel_ns >= (uint64_t)(H_MS + MSM_MS) * 1000000u);
        double v[256], sum = 0;
        size_t n = 0;
        for (uint32_t i = sm->first; i < sm->first + sm->count && n < 256; i++)
            for (size_t k = 0; k < t->span_count; k++) {
                const trace_span *sp = &t->spans[k];
                if (sp->cat == TRACE_CAT_GPU && sp->partition == p &&
                    t->samples[i].ts_ns >= sp->start_ns && t->samples[i].ts_ns < sp->end_ns) {
                    v[n++] = t->samples[i].value;
                    sum += t->samples[i].value;
                }
            }
        assert_int_equal(ps->samples, n);
        assert_true(distance(ps->util_mean, sum / (double)n) < 1e-9);
        assert_true(distance(ps->util_p5, trace_percentile(v, n, 5.0)) < 1e-9);
        assert_true(ps->util_p5 >= UTIL_MSM && ps->util_mean <= UTIL_H);
    }

    /* The text summary names the copy in the dip. */
    char *text = NULL;
    size_t text_len = 0;
    FILE *mf = open_memstream(&text, &text_len);
    trace_summary_print(mf, t, s);
    fclose(mf);
    assert_non_null(strstr(text, "upload (copy) job 1 partition 0 on dev0-w0"));
    assert_non_null(strstr(text, "ms of it; h2d w, 123.5 kB on stream 0\n"));
    assert_non_null(strstr(text, "device telemetry: on (fake)"));
    free(text);

    /* Perfetto: one counter event per sample on the "gpu0 sm_util" track;
     * the copy's fields in its args. */
    char *pf = temp_path("telemetry-perfetto");
    FILE *f = fopen(pf, "w");
    assert_non_null(f);
    ok(trace_write_perfetto(f, t));
    fclose(f);
    json_error_t jerr;
    json_t *root = json_load_file(pf, 0, &jerr);
    assert_non_null(root);
    json_t *evs = json_object_get(root, "traceEvents");
    size_t counters = 0, tracks = 0, w_copies = 0;
    json_int_t counter_pid = -1, copy_pid = -2;
    for (size_t i = 0; i < json_array_size(evs); i++) {
        json_t *ev = json_array_get(evs, i);
        const char *ph = json_string_value(json_object_get(ev, "ph"));
        const char *name = json_string_value(json_object_get(ev, "name"));
        json_t *args = json_object_get(ev, "args");
        if (!strcmp(ph, "C") && !strcmp(name, "gpu0 sm_util")) {
            counters++;
            counter_pid = json_integer_value(json_object_get(ev, "pid"));
        }
        if (!strcmp(ph, "C") && !strncmp(name, "gpu0 ", 5))
            tracks++;
        const char *what = json_string_value(json_object_get(args, "what"));
        if (!strcmp(ph, "X") && what && !strcmp(what, "w")) {
            w_copies++;
            assert_string_equal(json_string_value(json_object_get(args, "dir")), "h2d");
            copy_pid = json_integer_value(json_object_get(ev, "pid"));
        }
    }
    assert_int_equal(counters, sm->count);
    assert_true(tracks >= TELEMETRY_METRIC_COUNT * (size_t)2);
    assert_int_equal(w_copies, 2);
    /* The device's counter tracks sit in the process of its lanes. */
    assert_true(counter_pid == copy_pid);
    json_decref(root);

    /* SVG: a curve per counter of the device, the dips marked. */
    char *svg = NULL;
    size_t svg_len = 0;
    mf = open_memstream(&svg, &svg_len);
    ok(trace_write_svg(mf, t, s, NULL, NULL));
    fclose(mf);
    assert_true(occurrences(svg, "<polyline") >= TELEMETRY_METRIC_COUNT);
    assert_non_null(strstr(svg, "sm_util"));
    free(svg);

    trace_summary_free(s);
    trace_free(t);
    unlink(pf);
    unlink(events);
    free(pf);
    free(events);
    pthread_mutex_destroy(&sc.mu);
}

static void test_nvml_absent_says_off_once(void **state)
{
    (void)state;
    pthread_mutex_init(&sc.mu, NULL);
    sc.n = 0;
    setenv("CUZK_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    char *events = temp_path("telemetry-off-events");
    char *err_path = temp_path("telemetry-stderr");
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = open(err_path, O_WRONLY | O_TRUNC);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    engine_t *e = make_engine(events, 20, NULL, false); /* not quiet: the line is wanted */
    prove_job(e, 2);
    engine_destroy(e);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    unsetenv("CUZK_NVML_LIBRARY");

    char *err = slurp(err_path);
    assert_int_equal(occurrences(err, "device telemetry off"), 1);
    assert_non_null(strstr(err, "/nonexistent/libnvidia-ml.so.1"));
    char *log = slurp(events);
    assert_int_equal(occurrences(log, "\"type\":\"telemetry\""), 1);
    assert_int_equal(occurrences(log, "\"state\":\"off\""), 1);
    assert_int_equal(occurrences(log, "\"name\":\"sm_util\""), 0);
    assert_int_equal(occurrences(log, "\"state\":\"done\""), 1);

    trace *t;
    ok(trace_read_file(&t, events, true, msg, sizeof(msg)));
    assert_true(t->telemetry_seen && !t->telemetry_on);
    assert_non_null(strstr(t->telemetry_reason, "libnvidia-ml"));
    for (size_t k = 0; k < t->series_count; k++)
        assert_int_equal(t->series[k].device, -1); /* host counters only */
    trace_free(t);
    unlink(events);
    unlink(err_path);
    free(events);
    free(err_path);
    free(err);
    free(log);
    pthread_mutex_destroy(&sc.mu);
}

static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Tests cmocka skipped: cmocka counts them as passed, so the program exits
 * 77 (ctest's SKIP_RETURN_CODE) when there are any and nothing failed, and
 * ctest shows the skip instead of a pass. */
static int num_skipped;

static void test_interval_zero_starts_nothing(void **state)
{
    (void)state;
    if (thread_count() < 0) {
        print_message("SKIPPED: /proc/self/task is not readable here\n");
        num_skipped++;
        skip();
    }
    pthread_mutex_init(&sc.mu, NULL);
    telemetry_source *src;
    telemetry_fake_opts fo = {.devices = 1, .value = fake_value};
    assert_int_equal(telemetry_fake_create(&src, &fo), CUZK_OK);
    char *events = temp_path("telemetry-zero-events");
    engine_t *e = make_engine(events, 0, src, true);
    int off = thread_count();
    prove_job(e, 1);
    engine_destroy(e);
    /* off: the source was never read, and the log says nothing of it */
    assert_int_equal(telemetry_fake_reads(src), 0);
    char *log = slurp(events);
    assert_int_equal(occurrences(log, "\"type\":\"telemetry\""), 0);
    assert_int_equal(occurrences(log, "\"type\":\"counter\",\"name\":\"sm_util\""), 0);
    assert_int_equal(occurrences(log, "\"state\":\"done\""), 1);
    e = make_engine(events, 10, src, true);
    int on = thread_count();
    engine_destroy(e);
    assert_int_equal(on, off + 1); /* the sampler, and only when on */
    src->destroy(src);
    unlink(events);
    free(events);
    free(log);
    pthread_mutex_destroy(&sc.mu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_aligned_drawn_and_dip_found),
        cmocka_unit_test(test_nvml_absent_says_off_once),
        cmocka_unit_test(test_interval_zero_starts_nothing),
    };
    int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
    if (failed)
        return failed;
    return num_skipped ? 77 : 0;
}
