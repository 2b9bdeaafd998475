/* Counters, histograms and device busy time fed by the engine's events;
 * rendered with a stats snapshot's gauges in the Prometheus text format. */
#define _POSIX_C_SOURCE 200809L
#include "engine/metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "util/strbuf.h"

#define NS_PER_S 1000000000ull
#define MAX_DEVICES 64
#define BUSY_WINDOW ENGINE_METRICS_BUSY_WINDOW_S

/* Upper bounds of the latency buckets, seconds: from a millisecond (one
 * small phase) to ten minutes (a large job). */
static const double bucket_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                       1,     2.5,    5,     10,   30,    60,   120, 300,  600};
#define NUM_BOUNDS (sizeof(bucket_bounds) / sizeof(bucket_bounds[0]))

/* Outcomes counted per circuit, for jobs and for partitions. */
enum { OUT_SUBMITTED, OUT_DONE, OUT_FAILED, OUT_CANCELLED, OUT_COUNT };
static const char *const outcome_names[OUT_COUNT] = {"submitted", "done", "failed", "cancelled"};

typedef struct histogram {
    char circuit[64];
    char name[32];                    /* a phase, or a job's terminal state */
    uint64_t buckets[NUM_BOUNDS + 1]; /* non-cumulative; the last is +Inf */
    uint64_t count;
    double sum;
} histogram;

typedef struct metrics_circuit_counts {
    char circuit[64];
    uint64_t jobs[OUT_COUNT];
    uint64_t partitions[OUT_COUNT];
} metrics_circuit_counts;

typedef struct device_busy {
    uint64_t total_ns;
    uint64_t second[BUSY_WINDOW]; /* which second each slot holds */
    uint64_t busy_ns[BUSY_WINDOW];
} device_busy;

struct engine_metrics {
    pthread_mutex_t mu;
    uint64_t created_ns;
    histogram *phases, *jobs; /* growing arrays */
    size_t num_phases, cap_phases, num_jobs, cap_jobs;
    metrics_circuit_counts *counts;
    size_t num_counts, cap_counts;
    device_busy devices[MAX_DEVICES];
    int max_device; /* highest device seen; -1 none */
};

cuzk_status engine_metrics_create(engine_metrics **out)
{
    engine_metrics *m = calloc(1, sizeof(*m));
    if (!m)
        return CUZK_ERR_OUT_OF_MEMORY;
    pthread_mutex_init(&m->mu, NULL);
    m->created_ns = backend_clock_ns();
    m->max_device = -1;
    *out = m;
    return CUZK_OK;
}

void engine_metrics_destroy(engine_metrics *m)
{
    if (!m)
        return;
    free(m->phases);
    free(m->jobs);
    free(m->counts);
    pthread_mutex_destroy(&m->mu);
    free(m);
}

/* ------------------------------------------------------------- feeding */

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, cap2 * elem);
    if (!p)
        return false;
    memset((char *)p + *cap * elem, 0, (cap2 - *cap) * elem);
    *arr = p;
    *cap = cap2;
    return true;
}

/* The histogram of (circuit, name), made on first use; NULL when out of
 * memory (the sample is lost, nothing else). */
static histogram *find_hist(histogram **arr, size_t *num, size_t *cap, const char *circuit,
                            const char *name)
{
    circuit = circuit ? circuit : "";
    for (size_t i = 0; i < *num; i++)
        if (!strcmp((*arr)[i].circuit, circuit) && !strcmp((*arr)[i].name, name))
            return &(*arr)[i];
    if (!grow((void **)arr, cap, *num + 1, sizeof(histogram)))
        return NULL;
    histogram *h = &(*arr)[(*num)++];
    memset(h, 0, sizeof(*h));
    snprintf(h->circuit, sizeof(h->circuit), "%s", circuit);
    snprintf(h->name, sizeof(h->name), "%s", name);
    return h;
}

static metrics_circuit_counts *find_counts(engine_metrics *m, const char *circuit)
{
    circuit = circuit ? circuit : "";
    for (size_t i = 0; i < m->num_counts; i++)
        if (!strcmp(m->counts[i].circuit, circuit))
            return &m->counts[i];
    if (!grow((void **)&m->counts, &m->cap_counts, m->num_counts + 1,
              sizeof(metrics_circuit_counts)))
        return NULL;
    metrics_circuit_counts *c = &m->counts[m->num_counts++];
    memset(c, 0, sizeof(*c));
    snprintf(c->circuit, sizeof(c->circuit), "%s", circuit);
    return c;
}

static void observe(histogram *h, double seconds)
{
    if (!h)
        return;
    size_t b = 0;
    while (b < NUM_BOUNDS && seconds > bucket_bounds[b])
        b++;
    h->buckets[b]++;
    h->count++;
    h->sum += seconds;
}

