/* A partition's life cut into work, waiting and the engine's own overhead,
 * and each device's busy time, from an engine timing log (suite_engine.h
 * says how the life is cut). */
#include "suite_engine.h"

#include <stdlib.h>
#include <string.h>

/* The spans of one partition that the split needs. */
typedef struct part_spans {
    uint32_t source;
    uint64_t job;
    uint32_t partition;
    uint32_t queue_waits, syntheses, evals, finalizes, verifies;
    uint64_t submit, queue_end;     /* queue_wait: first start, last end */
    uint64_t synth_start, eval_end; /* synthesize start, eval_abc end (or synthesize end) */
    uint64_t prove_start, prove_end;
    int32_t device;
    bool mixed_devices;
    uint32_t final_lane;
    uint64_t final_start, final_end, verify_ns;
} part_spans;

/* A span's place in the grouping: by process, job, partition, then start. */
typedef struct span_key {
    uint32_t source, partition;
    uint64_t job, start;
    uint32_t span;
} span_key;

static int cmp_span_key(const void *x, const void *y)
{
    const span_key *a = x, *b = y;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->job != b->job)
        return a->job < b->job ? -1 : 1;
    if (a->partition != b->partition)
        return a->partition < b->partition ? -1 : 1;
    return (a->start > b->start) - (a->start < b->start);
}

static void add_span(part_spans *p, const trace *t, const trace_span *s)
{
    const trace_lane *lane = &t->lanes[s->lane];
    if (lane->device >= 0) {
        /* A backend phase (upload, h, the MSMs, download). */
        if (!p->prove_start && !p->prove_end) {
            p->prove_start = s->start_ns;
            p->device = lane->device;
        }
        if (s->start_ns < p->prove_start)
            p->prove_start = s->start_ns;
        if (s->end_ns > p->prove_end)
            p->prove_end = s->end_ns;
        p->mixed_devices |= lane->device != p->device;
        return;
    }
    switch ((trace_phase)s->phase) {
    case TRACE_PHASE_QUEUE_WAIT:
        if (!p->queue_waits++ || s->start_ns < p->submit)
            p->submit = s->start_ns;
        if (s->end_ns > p->queue_end)
            p->queue_end = s->end_ns;
        break;
    case TRACE_PHASE_SYNTHESIZE:
        p->syntheses++;
        p->synth_start = s->start_ns;
        /* The synthesis stage's end when the backend evaluates a, b, c
         * (its eval_abc span is then on the device, counted above). */
        if (s->end_ns > p->eval_end)
            p->eval_end = s->end_ns;
        break;
    case TRACE_PHASE_EVAL_ABC:
        p->evals++;
        p->eval_end = s->end_ns;
        break;
    case TRACE_PHASE_FINALIZE:
        p->finalizes++;
        p->final_start = s->start_ns;
        p->final_end = s->end_ns;
        p->final_lane = s->lane;
        break;
    case TRACE_PHASE_VERIFY:
        p->verifies++;
        p->verify_ns += s->end_ns - s->start_ns;
        break;
    default:
        break;
    }
}

/* One attempt, every stage present, in pipeline order. */
static bool complete(const part_spans *p)
{
    return p->queue_waits == 1 && p->syntheses == 1 && p->evals <= 1 && p->finalizes == 1 &&
           p->verifies <= 1 && p->prove_end && !p->mixed_devices &&
           p->queue_end <= p->synth_start && p->synth_start <= p->eval_end &&
           p->eval_end <= p->prove_start && p->prove_end <= p->final_start;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* How much of [from, to) passed before `free_at`: the wait for a resource
 * that became free at free_at. */
static uint64_t wait_until(uint64_t from, uint64_t to, uint64_t free_at)
{
    return free_at > from ? min_u64(free_at, to) - from : 0;
}

typedef struct extent {
    uint64_t start, end;
    uint32_t part;
    uint32_t key; /* device or lane, with the source: what the partitions queue for */
    uint32_t source;
} extent;

static int cmp_extent(const void *x, const void *y)
{
    const extent *a = x, *b = y;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->start > b->start) - (a->start < b->start);
}

/* For each extent in order of start on one resource: how long the
 * partition waited between `ready[part]` and its start because an extent
 * that started earlier on the same resource was still running. */
static void resource_waits(extent *x, size_t n, const uint64_t *ready, uint64_t *wait)
{
    qsort(x, n, sizeof(extent), cmp_extent);
    uint64_t busy_until = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || x[i].key != x[i - 1].key || x[i].source != x[i - 1].source)
            busy_until = 0;
        wait[x[i].part] = wait_until(ready[x[i].part], x[i].start, busy_until);
        if (x[i].end > busy_until)
            busy_until = x[i].end;
    }
}

