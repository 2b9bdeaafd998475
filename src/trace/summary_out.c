/* The summary as a text report and as JSON. Times are seconds from the
 * log's earliest event (t_base); durations are milliseconds. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "trace/summary.h"
#include "trace/trace_internal.h"

#define TEXT_MAX_GAPS 20
#define TEXT_MAX_DIPS 10
#define TEXT_MAX_OVERLAPS 8
#define TEXT_MAX_PARTITIONS 20

static double at_s(const trace *t, uint64_t ns)
{
    return (double)(ns - t->t_base) / 1e9;
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

static void print_header(FILE *out, const trace *t, const trace_summary *s)
{
    fprintf(out, "log: %zu lines, %zu spans, %zu job lines, %zu counter samples", t->lines,
            t->span_count, t->job_event_count, t->sample_count);
    if (t->malformed)
        fprintf(out, "; %zu malformed lines skipped", t->malformed);
    if (t->ignored)
        fprintf(out, "; %zu lines of unknown type ignored", t->ignored);
    fputc('\n', out);
    if (t->telemetry_seen && t->telemetry_on)
        fprintf(out, "device telemetry: on (%s)\n", t->telemetry_source);
    else if (t->telemetry_seen)
        fprintf(out, "device telemetry: off: %s\n", t->telemetry_reason);
    for (size_t i = 0; i < t->source_count; i++)
        if (t->sources[i].has_meta)
            fprintf(out, "process: %s (pid %lld), cuzk %s\n", t->sources[i].host,
                    (long long)t->sources[i].pid, t->sources[i].version);
    if (!t->has_extent) {
        fprintf(out, "the log has no spans and no job lines\n");
        return;
    }
    fprintf(out, "wall time: %.3f s (first to last span or job line)\n", (double)s->wall_ns / 1e9);
    fprintf(out, "jobs: %zu", s->jobs);
    if (s->throughput_from_spans)
        fprintf(out, " (no job lines: every job seen in spans counts as done)");
    else
        fprintf(out, " (%zu done, %zu failed, %zu cancelled, %zu unfinished)", s->jobs_done,
                s->jobs_failed, s->jobs_cancelled, s->jobs_unfinished);
    fprintf(out, "; %llu partitions done\n", (unsigned long long)s->partitions_done);
    fprintf(out, "throughput: %.1f partitions/h, %.1f jobs/h\n", s->partitions_per_hour,
            s->jobs_per_hour);
    if (s->failure_count) {
        fprintf(out, "failed and cancelled jobs:\n");
        for (size_t i = 0; i < s->failure_count; i++) {
            const trace_job *j = &t->jobs[s->failures[i]];
            fprintf(out, "  job %llu (%s) %s at %.3f s: %s\n", (unsigned long long)j->job,
                    *j->circuit ? j->circuit : "?", trace_job_state_name(j->state),
                    at_s(t, j->end_ns ? j->end_ns : j->last_ns),
                    *j->message ? j->message : "(no message)");
        }
    }
}

/* A byte count for people: "144 B", "123.5 kB", "3.1 MB", "2.15 GB". */
static const char *human_bytes(uint64_t b, char *buf, size_t n)
{
    if (b < 1000)
        snprintf(buf, n, "%llu B", (unsigned long long)b);
    else if (b < 1000000)
        snprintf(buf, n, "%.1f kB", (double)b / 1e3);
    else if (b < 1000000000)
        snprintf(buf, n, "%.1f MB", (double)b / 1e6);
    else
        snprintf(buf, n, "%.2f GB", (double)b / 1e9);
    return buf;
}

/* "; h2d a,b,c, 3.1 MB on stream 0" */
static void print_copy(FILE *out, const trace_span *sp)
{
    char b[32];
    fputc(';', out);
    if (sp->dir != TRACE_DIR_NONE)
        fprintf(out, " %s", trace_dir_name(sp->dir));
    if (*sp->what)
        fprintf(out, " %s", sp->what);
    fprintf(out, ", %s", human_bytes(sp->bytes, b, sizeof b));
    if (sp->stream >= 0)
        fprintf(out, " on stream %d", (int)sp->stream);
}

