/* Indexing of a freshly read log: lanes ordered and numbered, spans sorted
 * per lane and split into rows, devices and counter series gathered, job
 * lines aggregated per job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

static int cmp_lane(const trace_lane *a, const trace_lane *b)
{
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    /* CPU lanes in pipeline order (synthesis before finalization); a
     * device's lanes by worker name. */
    if (a->device < 0 && a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    int c = trace_natural_cmp(a->worker, b->worker);
    return c ? c : strcmp(a->worker, b->worker);
}

/* qsort takes no context in C11: the arrays being sorted by index are
 * passed through these (one per thread, so concurrent readers are safe). */
static _Thread_local const trace_lane *sort_lanes;
static _Thread_local const trace_series *sort_series;

static int cmp_lane_qsort(const void *x, const void *y)
{
    return cmp_lane(&sort_lanes[*(const uint32_t *)x], &sort_lanes[*(const uint32_t *)y]);
}

static int cmp_series_qsort(const void *x, const void *y)
{
    const trace_series *a = &sort_series[*(const uint32_t *)x];
    const trace_series *b = &sort_series[*(const uint32_t *)y];
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    int c = trace_natural_cmp(a->name, b->name);
    return c ? c : strcmp(a->name, b->name);
}

static int cmp_span(const void *x, const void *y)
{
    const trace_span *a = x, *b = y;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    if (a->start_ns != b->start_ns)
        return a->start_ns < b->start_ns ? -1 : 1;
    /* empty spans first (they block no row), then the longer first, so
     * that an enclosing span takes the lower row */
    bool ea = a->end_ns == a->start_ns, eb = b->end_ns == b->start_ns;
    if (ea != eb)
        return ea ? -1 : 1;
    if (a->end_ns != b->end_ns)
        return a->end_ns > b->end_ns ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_sample(const void *x, const void *y)
{
    const trace_sample *a = x, *b = y;
    if (a->series != b->series)
        return a->series < b->series ? -1 : 1;
    return a->ts_ns < b->ts_ns ? -1 : a->ts_ns > b->ts_ns;
}

static int cmp_job_event(const void *x, const void *y)
{
    const trace_job_event *a = x, *b = y;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_job(const void *x, const void *y)
{
    const trace_job *a = x, *b = y;
    if (a->first_ns != b->first_ns)
        return a->first_ns < b->first_ns ? -1 : 1;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    return a->job < b->job ? -1 : a->job > b->job;
}

/* A binary min-heap of (key, row) pairs. */
typedef struct heap_item {
    uint64_t key;
    uint32_t row;
} heap_item;

static bool item_less(heap_item a, heap_item b)
{
    return a.key < b.key || (a.key == b.key && a.row < b.row);
}

static void heap_push(heap_item *h, size_t *n, heap_item it)
{
    size_t i = (*n)++;
    while (i > 0 && item_less(it, h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = it;
}

static heap_item heap_pop(heap_item *h, size_t *n)
{
    heap_item top = h[0], last = h[--(*n)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && item_less(h[c + 1], h[c]))
            c++;
        if (!item_less(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = last;
    return top;
}

/* First-fit rows: each span takes the lowest row free at its start. */
static cuzk_status assign_rows(trace *t, trace_lane *l)
{
    trace_span *s = t->spans + l->first;
    l->rows = l->count ? 1 : 0;
    bool overlap = false;
    for (uint32_t i = 1; i < l->count && !overlap; i++)
        overlap = s[i].start_ns < s[i - 1].end_ns;
    if (!overlap)
        return CUZK_OK;
    heap_item *busy = malloc(2 * (size_t)l->count * sizeof(heap_item));
    if (!busy)
        return CUZK_ERR_OUT_OF_MEMORY;
    heap_item *idle = busy + l->count;
    size_t nb = 0, ni = 0;
    uint32_t rows = 0;
    for (uint32_t i = 0; i < l->count; i++) {
        while (nb && busy[0].key <= s[i].start_ns) {
            heap_item it = heap_pop(busy, &nb);
            heap_push(idle, &ni, (heap_item){it.row, it.row});
        }
        uint32_t row = ni ? heap_pop(idle, &ni).row : rows++;
        s[i].row = row;
        heap_push(busy, &nb, (heap_item){s[i].end_ns, row});
    }
    l->rows = rows;
    free(busy);
    return CUZK_OK;
}

static cuzk_status index_lanes(trace *t)
{
    size_t n = t->lane_count;
    uint32_t *order = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *rank = malloc((n + 1) * sizeof(uint32_t));
    trace_lane *sorted = malloc((n + 1) * sizeof(trace_lane));
    if (!order || !rank || !sorted) {
        free(order);
        free(rank);
        free(sorted);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        t->lanes[i].stage = UINT32_MAX;
        order[i] = (uint32_t)i;
    }
    for (size_t i = 0; i < t->span_count; i++) {
        trace_lane *l = &t->lanes[t->spans[i].lane];
        if (t->spans[i].phase < l->stage)
            l->stage = t->spans[i].phase;
    }
    sort_lanes = t->lanes;
    trace_qsort(order, n, sizeof(uint32_t), cmp_lane_qsort);
    for (size_t i = 0; i < n; i++) {
        rank[order[i]] = (uint32_t)i;
        sorted[i] = t->lanes[order[i]];
    }
    if (n)
        memcpy(t->lanes, sorted, n * sizeof(trace_lane));
    for (size_t i = 0; i < t->span_count; i++)
        t->spans[i].lane = rank[t->spans[i].lane];
    free(order);
    free(rank);
    free(sorted);
    trace_qsort(t->spans, t->span_count, sizeof(trace_span), cmp_span);
    for (size_t i = 0, j = 0; i < n; i++) {
        trace_lane *l = &t->lanes[i];
        l->first = (uint32_t)j;
        while (j < t->span_count && t->spans[j].lane == i)
            j++;
        l->count = (uint32_t)(j - l->first);
        cuzk_status st = assign_rows(t, l);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status index_series(trace *t)
{
    size_t n = t->series_count;
    uint32_t *order = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *rank = malloc((n + 1) * sizeof(uint32_t));
    trace_series *sorted = malloc((n + 1) * sizeof(trace_series));
    if (!order || !rank || !sorted) {
        free(order);
        free(rank);
        free(sorted);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    sort_series = t->series;
    trace_qsort(order, n, sizeof(uint32_t), cmp_series_qsort);
    for (size_t i = 0; i < n; i++) {
        rank[order[i]] = (uint32_t)i;
        sorted[i] = t->series[order[i]];
    }
    if (n)
        memcpy(t->series, sorted, n * sizeof(trace_series));
    for (size_t i = 0; i < t->sample_count; i++)
        t->samples[i].series = rank[t->samples[i].series];
    free(order);
    free(rank);
    free(sorted);
    trace_qsort(t->samples, t->sample_count, sizeof(trace_sample), cmp_sample);
    for (size_t i = 0, j = 0; i < n; i++) {
        t->series[i].first = (uint32_t)j;
        while (j < t->sample_count && t->samples[j].series == i)
            j++;
        t->series[i].count = (uint32_t)(j - t->series[i].first);
    }
    return CUZK_OK;
}

/* Devices: the (source, device >= 0) pairs of lanes and series, merged. */
static cuzk_status index_devices(trace *t)
{
    t->devices = calloc(t->lane_count + t->series_count + 1, sizeof(trace_device));
    if (!t->devices)
        return CUZK_ERR_OUT_OF_MEMORY;
    size_t i = 0, j = 0, n = 0;
    while (i < t->lane_count || j < t->series_count) {
        const trace_lane *l = i < t->lane_count ? &t->lanes[i] : NULL;
        const trace_series *s = j < t->series_count ? &t->series[j] : NULL;
        if (l && l->device < 0) {
            i++;
            continue;
        }
        if (s && s->device < 0) {
            j++;
            continue;
        }
        uint32_t src;
        int32_t dev;
        if (l &&
            (!s || l->source < s->source || (l->source == s->source && l->device <= s->device))) {
            src = l->source;
            dev = l->device;
        } else {
            src = s->source;
            dev = s->device;
        }
        trace_device *d = &t->devices[n++];
        *d = (trace_device){
            .source = src, .device = dev, .first_lane = (uint32_t)i, .first_series = (uint32_t)j};
        while (i < t->lane_count && t->lanes[i].source == src && t->lanes[i].device == dev)
            i++;
        while (j < t->series_count && t->series[j].source == src && t->series[j].device == dev)
            j++;
        d->lane_count = (uint32_t)i - d->first_lane;
        d->series_count = (uint32_t)j - d->first_series;
    }
    t->device_count = n;
    return CUZK_OK;
}

static int cmp_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1]);
}

static void extend(trace_job *j, bool *has_extent, uint64_t a, uint64_t b)
{
    if (!*has_extent) {
        j->first_ns = a;
        j->last_ns = b;
        *has_extent = true;
        return;
    }
    if (a < j->first_ns)
        j->first_ns = a;
    if (b > j->last_ns)
        j->last_ns = b;
}

static cuzk_status index_jobs(trace *t)
{
    trace_qsort(t->job_events, t->job_event_count, sizeof(trace_job_event), cmp_job_event);
    size_t cap = t->job_event_count + t->span_count + 1;
    trace_map map = {0};
    t->jobs = calloc(cap, sizeof(trace_job));
    uint64_t *pairs = malloc((t->span_count + 1) * 2 * sizeof(uint64_t));
    bool *seen = calloc(cap, sizeof(bool)); /* the job has an extent yet */
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!t->jobs || !pairs || !seen)
        goto out;
    const char *empty = strtab_intern(t->strings, "", 0);
    if (!empty)
        goto out;
    for (size_t i = 0; i < t->job_event_count + t->span_count; i++) {
        bool is_event = i < t->job_event_count;
        const trace_job_event *e = is_event ? &t->job_events[i] : NULL;
        const trace_span *s = is_event ? NULL : &t->spans[i - t->job_event_count];
        uint32_t source = is_event ? e->source : t->lanes[s->lane].source, k;
        bool added;
        if (!trace_map_get_or_add(&map, source, is_event ? e->job : s->job, 0,
                                  (uint32_t)t->job_count, &k, &added))
            goto out;
        trace_job *j = &t->jobs[k];
        if (added) {
            *j = (trace_job){.job = is_event ? e->job : s->job,
                             .source = source,
                             .state = TRACE_JOB_NONE,
                             .circuit = empty,
                             .priority = empty,
                             .message = empty};
            t->job_count++;
        }
        if (is_event) {
            extend(j, &seen[k], e->ts_ns, e->ts_ns);
            j->state = e->state;
            if (*e->circuit)
                j->circuit = e->circuit;
            if (*e->priority)
                j->priority = e->priority;
            if (*e->message)
                j->message = e->message;
            if (e->partitions)
                j->partitions = e->partitions;
            if (e->state == TRACE_JOB_QUEUED && !j->queued_ns)
                j->queued_ns = e->ts_ns;
            if (e->state == TRACE_JOB_DONE || e->state == TRACE_JOB_FAILED ||
                e->state == TRACE_JOB_CANCELLED)
                j->end_ns = e->ts_ns;
        } else {
            extend(j, &seen[k], s->start_ns, s->end_ns);
            j->spans++;
            if (!*j->circuit)
                j->circuit = s->circuit;
            pairs[2 * (i - t->job_event_count)] = k;
            pairs[2 * (i - t->job_event_count) + 1] = s->partition;
        }
    }
    trace_qsort(pairs, t->span_count, 2 * sizeof(uint64_t), cmp_pair);
    for (size_t i = 0; i < t->span_count; i++)
        if (i == 0 || pairs[2 * i] != pairs[2 * i - 2] || pairs[2 * i + 1] != pairs[2 * i - 1])
            t->jobs[pairs[2 * i]].partitions_seen++;
    trace_qsort(t->jobs, t->job_count, sizeof(trace_job), cmp_job);
    st = CUZK_OK;
out:
    trace_map_free(&map);
    free(pairs);
    free(seen);
    return st;
}

static void index_extent(trace *t)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < t->span_count; i++) {
        if (t->spans[i].start_ns < lo)
            lo = t->spans[i].start_ns;
        if (t->spans[i].end_ns > hi)
            hi = t->spans[i].end_ns;
    }
    for (size_t i = 0; i < t->job_event_count; i++) {
        if (t->job_events[i].ts_ns < lo)
            lo = t->job_events[i].ts_ns;
        if (t->job_events[i].ts_ns > hi)
            hi = t->job_events[i].ts_ns;
    }
    t->has_extent = lo <= hi;
    t->t_first = t->has_extent ? lo : 0;
    t->t_last = t->has_extent ? hi : 0;
    for (size_t i = 0; i < t->sample_count; i++)
        if (t->samples[i].ts_ns < lo)
            lo = t->samples[i].ts_ns;
    t->t_base = lo == UINT64_MAX ? 0 : lo;
}

cuzk_status trace_index(trace *t)
{
    cuzk_status st = index_lanes(t);
    if (st == CUZK_OK)
        st = index_series(t);
    if (st == CUZK_OK)
        st = index_devices(t);
    if (st == CUZK_OK)
        st = index_jobs(t);
    if (st == CUZK_OK)
        index_extent(t);
    return st;
}

void trace_device_label(const trace *t, uint32_t source, int32_t device, char *buf, size_t n)
{
    char dev[24];
    if (device < 0)
        snprintf(dev, sizeof dev, "cpu");
    else
        snprintf(dev, sizeof dev, "gpu%d", (int)device);
    if (t->source_count > 1 && source < t->source_count)
        snprintf(buf, n, "%s:%lld/%s", t->sources[source].host, (long long)t->sources[source].pid,
                 dev);
    else
        snprintf(buf, n, "%s", dev);
}

long trace_device_find(const trace *t, uint32_t source, int32_t device)
{
    for (size_t i = 0; i < t->device_count; i++)
        if (t->devices[i].source == source && t->devices[i].device == device)
            return (long)i;
    return -1;
}
