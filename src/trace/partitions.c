/* The summary's per-partition view of each device: how long a partition's
 * kernel phases ran there, what the dip counter (sm_util) read while they
 * did, and how many bytes its copies moved each way. */
#include <stdlib.h>
#include <string.h>

#include "trace/stats.h"
#include "trace/summary.h"
#include "trace/trace_internal.h"

static _Thread_local const trace *sort_trace;

/* By job, partition, start. */
static int cmp_job_part_start(const void *x, const void *y)
{
    const trace_span *a = &sort_trace->spans[*(const uint32_t *)x];
    const trace_span *b = &sort_trace->spans[*(const uint32_t *)y];
    if (a->job != b->job)
        return a->job < b->job ? -1 : 1;
    if (a->partition != b->partition)
        return a->partition < b->partition ? -1 : 1;
    return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

static int cmp_first(const void *x, const void *y)
{
    const trace_partition_stat *a = x, *b = y;
    return a->first_ns < b->first_ns ? -1 : a->first_ns > b->first_ns;
}

/* The series of device d named name, or NULL. */
static const trace_series *device_series(const trace *t, const trace_device *dev, const char *name)
{
    for (uint32_t k = 0; name && k < dev->series_count; k++)
        if (!strcmp(t->series[dev->first_series + k].name, name))
            return &t->series[dev->first_series + k];
    return NULL;
}

/* Index of the first sample of se at or after ts. */
static uint32_t first_sample_at(const trace *t, const trace_series *se, uint64_t ts)
{
    uint32_t lo = 0, hi = se->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->samples[se->first + mid].ts_ns < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One partition's spans ix[0, n) on one device. */
static void one_partition(const trace *t, const uint32_t *ix, size_t n, const trace_series *util,
                          trace_iv *iv, double *scratch, trace_partition_stat *ps)
{
    const trace_span *first = &t->spans[ix[0]];
    ps->job = first->job;
    ps->partition = first->partition;
    ps->circuit = first->circuit;
    ps->first_ns = first->start_ns;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const trace_span *sp = &t->spans[ix[i]];
        if (sp->end_ns > ps->last_ns)
            ps->last_ns = sp->end_ns;
        if (sp->cat == TRACE_CAT_GPU) {
            iv[m++] = (trace_iv){sp->start_ns, sp->end_ns};
        } else {
            ps->copies++;
            if (sp->dir == TRACE_DIR_H2D)
                ps->h2d_bytes += sp->bytes;
            else if (sp->dir == TRACE_DIR_D2H)
                ps->d2h_bytes += sp->bytes;
        }
    }
    m = trace_iv_union(iv, m);
    ps->kernel_ns = trace_iv_total(iv, m);
    if (!util)
        return;
    size_t k = 0;
    double sum = 0;
    for (size_t i = 0; i < m; i++)
        for (uint32_t j = first_sample_at(t, util, iv[i].a);
             j < util->count && t->samples[util->first + j].ts_ns < iv[i].b; j++) {
            scratch[k++] = t->samples[util->first + j].value;
            sum += t->samples[util->first + j].value;
        }
    ps->samples = (uint32_t)k;
    if (k) {
        ps->util_mean = sum / (double)k;
        ps->util_p5 = trace_percentile(scratch, k, 5.0);
    }
}

cuzk_status trace_partition_stats(const trace *t, trace_summary *s)
{
    size_t cap = 0;
    uint32_t *ix = malloc((t->span_count + 1) * sizeof(uint32_t));
    trace_iv *iv = malloc((t->span_count + 1) * sizeof(trace_iv));
    double *scratch = malloc((t->sample_count + 1) * sizeof(double));
    cuzk_status st = CUZK_OK;
    if (!ix || !iv || !scratch) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto out;
    }
    for (size_t d = 0; d < t->device_count; d++) {
        const trace_device *dev = &t->devices[d];
        size_t n = 0;
        for (uint32_t l = dev->first_lane; l < dev->first_lane + dev->lane_count; l++)
            for (uint32_t i = t->lanes[l].first; i < t->lanes[l].first + t->lanes[l].count; i++)
                if (t->spans[i].cat == TRACE_CAT_GPU || t->spans[i].cat == TRACE_CAT_COPY)
                    ix[n++] = i;
        sort_trace = t;
        trace_qsort(ix, n, sizeof(uint32_t), cmp_job_part_start);
        const trace_series *util = device_series(t, dev, s->opt.dip_counter);
        size_t device_first = s->partition_count;
        for (size_t i = 0; i < n;) {
            size_t j = i + 1;
            while (j < n && t->spans[ix[j]].job == t->spans[ix[i]].job &&
                   t->spans[ix[j]].partition == t->spans[ix[i]].partition)
                j++;
            if (!trace_grow((void **)&s->partitions, &cap, s->partition_count + 1,
                            sizeof(trace_partition_stat))) {
                st = CUZK_ERR_OUT_OF_MEMORY;
                goto out;
            }
            trace_partition_stat *ps = &s->partitions[s->partition_count++];
            memset(ps, 0, sizeof(*ps));
            ps->device = (uint32_t)d;
            one_partition(t, ix + i, j - i, util, iv, scratch, ps);
            i = j;
        }
        /* A device with counters but no spans adds none (and partitions
         * may still be NULL). */
        if (s->partition_count > device_first)
            trace_qsort(s->partitions + device_first, s->partition_count - device_first,
                        sizeof(trace_partition_stat), cmp_first);
    }
out:
    free(ix);
    free(iv);
    free(scratch);
    return st;
}
