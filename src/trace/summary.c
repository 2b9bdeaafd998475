/* The summary's figures: device busy time and idle gaps, counters and
 * dips, per-phase percentiles, throughput and failures. */
#include <stdlib.h>
#include <string.h>

#include "trace/stats.h"
#include "trace/summary.h"
#include "trace/trace_internal.h"

const char *trace_gap_cause_name(trace_gap_cause cause)
{
    switch (cause) {
    case TRACE_GAP_SYNTHESIS:
        return "waiting for synthesis";
    case TRACE_GAP_TRANSFER:
        return "transfer";
    case TRACE_GAP_NO_WORK:
        return "no work queued";
    case TRACE_GAP_CAUSES:
        break;
    }
    return "?";
}

/* The union of the spans of lanes [first, first + count) that pass keep. */
static trace_iv *lane_union(const trace *t, uint32_t first, uint32_t count, uint32_t source,
                            bool (*keep)(const trace_span *), size_t *n_out, size_t *spans_out)
{
    size_t n = 0;
    for (uint32_t l = first; l < first + count; l++)
        if (t->lanes[l].source == source)
            n += t->lanes[l].count;
    trace_iv *v = malloc((n + 1) * sizeof(trace_iv));
    if (!v)
        return NULL;
    size_t m = 0;
    for (uint32_t l = first; l < first + count; l++) {
        const trace_lane *lane = &t->lanes[l];
        if (lane->source != source)
            continue;
        for (uint32_t i = lane->first; i < lane->first + lane->count; i++)
            if (keep(&t->spans[i]))
                v[m++] = (trace_iv){t->spans[i].start_ns, t->spans[i].end_ns};
    }
    if (spans_out)
        *spans_out = m;
    *n_out = trace_iv_union(v, m);
    return v;
}

static bool is_gpu(const trace_span *s)
{
    return s->cat == TRACE_CAT_GPU;
}

static bool is_copy(const trace_span *s)
{
    return s->cat == TRACE_CAT_COPY;
}

static bool is_any(const trace_span *s)
{
    (void)s;
    return true;
}

static void counter_stats(const trace *t, trace_counter_stat *c, const trace_iv *busy, size_t nbusy,
                          double *scratch)
{
    const trace_series *se = &t->series[c->series];
    size_t n = 0;
    double sum = 0;
    c->samples = se->count;
    for (uint32_t i = se->first; i < se->first + se->count; i++)
        if (trace_iv_contains(busy, nbusy, t->samples[i].ts_ns)) {
            scratch[n++] = t->samples[i].value;
            sum += t->samples[i].value;
        }
    c->busy_samples = (uint32_t)n;
    if (!n)
        return;
    c->mean = sum / (double)n;
    c->p5 = trace_percentile(scratch, n, 5.0);
    c->min = scratch[0];
    c->max = scratch[n - 1];
}