/* Spreads [start, end) over the per-second slots of the device's window;
 * a span longer than the window keeps only its last window's worth. */
static void add_busy(device_busy *d, uint64_t start, uint64_t end)
{
    d->total_ns += end - start;
    uint64_t floor_ns = end > (uint64_t)BUSY_WINDOW * NS_PER_S ? end - BUSY_WINDOW * NS_PER_S : 0;
    if (start < floor_ns)
        start = floor_ns;
    while (start < end) {
        uint64_t sec = start / NS_PER_S;
        uint64_t stop = (sec + 1) * NS_PER_S < end ? (sec + 1) * NS_PER_S : end;
        size_t slot = (size_t)(sec % BUSY_WINDOW);
        if (d->second[slot] != sec) {
            d->second[slot] = sec;
            d->busy_ns[slot] = 0;
        }
        d->busy_ns[slot] += stop - start;
        start = stop;
    }
}

void engine_metrics_span(engine_metrics *m, const event_span_rec *s)
{
    if (!m || !s || !s->name)
        return;
    uint64_t dur = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
    pthread_mutex_lock(&m->mu);
    observe(find_hist(&m->phases, &m->num_phases, &m->cap_phases, s->circuit, s->name),
            (double)dur / (double)NS_PER_S);
    /* Copies overlap kernels on a GPU; the device counts as busy in its
     * compute spans only. */
    bool compute = !s->cat || strcmp(s->cat, "copy") != 0;
    if (compute && s->device >= 0 && s->device < MAX_DEVICES && dur > 0) {
        add_busy(&m->devices[s->device], s->start_ns, s->end_ns);
        if (s->device > m->max_device)
            m->max_device = s->device;
    }
    pthread_mutex_unlock(&m->mu);
}

void engine_metrics_job(engine_metrics *m, const char *circuit, engine_state state,
                        uint32_t partitions, uint32_t partitions_done, uint64_t submit_ns,
                        uint64_t ts_ns)
{
    if (!m)
        return;
    int out = state == ENGINE_STATE_QUEUED      ? OUT_SUBMITTED
              : state == ENGINE_STATE_DONE      ? OUT_DONE
              : state == ENGINE_STATE_FAILED    ? OUT_FAILED
              : state == ENGINE_STATE_CANCELLED ? OUT_CANCELLED
                                                : -1;
    if (out < 0)
        return;
    if (partitions_done > partitions)
        partitions_done = partitions;
    pthread_mutex_lock(&m->mu);
    metrics_circuit_counts *c = find_counts(m, circuit);
    if (c) {
        c->jobs[out]++;
        if (out == OUT_SUBMITTED) {
            c->partitions[OUT_SUBMITTED] += partitions;
        } else {
            c->partitions[OUT_DONE] += partitions_done;
            if (out != OUT_DONE)
                c->partitions[out] += partitions - partitions_done;
        }
    }
    if (out != OUT_SUBMITTED)
        observe(find_hist(&m->jobs, &m->num_jobs, &m->cap_jobs, circuit, outcome_names[out]),
                ts_ns > submit_ns ? (double)(ts_ns - submit_ns) / (double)NS_PER_S : 0.0);
    pthread_mutex_unlock(&m->mu);
}

/* ----------------------------------------------------------- rendering */

/* A label value: backslash, double quote and newline escaped. */
static void label_value(strbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            strbuf_puts(b, "\\\\");
        else if (*s == '"')
            strbuf_puts(b, "\\\"");
        else if (*s == '\n')
            strbuf_puts(b, "\\n");
        else
            strbuf_append(b, s, 1);
    }
}

static void header(strbuf *b, const char *name, const char *type, const char *help)
{
    strbuf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void histograms(strbuf *b, const char *metric, const char *label, const histogram *h,
                       size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t cum = 0;
        for (size_t k = 0; k <= NUM_BOUNDS; k++) {
            cum += h[i].buckets[k];
            strbuf_printf(b, "%s_bucket{circuit=\"", metric);
            label_value(b, h[i].circuit);
            strbuf_printf(b, "\",%s=\"", label);
            label_value(b, h[i].name);
            if (k < NUM_BOUNDS)
                strbuf_printf(b, "\",le=\"%g\"} %llu\n", bucket_bounds[k], (unsigned long long)cum);
            else
                strbuf_printf(b, "\",le=\"+Inf\"} %llu\n", (unsigned long long)cum);
        }
        const char *suffix[2] = {"_sum", "_count"};
        for (int s = 0; s < 2; s++) {
            strbuf_printf(b, "%s%s{circuit=\"", metric, suffix[s]);
            label_value(b, h[i].circuit);
            strbuf_printf(b, "\",%s=\"", label);
            label_value(b, h[i].name);
            if (s == 0)
                strbuf_printf(b, "\"} %.9g\n", h[i].sum);
            else
                strbuf_printf(b, "\"} %llu\n", (unsigned long long)h[i].count);
        }
    }
}