static void print_partitions(FILE *out, const trace *t, const trace_summary *s, uint32_t device)
{
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < s->partition_count; i++) {
        const trace_partition_stat *p = &s->partitions[i];
        if (p->device != device)
            continue;
        if (!total++)
            fprintf(out,
                    "  partitions: kernel time, %s while in kernel phases, bytes copied\n"
                    "    %8s %5s %12s %8s %8s %8s %12s %12s\n",
                    s->opt.dip_counter ? s->opt.dip_counter : "-", "job", "part", "kernel ms",
                    "samples", "mean", "p5", "h2d", "d2h");
        if (shown >= TEXT_MAX_PARTITIONS)
            continue;
        shown++;
        char up[32], down[32];
        fprintf(out, "    %8llu %5u %12.3f %8u %8.4g %8.4g %12s %12s\n", (unsigned long long)p->job,
                p->partition, ms(p->kernel_ns), p->samples, p->util_mean, p->util_p5,
                human_bytes(p->h2d_bytes, up, sizeof up),
                human_bytes(p->d2h_bytes, down, sizeof down));
    }
    (void)t;
    if (total > shown)
        fprintf(out, "    ... and %zu more (--json-summary lists every partition)\n",
                total - shown);
}

static void print_dip(FILE *out, const trace *t, const trace_dip *d)
{
    fprintf(out,
            "    at %.3f s for %.3f ms, min %.4g, mean %.4g (%u samples):", at_s(t, d->start_ns),
            ms(d->end_ns - d->start_ns), d->min, d->mean, d->samples);
    if (!d->overlap_count) {
        fprintf(out, " no span on the device\n");
        return;
    }
    fputc('\n', out);
    for (uint32_t k = 0; k < d->overlap_count && k < TEXT_MAX_OVERLAPS; k++) {
        const trace_span *sp = &t->spans[d->overlaps[k].span];
        fprintf(out, "      %s (%s) job %llu partition %u on %s: %.3f ms of it",
                t->phase_names[sp->phase], trace_cat_name(sp->cat), (unsigned long long)sp->job,
                sp->partition, t->lanes[sp->lane].worker, ms(d->overlaps[k].overlap_ns));
        if (sp->cat == TRACE_CAT_COPY)
            print_copy(out, sp);
        fputc('\n', out);
    }
    if (d->overlap_count > TEXT_MAX_OVERLAPS)
        fprintf(out, "      ... and %u more\n", d->overlap_count - TEXT_MAX_OVERLAPS);
}