static int cmp_span_start(const void *x, const void *y, const trace *t)
{
    const trace_span *a = &t->spans[*(const uint32_t *)x], *b = &t->spans[*(const uint32_t *)y];
    return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

static _Thread_local const trace *sort_trace;

static int cmp_span_start_qsort(const void *x, const void *y)
{
    return cmp_span_start(x, y, sort_trace);
}

/* The device's spans overlapping [a, b] (for an empty dip: the spans
 * running at its instant). by_start: the device's span indices sorted by
 * start; max_dur: the longest of them. */
static cuzk_status dip_overlaps(const trace *t, trace_dip *d, const uint32_t *by_start, size_t n,
                                uint64_t max_dur)
{
    uint64_t from = d->start_ns > max_dur ? d->start_ns - max_dur : 0;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->spans[by_start[mid]].start_ns < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t cap = 0;
    for (size_t i = lo; i < n; i++) {
        const trace_span *s = &t->spans[by_start[i]];
        if (s->start_ns > d->end_ns || (s->start_ns == d->end_ns && d->end_ns > d->start_ns))
            break;
        bool hit = d->end_ns > d->start_ns ? s->end_ns > d->start_ns : s->end_ns >= d->start_ns;
        if (!hit)
            continue;
        if (!trace_grow((void **)&d->overlaps, &cap, d->overlap_count + 1,
                        sizeof(trace_dip_overlap)))
            return CUZK_ERR_OUT_OF_MEMORY;
        uint64_t x = s->start_ns > d->start_ns ? s->start_ns : d->start_ns;
        uint64_t y = s->end_ns < d->end_ns ? s->end_ns : d->end_ns;
        d->overlaps[d->overlap_count++] = (trace_dip_overlap){by_start[i], y > x ? y - x : 0};
    }
    return CUZK_OK;
}

static cuzk_status find_dips(const trace *t, trace_device_summary *ds, uint32_t series,
                             double threshold)
{
    const trace_device *dev = &t->devices[ds->device];
    const trace_series *se = &t->series[series];
    size_t n = 0, cap = 0;
    uint64_t max_dur = 0;
    for (uint32_t l = dev->first_lane; l < dev->first_lane + dev->lane_count; l++)
        n += t->lanes[l].count;
    uint32_t *by_start = malloc((n + 1) * sizeof(uint32_t));
    if (!by_start)
        return CUZK_ERR_OUT_OF_MEMORY;
    n = 0;
    for (uint32_t l = dev->first_lane; l < dev->first_lane + dev->lane_count; l++)
        for (uint32_t i = t->lanes[l].first; i < t->lanes[l].first + t->lanes[l].count; i++) {
            by_start[n++] = i;
            if (t->spans[i].end_ns - t->spans[i].start_ns > max_dur)
                max_dur = t->spans[i].end_ns - t->spans[i].start_ns;
        }
    sort_trace = t;
    trace_qsort(by_start, n, sizeof(uint32_t), cmp_span_start_qsort);
    cuzk_status st = CUZK_OK;
    const trace_sample *smp = t->samples + se->first;
    for (uint32_t i = 0; i < se->count && st == CUZK_OK; i++) {
        if (smp[i].ts_ns < ds->first_ns || smp[i].ts_ns > ds->last_ns ||
            !(smp[i].value < threshold))
            continue;
        trace_dip d = {.series = series, .start_ns = smp[i].ts_ns, .min = smp[i].value};
        double sum = 0;
        uint32_t j = i;
        for (; j < se->count && smp[j].ts_ns <= ds->last_ns && smp[j].value < threshold; j++) {
            sum += smp[j].value;
            if (smp[j].value < d.min)
                d.min = smp[j].value;
        }
        d.samples = j - i;
        d.mean = sum / d.samples;
        d.end_ns = j < se->count ? smp[j].ts_ns : smp[j - 1].ts_ns;
        if (d.end_ns > ds->last_ns)
            d.end_ns = ds->last_ns;
        i = j;
        if (!trace_grow((void **)&ds->dips, &cap, ds->dip_count + 1, sizeof(trace_dip))) {
            st = CUZK_ERR_OUT_OF_MEMORY;
            break;
        }
        ds->dips[ds->dip_count] = d;
        st = dip_overlaps(t, &ds->dips[ds->dip_count], by_start, n, max_dur);
        ds->dip_count++;
    }
    free(by_start);
    return st;
}

static cuzk_status summarize_device(const trace *t, const trace_summary_options *opt,
                                    trace_device_summary *ds, const trace_iv *synth, size_t nsynth,
                                    double *scratch)
{
    const trace_device *dev = &t->devices[ds->device];
    size_t nbusy = 0, ncopy = 0, gaps_cap = 0;
    trace_iv *busy = lane_union(t, dev->first_lane, dev->lane_count, dev->source, is_gpu, &nbusy,
                                &ds->gpu_spans);
    trace_iv *copy = lane_union(t, dev->first_lane, dev->lane_count, dev->source, is_copy, &ncopy,
                                &ds->copy_spans);
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!busy || !copy)
        goto out;
    ds->busy_ns = trace_iv_total(busy, nbusy);
    ds->copy_ns = trace_iv_total(copy, ncopy);
    if (nbusy) {
        ds->first_ns = busy[0].a;
        ds->last_ns = busy[nbusy - 1].b;
        ds->busy_pct = 100.0 * (double)ds->busy_ns / (double)(ds->last_ns - ds->first_ns);
    }
    double min_gap = opt->gap_ms * 1e6;
    for (size_t i = 1; i < nbusy; i++) {
        trace_gap g = {.start_ns = busy[i - 1].b, .end_ns = busy[i].a};
        if (!((double)(g.end_ns - g.start_ns) > min_gap))
            continue;
        g.transfer_ns = trace_iv_covered(copy, ncopy, g.start_ns, g.end_ns);
        g.synthesis_ns = trace_iv_covered(synth, nsynth, g.start_ns, g.end_ns);
        g.cause = g.transfer_ns && g.transfer_ns >= g.synthesis_ns ? TRACE_GAP_TRANSFER
                  : g.synthesis_ns                                 ? TRACE_GAP_SYNTHESIS
                                                                   : TRACE_GAP_NO_WORK;
        if (!trace_grow((void **)&ds->gaps, &gaps_cap, ds->gap_count + 1, sizeof(trace_gap)))
            goto out;
        ds->gaps[ds->gap_count++] = g;
        ds->gap_ns[g.cause] += g.end_ns - g.start_ns;
    }
    ds->counters = calloc(dev->series_count + 1, sizeof(trace_counter_stat));
    if (!ds->counters)
        goto out;
    ds->counter_count = dev->series_count;
    st = CUZK_OK;
    for (uint32_t k = 0; k < dev->series_count && st == CUZK_OK; k++) {
        uint32_t series = dev->first_series + k;
        ds->counters[k].series = series;
        counter_stats(t, &ds->counters[k], busy, nbusy, scratch);
        if (nbusy && opt->dip_counter && !strcmp(t->series[series].name, opt->dip_counter))
            st = find_dips(t, ds, series, opt->dip_threshold);
    }
out:
    free(busy);
    free(copy);
    return st;
}

