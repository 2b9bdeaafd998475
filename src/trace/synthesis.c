/* The summary's view of the synthesis pool: how long a partition's
 * synthesis took (its witness and a, b, c on the host) and how many
 * partitions the pool synthesized per second. */
#include <stdlib.h>

#include "trace/stats.h"
#include "trace/summary.h"
#include "trace/trace_internal.h"

typedef struct synth_rec {
    uint64_t job, ns;
    uint32_t source, partition;
} synth_rec;

static int cmp_rec(const void *x, const void *y)
{
    const synth_rec *a = x, *b = y;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->job != b->job)
        return a->job < b->job ? -1 : 1;
    return a->partition < b->partition ? -1 : a->partition > b->partition;
}

/* The synthesis pool's work: host spans of the witness and of a, b, c
 * (a, b, c evaluated elsewhere is not the pool's). */
static bool is_pool_work(const trace_span *s)
{
    return s->cat == TRACE_CAT_CPU &&
           (s->phase == TRACE_PHASE_SYNTHESIZE || s->phase == TRACE_PHASE_EVAL_ABC);
}

cuzk_status trace_synthesis_stats(const trace *t, trace_summary *s)
{
    trace_synthesis_stat *out = &s->synthesis;
    synth_rec *r = malloc((t->span_count + 1) * sizeof(synth_rec));
    double *ms = malloc((t->span_count + 1) * sizeof(double));
    bool *lane_seen = calloc(t->lane_count + 1, sizeof(bool));
    if (!r || !ms || !lane_seen) {
        free(r), free(ms), free(lane_seen);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->span_count; i++) {
        const trace_span *sp = &t->spans[i];
        if (!is_pool_work(sp))
            continue;
        r[n++] = (synth_rec){sp->job, sp->end_ns - sp->start_ns, t->lanes[sp->lane].source,
                             sp->partition};
        if (!lane_seen[sp->lane]) {
            lane_seen[sp->lane] = true;
            out->workers++;
        }
    }
    trace_qsort(r, n, sizeof(synth_rec), cmp_rec);
    double total = 0;
    for (size_t i = 0; i < n;) {
        uint64_t ns = 0;
        size_t j = i;
        for (; j < n && !cmp_rec(&r[i], &r[j]); j++)
            ns += r[j].ns;
        ms[out->partitions++] = (double)ns / 1e6;
        total += (double)ns / 1e6;
        i = j;
    }
    if (out->partitions) {
        out->p50_ms = trace_percentile(ms, out->partitions, 50.0);
        out->p90_ms = trace_percentile_sorted(ms, out->partitions, 90.0);
        out->max_ms = ms[out->partitions - 1];
        out->mean_ms = total / (double)out->partitions;
        if (s->wall_ns)
            out->per_s = (double)out->partitions * 1e9 / (double)s->wall_ns;
        if (out->mean_ms > 0)
            out->capacity_per_s = (double)out->workers * 1e3 / out->mean_ms;
    }
    free(r), free(ms), free(lane_seen);
    return CUZK_OK;
}