static void print_device(FILE *out, const trace *t, const trace_summary *s,
                         const trace_device_summary *ds)
{
    const trace_device *dev = &t->devices[ds->device];
    char label[96];
    trace_device_label(t, dev->source, dev->device, label, sizeof label);
    fprintf(out, "\n%s: ", label);
    if (!ds->gpu_spans)
        fprintf(out, "no gpu spans");
    else
        fprintf(out, "busy %.1f %% of %.3f s (first to last gpu span), %zu gpu spans", ds->busy_pct,
                (double)(ds->last_ns - ds->first_ns) / 1e9, ds->gpu_spans);
    fprintf(out, ", %zu copy spans (%.3f s)\n", ds->copy_spans, (double)ds->copy_ns / 1e9);
    uint64_t total = 0;
    for (int c = 0; c < TRACE_GAP_CAUSES; c++)
        total += ds->gap_ns[c];
    fprintf(out, "  idle gaps over %g ms: %zu", s->opt.gap_ms, ds->gap_count);
    if (ds->gap_count) {
        fprintf(out, ", %.3f ms in all:", ms(total));
        for (int c = 0; c < TRACE_GAP_CAUSES; c++)
            fprintf(out, "%s %s %.3f ms", c ? "," : "", trace_gap_cause_name((trace_gap_cause)c),
                    ms(ds->gap_ns[c]));
    }
    fputc('\n', out);
    for (size_t i = 0; i < ds->gap_count && i < TEXT_MAX_GAPS; i++) {
        const trace_gap *g = &ds->gaps[i];
        fprintf(out, "    at %10.3f s %10.3f ms  %-22s (synthesis %.3f ms, transfer %.3f ms)\n",
                at_s(t, g->start_ns), ms(g->end_ns - g->start_ns), trace_gap_cause_name(g->cause),
                ms(g->synthesis_ns), ms(g->transfer_ns));
    }
    if (ds->gap_count > TEXT_MAX_GAPS)
        fprintf(out, "    ... and %zu more (--json-summary lists every gap)\n",
                ds->gap_count - TEXT_MAX_GAPS);
    if (ds->counter_count) {
        fprintf(out, "  %-22s %15s %10s %10s %10s %10s\n", "counters while busy", "busy/all",
                "mean", "p5", "min", "max");
        for (size_t k = 0; k < ds->counter_count; k++) {
            const trace_counter_stat *c = &ds->counters[k];
            fprintf(out, "    %-20s %7u/%-7u %10.4g %10.4g %10.4g %10.4g\n",
                    t->series[c->series].name, c->busy_samples, c->samples, c->mean, c->p5, c->min,
                    c->max);
        }
    }
    if (ds->dip_count || (s->opt.dip_counter && ds->counter_count)) {
        bool has = false;
        for (size_t k = 0; k < ds->counter_count; k++)
            has |= !strcmp(t->series[ds->counters[k].series].name, s->opt.dip_counter);
        if (has)
            fprintf(out, "  %s dips below %g: %zu\n", s->opt.dip_counter, s->opt.dip_threshold,
                    ds->dip_count);
    }
    for (size_t k = 0; k < ds->dip_count && k < TEXT_MAX_DIPS; k++)
        print_dip(out, t, &ds->dips[k]);
    if (ds->dip_count > TEXT_MAX_DIPS)
        fprintf(out, "    ... and %zu more (--json-summary lists every dip)\n",
                ds->dip_count - TEXT_MAX_DIPS);
    print_partitions(out, t, s, ds->device);
}

void trace_summary_print(FILE *out, const trace *t, const trace_summary *s)
{
    print_header(out, t, s);
    for (size_t d = 0; d < s->device_count; d++)
        print_device(out, t, s, &s->devices[d]);
    if (s->phase_count) {
        fprintf(out, "\nphases (time per partition)\n");
        fprintf(out, "  %-12s %-5s %10s %10s %10s %10s %10s\n", "phase", "cat", "partitions",
                "p50 ms", "p95 ms", "max ms", "total s");
        for (size_t i = 0; i < s->phase_count; i++) {
            const trace_phase_stat *p = &s->phases[i];
            fprintf(out, "  %-12s %-5s %10zu %10.3f %10.3f %10.3f %10.3f\n",
                    t->phase_names[p->phase], trace_cat_name(p->cat), p->partitions, p->p50_ms,
                    p->p95_ms, p->max_ms, p->total_s);
        }
    }
    const trace_synthesis_stat *sy = &s->synthesis;
    if (sy->partitions) {
        fprintf(out,
                "\nsynthesis pool: %zu partitions on %zu worker%s; latency per partition p50 %.3f "
                "ms, p90 %.3f ms, max %.3f ms; %.3f partitions/s over the wall time (%.3f/s with "
                "every worker busy)\n",
                sy->partitions, sy->workers, sy->workers == 1 ? "" : "s", sy->p50_ms, sy->p90_ms,
                sy->max_ms, sy->per_s, sy->capacity_per_s);
    }
    if (t->lane_count) {
        fprintf(out, "\nworkers (busy %% of the wall time)\n");
        for (size_t l = 0; l < t->lane_count; l++) {
            const trace_lane *lane = &t->lanes[l];
            char label[96];
            trace_device_label(t, lane->source, lane->device, label, sizeof label);
            fprintf(out, "  %-8s %-16s %6.1f %%  %u spans\n", label, lane->worker,
                    s->lanes[l].busy_pct, lane->count);
        }
    }
}