/* Busy fraction of the last window (or of the life so far when shorter). */
static double busy_ratio(const device_busy *d, uint64_t now_ns, uint64_t created_ns)
{
    uint64_t now_sec = now_ns / NS_PER_S;
    uint64_t first_sec = now_sec >= BUSY_WINDOW - 1 ? now_sec - (BUSY_WINDOW - 1) : 0;
    uint64_t busy = 0;
    for (size_t i = 0; i < BUSY_WINDOW; i++)
        if (d->second[i] >= first_sec && d->second[i] <= now_sec)
            busy += d->busy_ns[i];
    uint64_t from = first_sec * NS_PER_S > created_ns ? first_sec * NS_PER_S : created_ns;
    if (now_ns <= from)
        return 0.0;
    double r = (double)busy / (double)(now_ns - from);
    return r > 1.0 ? 1.0 : r;
}

static void fed_series(strbuf *b, engine_metrics *m, uint64_t now_ns)
{
    header(b, "cuzk_jobs_total", "counter",
           "Jobs by circuit and state: submitted, then done, failed or cancelled.");
    for (size_t i = 0; i < m->num_counts; i++)
        for (int o = 0; o < OUT_COUNT; o++) {
            strbuf_puts(b, "cuzk_jobs_total{circuit=\"");
            label_value(b, m->counts[i].circuit);
            strbuf_printf(b, "\",state=\"%s\"} %llu\n", outcome_names[o],
                          (unsigned long long)m->counts[i].jobs[o]);
        }
    header(b, "cuzk_partitions_total", "counter",
           "Partitions by circuit and state: submitted, done, or failed/cancelled with their "
           "job.");
    for (size_t i = 0; i < m->num_counts; i++)
        for (int o = 0; o < OUT_COUNT; o++) {
            strbuf_puts(b, "cuzk_partitions_total{circuit=\"");
            label_value(b, m->counts[i].circuit);
            strbuf_printf(b, "\",state=\"%s\"} %llu\n", outcome_names[o],
                          (unsigned long long)m->counts[i].partitions[o]);
        }
    header(b, "cuzk_phase_seconds", "histogram",
           "Duration of each phase of each partition, by circuit and phase.");
    histograms(b, "cuzk_phase_seconds", "phase", m->phases, m->num_phases);
    header(b, "cuzk_job_seconds", "histogram",
           "Time from submission to the terminal state, by circuit and state.");
    histograms(b, "cuzk_job_seconds", "state", m->jobs, m->num_jobs);
    header(b, "cuzk_device_busy_seconds_total", "counter",
           "Time each device spent in backend work (kernels; the whole prove on the CPU).");
    for (int d = 0; d <= m->max_device; d++)
        strbuf_printf(b, "cuzk_device_busy_seconds_total{device=\"%d\"} %.9g\n", d,
                      (double)m->devices[d].total_ns / (double)NS_PER_S);
    header(b, "cuzk_device_busy_ratio", "gauge",
           "Fraction of the last 60 s each device spent in backend work.");
    for (int d = 0; d <= m->max_device; d++)
        strbuf_printf(b, "cuzk_device_busy_ratio{device=\"%d\"} %.6f\n", d,
                      busy_ratio(&m->devices[d], now_ns, m->created_ns));
    header(b, "cuzk_uptime_seconds", "gauge", "Seconds since the metrics started.");
    strbuf_printf(b, "cuzk_uptime_seconds %.3f\n",
                  now_ns > m->created_ns ? (double)(now_ns - m->created_ns) / (double)NS_PER_S
                                         : 0.0);
}

static void gauge(strbuf *b, const char *name, const char *help, unsigned long long v)
{
    header(b, name, "gauge", help);
    strbuf_printf(b, "%s %llu\n", name, v);
}

static void counter(strbuf *b, const char *name, const char *help, unsigned long long v)
{
    header(b, name, "counter", help);
    strbuf_printf(b, "%s %llu\n", name, v);
}