static int cmp_u64_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The union's length of the kernel spans of a device's lanes. */
static cuzk_status device_busy(const trace *t, const trace_device *d, bench_device_busy *out)
{
    size_t n = 0;
    for (uint32_t l = d->first_lane; l < d->first_lane + d->lane_count; l++)
        n += t->lanes[l].count;
    uint64_t *iv = malloc((n ? n : 1) * 2 * sizeof(uint64_t));
    if (!iv)
        return CUZK_ERR_OUT_OF_MEMORY;
    size_t m = 0;
    for (uint32_t l = d->first_lane; l < d->first_lane + d->lane_count; l++) {
        const trace_lane *lane = &t->lanes[l];
        for (uint32_t i = lane->first; i < lane->first + lane->count; i++) {
            const trace_span *s = &t->spans[i];
            if (s->cat != TRACE_CAT_GPU && s->cat != TRACE_CAT_CPU)
                continue;
            iv[2 * m] = s->start_ns;
            iv[2 * m + 1] = s->end_ns;
            m++;
        }
    }
    qsort(iv, m, 2 * sizeof(uint64_t), cmp_u64_pair);
    memset(out, 0, sizeof(*out));
    out->source = d->source;
    out->device = d->device;
    uint64_t cur_start = 0, cur_end = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t s = iv[2 * i], e = iv[2 * i + 1];
        if (i == 0) {
            out->first_ns = s;
            cur_start = s;
            cur_end = e;
        } else if (s > cur_end) {
            out->busy_ns += cur_end - cur_start;
            cur_start = s;
            cur_end = e;
        } else if (e > cur_end) {
            cur_end = e;
        }
        if (e > out->last_ns)
            out->last_ns = e;
    }
    if (m)
        out->busy_ns += cur_end - cur_start;
    free(iv);
    return CUZK_OK;
}

/* The time of the job's done line, 0 when there is none. */
static uint64_t job_done_at(const trace *t, uint32_t source, uint64_t job)
{
    for (size_t i = 0; i < t->job_count; i++)
        if (t->jobs[i].source == source && t->jobs[i].job == job)
            return t->jobs[i].state == TRACE_JOB_DONE ? t->jobs[i].end_ns : 0;
    return 0;
}