/* JSON: numbers that are not finite become null. */
static json_t *jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jint(uint64_t x)
{
    return json_integer((json_int_t)(x > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : x));
}

static void set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v ? v : json_null());
}

static json_t *json_device(const trace *t, const trace_summary *s, const trace_device_summary *ds)
{
    const trace_device *dev = &t->devices[ds->device];
    char label[96];
    trace_device_label(t, dev->source, dev->device, label, sizeof label);
    json_t *o = json_object();
    set(o, "device", json_string(label));
    set(o, "id", json_integer(dev->device));
    set(o, "gpu_spans", jint(ds->gpu_spans));
    set(o, "copy_spans", jint(ds->copy_spans));
    set(o, "first_s", ds->gpu_spans ? jreal(at_s(t, ds->first_ns)) : json_null());
    set(o, "last_s", ds->gpu_spans ? jreal(at_s(t, ds->last_ns)) : json_null());
    set(o, "active_s", jreal((double)(ds->last_ns - ds->first_ns) / 1e9));
    set(o, "busy_s", jreal((double)ds->busy_ns / 1e9));
    set(o, "busy_pct", jreal(ds->busy_pct));
    set(o, "copy_s", jreal((double)ds->copy_ns / 1e9));
    json_t *by = json_object(), *gaps = json_array();
    for (int c = 0; c < TRACE_GAP_CAUSES; c++)
        set(by, trace_gap_cause_name((trace_gap_cause)c), jreal(ms(ds->gap_ns[c])));
    for (size_t i = 0; i < ds->gap_count; i++) {
        const trace_gap *g = &ds->gaps[i];
        json_t *j = json_object();
        set(j, "start_s", jreal(at_s(t, g->start_ns)));
        set(j, "duration_ms", jreal(ms(g->end_ns - g->start_ns)));
        set(j, "cause", json_string(trace_gap_cause_name(g->cause)));
        set(j, "synthesis_ms", jreal(ms(g->synthesis_ns)));
        set(j, "transfer_ms", jreal(ms(g->transfer_ns)));
        json_array_append_new(gaps, j);
    }
    json_t *g = json_object();
    set(g, "over_ms", jreal(s->opt.gap_ms));
    set(g, "count", jint(ds->gap_count));
    set(g, "by_cause_ms", by);
    set(g, "list", gaps);
    set(o, "gaps", g);
    json_t *counters = json_array();
    for (size_t k = 0; k < ds->counter_count; k++) {
        const trace_counter_stat *c = &ds->counters[k];
        json_t *j = json_object();
        set(j, "name", json_string(t->series[c->series].name));
        set(j, "samples", jint(c->samples));
        set(j, "busy_samples", jint(c->busy_samples));
        set(j, "mean", jreal(c->mean));
        set(j, "p5", jreal(c->p5));
        set(j, "min", jreal(c->min));
        set(j, "max", jreal(c->max));
        json_array_append_new(counters, j);
    }
    set(o, "counters_while_busy", counters);
    json_t *dips = json_array();
    for (size_t k = 0; k < ds->dip_count; k++) {
        const trace_dip *d = &ds->dips[k];
        json_t *j = json_object(), *ov = json_array();
        set(j, "counter", json_string(t->series[d->series].name));
        set(j, "start_s", jreal(at_s(t, d->start_ns)));
        set(j, "duration_ms", jreal(ms(d->end_ns - d->start_ns)));
        set(j, "min", jreal(d->min));
        set(j, "mean", jreal(d->mean));
        set(j, "samples", jint(d->samples));
        for (uint32_t i = 0; i < d->overlap_count; i++) {
            const trace_span *sp = &t->spans[d->overlaps[i].span];
            json_t *x = json_object();
            set(x, "phase", json_string(t->phase_names[sp->phase]));
            set(x, "cat", json_string(trace_cat_name(sp->cat)));
            set(x, "job", jint(sp->job));
            set(x, "partition", jint(sp->partition));
            set(x, "worker", json_string(t->lanes[sp->lane].worker));
            set(x, "start_s", jreal(at_s(t, sp->start_ns)));
            set(x, "overlap_ms", jreal(ms(d->overlaps[i].overlap_ns)));
            if (sp->cat == TRACE_CAT_COPY) {
                set(x, "dir", json_string(trace_dir_name(sp->dir)));
                set(x, "what", json_string(sp->what));
                set(x, "stream", json_integer(sp->stream));
                set(x, "bytes", jint(sp->bytes));
            }
            json_array_append_new(ov, x);
        }
        set(j, "overlaps", ov);
        json_array_append_new(dips, j);
    }
    set(o, "dips", dips);
    json_t *parts = json_array();
    for (size_t i = 0; i < s->partition_count; i++) {
        const trace_partition_stat *p = &s->partitions[i];
        if (p->device != ds->device)
            continue;
        json_t *x = json_object();
        set(x, "job", jint(p->job));
        set(x, "partition", jint(p->partition));
        set(x, "circuit", json_string(p->circuit));
        set(x, "start_s", jreal(at_s(t, p->first_ns)));
        set(x, "end_s", jreal(at_s(t, p->last_ns)));
        set(x, "kernel_ms", jreal(ms(p->kernel_ns)));
        set(x, "samples", jint(p->samples));
        set(x, "util_mean", p->samples ? jreal(p->util_mean) : json_null());
        set(x, "util_p5", p->samples ? jreal(p->util_p5) : json_null());
        set(x, "copies", jint(p->copies));
        set(x, "h2d_bytes", jint(p->h2d_bytes));
        set(x, "d2h_bytes", jint(p->d2h_bytes));
        json_array_append_new(parts, x);
    }
    set(o, "partitions", parts);
    return o;
}