typedef struct part_rec {
    uint64_t job;
    uint32_t phase, source, partition;
    uint64_t ns;
} part_rec;

static int cmp_rec(const void *x, const void *y)
{
    const part_rec *a = x, *b = y;
    if (a->phase != b->phase)
        return a->phase < b->phase ? -1 : 1;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->job != b->job)
        return a->job < b->job ? -1 : 1;
    return a->partition < b->partition ? -1 : a->partition > b->partition;
}

static cuzk_status phase_stats(const trace *t, trace_summary *s)
{
    part_rec *r = malloc((t->span_count + 1) * sizeof(part_rec));
    double *d = malloc((t->span_count + 1) * sizeof(double));
    s->phases = calloc(t->phase_count + 1, sizeof(trace_phase_stat));
    trace_cat *cat = malloc((t->phase_count + 1) * sizeof(trace_cat));
    if (!r || !d || !s->phases || !cat) {
        free(r);
        free(d);
        free(cat);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (size_t p = 0; p < t->phase_count; p++)
        cat[p] = TRACE_CAT_COUNT;
    for (size_t i = 0; i < t->span_count; i++) {
        const trace_span *sp = &t->spans[i];
        r[i] = (part_rec){sp->job, sp->phase, t->lanes[sp->lane].source, sp->partition,
                          sp->end_ns - sp->start_ns};
        if (cat[sp->phase] == TRACE_CAT_COUNT)
            cat[sp->phase] = sp->cat;
    }
    trace_qsort(r, t->span_count, sizeof(part_rec), cmp_rec);
    for (size_t i = 0; i < t->span_count;) {
        trace_phase_stat *ps = &s->phases[s->phase_count++];
        ps->phase = r[i].phase;
        ps->cat = cat[r[i].phase];
        size_t n = 0;
        double total = 0;
        while (i < t->span_count && r[i].phase == ps->phase) {
            uint64_t ns = 0;
            size_t j = i;
            for (; j < t->span_count && !cmp_rec(&r[i], &r[j]); j++)
                ns += r[j].ns;
            ps->spans += j - i;
            d[n++] = (double)ns / 1e6;
            total += (double)ns / 1e6;
            i = j;
        }
        ps->partitions = n;
        ps->p50_ms = trace_percentile(d, n, 50.0);
        ps->p95_ms = trace_percentile_sorted(d, n, 95.0);
        ps->max_ms = d[n - 1];
        ps->mean_ms = total / (double)n;
        ps->total_s = total / 1e3;
    }
    free(r);
    free(d);
    free(cat);
    return CUZK_OK;
}

static void throughput(const trace *t, trace_summary *s)
{
    bool any_state = false;
    for (size_t i = 0; i < t->job_count; i++)
        any_state |= t->jobs[i].state != TRACE_JOB_NONE;
    s->jobs = t->job_count;
    s->throughput_from_spans = !any_state;
    for (size_t i = 0; i < t->job_count; i++) {
        const trace_job *j = &t->jobs[i];
        uint32_t parts = j->partitions ? j->partitions : j->partitions_seen;
        if (!any_state || j->state == TRACE_JOB_DONE) {
            s->jobs_done++;
            s->partitions_done += any_state ? parts : j->partitions_seen;
        } else if (j->state == TRACE_JOB_FAILED || j->state == TRACE_JOB_CANCELLED) {
            s->failures[s->failure_count++] = (uint32_t)i;
            if (j->state == TRACE_JOB_FAILED)
                s->jobs_failed++;
            else
                s->jobs_cancelled++;
        } else {
            s->jobs_unfinished++;
        }
    }
    /* failures in the order they happened (insertion sort: they are few) */
    for (size_t i = 1; i < s->failure_count; i++) {
        uint32_t f = s->failures[i];
        size_t k = i;
        for (; k > 0 && t->jobs[s->failures[k - 1]].end_ns > t->jobs[f].end_ns; k--)
            s->failures[k] = s->failures[k - 1];
        s->failures[k] = f;
    }
    s->wall_ns = t->t_last - t->t_first;
    if (s->wall_ns) {
        s->jobs_per_hour = (double)s->jobs_done * 3600e9 / (double)s->wall_ns;
        s->partitions_per_hour = (double)s->partitions_done * 3600e9 / (double)s->wall_ns;
    }
}

static cuzk_status lane_stats(const trace *t, trace_summary *s)
{
    s->lanes = calloc(t->lane_count + 1, sizeof(trace_lane_stat));
    if (!s->lanes)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (size_t l = 0; l < t->lane_count; l++) {
        size_t n;
        trace_iv *u = lane_union(t, (uint32_t)l, 1, t->lanes[l].source, is_any, &n, NULL);
        if (!u)
            return CUZK_ERR_OUT_OF_MEMORY;
        s->lanes[l].busy_ns = trace_iv_total(u, n);
        if (s->wall_ns)
            s->lanes[l].busy_pct = 100.0 * (double)s->lanes[l].busy_ns / (double)s->wall_ns;
        free(u);
    }
    return CUZK_OK;
}

/* Synthesis activity (queue waits, synthesize, eval_abc) of one process. */
static trace_iv *synthesis_union(const trace *t, uint32_t source, size_t *n)
{
    return lane_union(t, 0, (uint32_t)t->lane_count, source, trace_is_synthesis, n, NULL);
}

cuzk_status trace_summarize(trace_summary **out, const trace *t, const trace_summary_options *opt)
{
    static const trace_summary_options defaults = {
        TRACE_DEFAULT_GAP_MS, TRACE_DEFAULT_DIP_THRESHOLD, TRACE_DEFAULT_DIP_COUNTER};
    *out = NULL;
    trace_summary *s = calloc(1, sizeof(trace_summary));
    double *scratch = malloc((t->sample_count + 1) * sizeof(double));
    if (!s || !scratch)
        goto oom;
    s->opt = opt ? *opt : defaults;
    s->failures = malloc((t->job_count + 1) * sizeof(uint32_t));
    s->devices = calloc(t->device_count + 1, sizeof(trace_device_summary));
    if (!s->failures || !s->devices)
        goto oom;
    throughput(t, s);
    cuzk_status st = phase_stats(t, s);
    if (st == CUZK_OK)
        st = lane_stats(t, s);
    trace_iv *synth = NULL;
    size_t nsynth = 0;
    uint32_t synth_source = UINT32_MAX;
    for (size_t d = 0; d < t->device_count && st == CUZK_OK; d++) {
        if (t->devices[d].source != synth_source) {
            free(synth);
            synth_source = t->devices[d].source;
            if (!(synth = synthesis_union(t, synth_source, &nsynth))) {
                st = CUZK_ERR_OUT_OF_MEMORY;
                break;
            }
        }
        s->devices[d].device = (uint32_t)d;
        s->device_count = d + 1;
        st = summarize_device(t, &s->opt, &s->devices[d], synth, nsynth, scratch);
    }
    free(synth);
    free(scratch);
    if (st == CUZK_OK)
        st = trace_partition_stats(t, s);
    if (st == CUZK_OK)
        st = trace_synthesis_stats(t, s);
    if (st != CUZK_OK) {
        trace_summary_free(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
oom:
    free(scratch);
    trace_summary_free(s);
    return CUZK_ERR_OUT_OF_MEMORY;
}

void trace_summary_free(trace_summary *s)
{
    if (!s)
        return;
    for (size_t d = 0; d < s->device_count; d++) {
        trace_device_summary *ds = &s->devices[d];
        for (size_t k = 0; k < ds->dip_count; k++)
            free(ds->dips[k].overlaps);
        free(ds->dips);
        free(ds->gaps);
        free(ds->counters);
    }
    free(s->devices);
    free(s->phases);
    free(s->lanes);
    free(s->failures);
    free(s->partitions);
    free(s);
}