cuzk_status bench_engine_analyze(bench_engine_report *out, const trace *t)
{
    memset(out, 0, sizeof(*out));
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    span_key *order = malloc((t->span_count ? t->span_count : 1) * sizeof(span_key));
    part_spans *ps = calloc(t->span_count ? t->span_count : 1, sizeof(part_spans));
    extent *dev_x = NULL, *fin_x = NULL;
    uint64_t *ready = NULL, *dev_wait = NULL, *fin_wait = NULL;
    if (!order || !ps)
        goto fail;
    for (uint32_t i = 0; i < t->span_count; i++) {
        const trace_span *s = &t->spans[i];
        order[i] = (span_key){t->lanes[s->lane].source, s->partition, s->job, s->start_ns, i};
    }
    qsort(order, t->span_count, sizeof(span_key), cmp_span_key);

    /* Group the spans by partition. */
    size_t groups = 0;
    for (size_t k = 0; k < t->span_count; k++) {
        const trace_span *s = &t->spans[order[k].span];
        uint32_t source = t->lanes[s->lane].source;
        part_spans *p = groups ? &ps[groups - 1] : NULL;
        if (!p || p->source != source || p->job != s->job || p->partition != s->partition) {
            p = &ps[groups++];
            p->source = source;
            p->job = s->job;
            p->partition = s->partition;
        }
        add_span(p, t, s);
    }
    size_t n = 0;
    for (size_t g = 0; g < groups; g++) {
        if (complete(&ps[g]))
            ps[n++] = ps[g];
        else
            out->skipped++;
    }

    /* What each partition waited for: its device, then its finalizer. */
    dev_x = malloc((n ? n : 1) * sizeof(extent));
    fin_x = malloc((n ? n : 1) * sizeof(extent));
    ready = calloc(n ? n : 1, sizeof(uint64_t));
    dev_wait = calloc(n ? n : 1, sizeof(uint64_t));
    fin_wait = calloc(n ? n : 1, sizeof(uint64_t));
    out->parts = calloc(n ? n : 1, sizeof(bench_partition_timing));
    if (!dev_x || !fin_x || !ready || !dev_wait || !fin_wait || !out->parts)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        dev_x[i] = (extent){ps[i].prove_start, ps[i].prove_end, (uint32_t)i, (uint32_t)ps[i].device,
                            ps[i].source};
        ready[i] = ps[i].eval_end;
    }
    resource_waits(dev_x, n, ready, dev_wait);
    for (size_t i = 0; i < n; i++) {
        fin_x[i] = (extent){ps[i].final_start, ps[i].final_end, (uint32_t)i, ps[i].final_lane,
                            ps[i].source};
        ready[i] = ps[i].prove_end;
    }
    resource_waits(fin_x, n, ready, fin_wait);

    for (size_t i = 0; i < n; i++) {
        const part_spans *p = &ps[i];
        bench_partition_timing *r = &out->parts[i];
        r->job = p->job;
        r->partition = p->partition;
        r->source = p->source;
        r->device = p->device;
        r->submit_ns = p->submit;
        r->admission_ns = p->queue_end - p->submit;
        r->acquire_ns = p->synth_start - p->queue_end;
        r->synth_ns = p->eval_end - p->synth_start;
        r->device_wait_ns = dev_wait[i];
        r->prove_handoff_ns = p->prove_start - p->eval_end - dev_wait[i];
        r->prove_ns = p->prove_end - p->prove_start;
        r->finalizer_wait_ns = fin_wait[i];
        r->finalize_handoff_ns = p->final_start - p->prove_end - fin_wait[i];
        r->finalize_ns = p->final_end - p->final_start;
        r->verify_ns = p->verify_ns;
        r->verified = p->verifies == 1;
        r->done_ns = p->final_end;
        /* The job's last partition carries the job's completion. */
        uint64_t done = job_done_at(t, p->source, p->job);
        bool last = done >= p->final_end;
        for (size_t k = 0; k < n && last; k++)
            if (k != i && ps[k].source == p->source && ps[k].job == p->job &&
                (ps[k].final_end > p->final_end || (ps[k].final_end == p->final_end && k > i)))
                last = false;
        if (last && done) {
            r->completion_ns = done - p->final_end;
            r->done_ns = done;
        }
        r->overhead_ns =
            r->acquire_ns + r->prove_handoff_ns + r->finalize_handoff_ns + r->completion_ns;
    }
    out->count = n;

    out->devices = calloc(t->device_count ? t->device_count : 1, sizeof(bench_device_busy));
    if (!out->devices)
        goto fail;
    for (size_t d = 0; d < t->device_count; d++) {
        if ((st = device_busy(t, &t->devices[d], &out->devices[d])) != CUZK_OK)
            goto fail;
        for (size_t i = 0; i < n; i++)
            if (out->parts[i].source == t->devices[d].source &&
                out->parts[i].device == t->devices[d].device)
                out->devices[d].partitions++;
    }
    out->device_count = t->device_count;
    out->wall_ns = t->has_extent ? t->t_last - t->t_first : 0;
    st = CUZK_OK;
fail:
    free(order);
    free(ps);
    free(dev_x);
    free(fin_x);
    free(ready);
    free(dev_wait);
    free(fin_wait);
    if (st != CUZK_OK)
        bench_engine_report_free(out);
    return st;
}

void bench_engine_report_free(bench_engine_report *r)
{
    free(r->parts);
    free(r->devices);
    memset(r, 0, sizeof(*r));
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double bench_quantile(double *v, size_t n, double q)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof(double), cmp_double);
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

bool bench_overhead_stats_of(const bench_engine_report *r, bool with_admission,
                             bench_overhead_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (!r->count)
        return false;
    double *ms = malloc(r->count * sizeof(double));
    if (!ms)
        return false;
    double sum = 0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_partition_timing *p = &r->parts[i];
        double admission = (double)p->admission_ns / 1e6;
        ms[i] = (double)p->overhead_ns / 1e6 + (with_admission ? admission : 0);
        sum += ms[i];
        out->acquire_ms += (double)p->acquire_ns / 1e6;
        out->prove_handoff_ms += (double)p->prove_handoff_ns / 1e6;
        out->finalize_handoff_ms += (double)p->finalize_handoff_ns / 1e6;
        out->completion_ms += (double)p->completion_ns / 1e6;
        out->admission_ms += admission;
    }
    double n = (double)r->count;
    out->mean_ms = sum / n;
    out->acquire_ms /= n;
    out->prove_handoff_ms /= n;
    out->finalize_handoff_ms /= n;
    out->completion_ms /= n;
    out->admission_ms /= n;
    out->p50_ms = bench_quantile(ms, r->count, 0.5);
    out->p95_ms = bench_quantile(ms, r->count, 0.95);
    out->max_ms = ms[r->count - 1];
    free(ms);
    return true;
}