static json_t *json_jobs(const trace *t, const trace_summary *s)
{
    json_t *o = json_object(), *list = json_array();
    set(o, "total", jint(s->jobs));
    set(o, "done", jint(s->jobs_done));
    set(o, "failed", jint(s->jobs_failed));
    set(o, "cancelled", jint(s->jobs_cancelled));
    set(o, "unfinished", jint(s->jobs_unfinished));
    set(o, "partitions_done", jint(s->partitions_done));
    set(o, "inferred_from_spans", json_boolean(s->throughput_from_spans));
    set(o, "jobs_per_hour", jreal(s->jobs_per_hour));
    set(o, "partitions_per_hour", jreal(s->partitions_per_hour));
    for (size_t i = 0; i < s->failure_count; i++) {
        const trace_job *j = &t->jobs[s->failures[i]];
        json_t *x = json_object();
        set(x, "job", jint(j->job));
        set(x, "circuit", json_string(j->circuit));
        set(x, "state", json_string(trace_job_state_name(j->state)));
        set(x, "at_s", jreal(at_s(t, j->end_ns ? j->end_ns : j->last_ns)));
        set(x, "message", json_string(j->message));
        json_array_append_new(list, x);
    }
    set(o, "failures", list);
    return o;
}

cuzk_status trace_summary_write_json(FILE *out, const trace *t, const trace_summary *s)
{
    json_t *root = json_object(), *log = json_object(), *procs = json_array();
    json_t *opts = json_object(), *devices = json_array(), *phases = json_array();
    json_t *workers = json_array();
    set(log, "lines", jint(t->lines));
    set(log, "spans", jint(t->span_count));
    set(log, "job_lines", jint(t->job_event_count));
    set(log, "counter_samples", jint(t->sample_count));
    set(log, "malformed", jint(t->malformed));
    set(log, "ignored", jint(t->ignored));
    for (size_t i = 0; i < t->source_count; i++) {
        json_t *p = json_object();
        set(p, "host", json_string(t->sources[i].host));
        set(p, "pid", json_integer(t->sources[i].pid));
        set(p, "version", json_string(t->sources[i].version));
        json_array_append_new(procs, p);
    }
    set(log, "processes", procs);
    set(log, "t_base_ns", jint(t->t_base));
    if (t->telemetry_seen) {
        json_t *tel = json_object();
        set(tel, "on", json_boolean(t->telemetry_on));
        set(tel, "source", json_string(t->telemetry_source));
        set(tel, "reason", json_string(t->telemetry_reason));
        set(log, "telemetry", tel);
    }
    set(root, "log", log);
    set(opts, "gap_ms", jreal(s->opt.gap_ms));
    set(opts, "dip_threshold", jreal(s->opt.dip_threshold));
    set(opts, "dip_counter", json_string(s->opt.dip_counter ? s->opt.dip_counter : ""));
    set(root, "options", opts);
    set(root, "wall_s", jreal((double)s->wall_ns / 1e9));
    set(root, "jobs", json_jobs(t, s));
    for (size_t d = 0; d < s->device_count; d++)
        json_array_append_new(devices, json_device(t, s, &s->devices[d]));
    set(root, "devices", devices);
    for (size_t i = 0; i < s->phase_count; i++) {
        const trace_phase_stat *p = &s->phases[i];
        json_t *x = json_object();
        set(x, "phase", json_string(t->phase_names[p->phase]));
        set(x, "cat", json_string(trace_cat_name(p->cat)));
        set(x, "spans", jint(p->spans));
        set(x, "partitions", jint(p->partitions));
        set(x, "p50_ms", jreal(p->p50_ms));
        set(x, "p95_ms", jreal(p->p95_ms));
        set(x, "max_ms", jreal(p->max_ms));
        set(x, "mean_ms", jreal(p->mean_ms));
        set(x, "total_s", jreal(p->total_s));
        json_array_append_new(phases, x);
    }
    set(root, "phases", phases);
    json_t *sy = json_object();
    set(sy, "partitions", jint(s->synthesis.partitions));
    set(sy, "workers", jint(s->synthesis.workers));
    set(sy, "p50_ms", jreal(s->synthesis.p50_ms));
    set(sy, "p90_ms", jreal(s->synthesis.p90_ms));
    set(sy, "max_ms", jreal(s->synthesis.max_ms));
    set(sy, "mean_ms", jreal(s->synthesis.mean_ms));
    set(sy, "partitions_per_s", jreal(s->synthesis.per_s));
    set(sy, "capacity_per_s", jreal(s->synthesis.capacity_per_s));
    set(root, "synthesis", sy);
    for (size_t l = 0; l < t->lane_count; l++) {
        char label[96];
        trace_device_label(t, t->lanes[l].source, t->lanes[l].device, label, sizeof label);
        json_t *x = json_object();
        set(x, "worker", json_string(t->lanes[l].worker));
        set(x, "device", json_string(label));
        set(x, "spans", jint(t->lanes[l].count));
        set(x, "busy_s", jreal((double)s->lanes[l].busy_ns / 1e9));
        set(x, "busy_pct", jreal(s->lanes[l].busy_pct));
        json_array_append_new(workers, x);
    }
    set(root, "workers", workers);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
    json_decref(root);
    if (rc || fputc('\n', out) == EOF || ferror(out))
        return CUZK_ERR_IO;
    return CUZK_OK;
}