static void snapshot_series(strbuf *b, const engine_stats *st, const engine_circuit_info *ci,
                            size_t n)
{
    header(b, "cuzk_jobs", "gauge", "Jobs the engine knows, by current state.");
    for (int s = 0; s <= ENGINE_STATE_CANCELLED; s++)
        strbuf_printf(b, "cuzk_jobs{state=\"%s\"} %u\n", engine_state_name((engine_state)s),
                      st->jobs[s]);
    header(b, "cuzk_queue_depth", "gauge",
           "Partitions in each stage: queued (not started), synthesizing, prove (synthesized, "
           "waiting for a prover), proving, finalize.");
    struct {
        const char *q;
        uint32_t v;
    } queues[] = {{"queued", st->partitions_queued},
                  {"synthesizing", st->synthesizing},
                  {"prove", st->prove_queue},
                  {"proving", st->proving},
                  {"finalize", st->finalize_queue}};
    for (size_t i = 0; i < sizeof(queues) / sizeof(queues[0]); i++)
        strbuf_printf(b, "cuzk_queue_depth{queue=\"%s\"} %u\n", queues[i].q, queues[i].v);
    gauge(b, "cuzk_queue_bound", "Bound on partitions synthesizing or waiting for a prover.",
          st->queue_bound);
    gauge(b, "cuzk_devices", "Devices the prover workers serve.", st->devices);
    gauge(b, "cuzk_resident_bytes_total", "Bytes of all resident circuits.", st->resident_bytes);
    gauge(b, "cuzk_resident_budget_bytes", "Budget of resident circuits.", st->resident_budget);
    /* an info series: the circuit's description as labels, to join on */
    header(b, "cuzk_circuit_info", "gauge",
           "1 per registered circuit, its curve (snarkjs's name) and kind as labels.");
    for (size_t i = 0; i < n; i++) {
        strbuf_puts(b, "cuzk_circuit_info{circuit=\"");
        label_value(b, ci[i].name);
        strbuf_printf(b, "\",curve=\"%s\",kind=\"%s\"} 1\n", curve_id_snarkjs_name(ci[i].curve),
                      circuit_kind_name(ci[i].kind));
    }
    header(b, "cuzk_circuit_resident", "gauge", "1 when the circuit's parameters are resident.");
    for (size_t i = 0; i < n; i++) {
        strbuf_puts(b, "cuzk_circuit_resident{circuit=\"");
        label_value(b, ci[i].name);
        strbuf_printf(b, "\"} %d\n", ci[i].resident ? 1 : 0);
    }
    header(b, "cuzk_resident_bytes", "gauge", "Resident bytes of each circuit (0 when not).");
    for (size_t i = 0; i < n; i++) {
        strbuf_puts(b, "cuzk_resident_bytes{circuit=\"");
        label_value(b, ci[i].name);
        strbuf_printf(b, "\"} %llu\n",
                      (unsigned long long)(ci[i].resident ? ci[i].resident_bytes : 0));
    }
    header(b, "cuzk_circuit_jobs", "gauge", "Unfinished jobs using each circuit.");
    for (size_t i = 0; i < n; i++) {
        strbuf_puts(b, "cuzk_circuit_jobs{circuit=\"");
        label_value(b, ci[i].name);
        strbuf_printf(b, "\"} %u\n", ci[i].refs);
    }
    gauge(b, "cuzk_buffer_budget_bytes", "Budget of partition buffers.", st->buffer_budget);
    gauge(b, "cuzk_buffer_allocated_bytes", "Partition buffers allocated (pooled or in use).",
          st->buffer_allocated);
    gauge(b, "cuzk_buffer_in_use_bytes", "Partition buffers in use.", st->buffer_in_use);
    gauge(b, "cuzk_buffer_peak_bytes", "Peak of partition buffers in use.", st->buffer_peak);
    counter(b, "cuzk_partitions_proved_total", "Partitions a prover finished (retries included).",
            st->partitions_proved);
    counter(b, "cuzk_retries_total", "Partition attempts repeated after a failure.", st->retries);
    counter(b, "cuzk_verify_failures_total", "Partition proofs that did not verify.",
            st->verify_failures);
    counter(b, "cuzk_workers_restarted_total",
            "Engine threads that died in the middle of a partition and were started again.",
            st->workers_restarted);
}

char *engine_metrics_render_snapshot(engine_metrics *m, const engine_stats *stats,
                                     const engine_circuit_info *circuits, size_t num_circuits,
                                     uint64_t now_ns)
{
    strbuf b;
    strbuf_init(&b);
    if (m) {
        pthread_mutex_lock(&m->mu);
        fed_series(&b, m, now_ns);
        pthread_mutex_unlock(&m->mu);
    }
    if (stats)
        snapshot_series(&b, stats, circuits, num_circuits);
    return strbuf_take(&b, NULL);
}

char *engine_metrics_render(engine_metrics *m, engine_t *e)
{
    if (!e)
        return engine_metrics_render_snapshot(m, NULL, NULL, 0, backend_clock_ns());
    engine_stats st;
    engine_get_stats(e, &st, NULL, 0);
    /* Circuits may be registered between the two calls: ask for room. */
    size_t cap = st.num_circuits + 8;
    engine_circuit_info *ci = calloc(cap, sizeof(*ci));
    if (!ci)
        return NULL;
    engine_get_stats(e, &st, ci, cap);
    size_t n = st.num_circuits < cap ? st.num_circuits : cap;
    char *text = engine_metrics_render_snapshot(m, &st, ci, n, backend_clock_ns());
    free(ci);
    return text;
}
