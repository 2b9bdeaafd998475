/* Chrome trace-event JSON, the format ui.perfetto.dev and chrome://tracing
 * load ("JSON Object Format": {"traceEvents": [...]}; "X" complete events,
 * "C" counters, "i" instants, "b"/"e" async slices, "M" names). Written
 * directly, not through a JSON tree: a log of 10^5 spans gives tens of MB.
 *
 * Each process of the log is one trace process (its jobs and CPU stages),
 * and each of its devices one more, sorted after it, holding the device's
 * worker lanes and its counter tracks: counters belong to a process in
 * this format, so that is how a device's utilization, power and PCIe
 * curves come to sit with its lanes. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "trace/export.h"
#include "trace/trace_internal.h"

#define TID_JOBS 1
#define TID_FIRST_LANE 10

typedef struct writer {
    FILE *out;
    const trace *t;
    bool first;
} writer;

static void begin(writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->out);
    w->first = false;
}

/* Microseconds from t_base, exact to the nanosecond. */
static void put_us(FILE *out, uint64_t ns)
{
    fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* Process ids: the log's pid when it is unique among the log's processes,
 * otherwise a made-up one. */
static int64_t pid_of(const trace *t, uint32_t source)
{
    const trace_source *s = &t->sources[source];
    bool unique = s->has_meta && s->pid > 0 && s->pid < INT32_MAX;
    for (size_t i = 0; i < t->source_count && unique; i++)
        unique = i == source || t->sources[i].pid != s->pid;
    return unique ? s->pid : 1000000 + (int64_t)source;
}

/* The trace process of a device of the log's process source. */
static int64_t device_pid(const trace *t, uint32_t source, int32_t device)
{
    (void)t;
    return 2000000 + (int64_t)source * 1000 + (device < 999 ? device : 999);
}

static int64_t lane_pid(const trace *t, const trace_lane *lane)
{
    return lane->device >= 0 ? device_pid(t, lane->source, lane->device)
                             : pid_of(t, lane->source);
}

static void meta(writer *w, const char *what, int64_t pid, long tid, const char *key,
                 const char *str, long num)
{
    begin(w);
    fprintf(w->out,
            "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%ld,\"args\":{\"%s\":", what,
            pid, tid, key);
    if (str)
        trace_put_json_str(w->out, str);
    else
        fprintf(w->out, "%ld", num);
    fputs("}}", w->out);
}

static void names(writer *w, uint32_t source, const long *tid_of_lane)
{
    const trace *t = w->t;
    const trace_source *s = &t->sources[source];
    int64_t pid = pid_of(t, source);
    char buf[256];
    if (s->has_meta)
        snprintf(buf, sizeof buf, "cuzk %s on %s (pid %lld)", s->version, s->host,
                 (long long)s->pid);
    else
        snprintf(buf, sizeof buf, "cuzk");
    meta(w, "process_name", pid, 0, "name", buf, 0);
    meta(w, "process_sort_index", pid, 0, "sort_index", NULL, (long)source * 1000);
    for (size_t d = 0; d < t->device_count; d++) {
        const trace_device *dv = &t->devices[d];
        if (dv->source != source || dv->device < 0)
            continue;
        char dev[96];
        trace_device_label(t, source, dv->device, dev, sizeof dev);
        if (s->has_meta)
            snprintf(buf, sizeof buf, "%s (cuzk pid %lld)", dev, (long long)s->pid);
        else
            snprintf(buf, sizeof buf, "%s", dev);
        int64_t dpid = device_pid(t, source, dv->device);
        meta(w, "process_name", dpid, 0, "name", buf, 0);
        meta(w, "process_sort_index", dpid, 0, "sort_index", NULL,
             (long)source * 1000 + 1 + (dv->device < 998 ? dv->device : 998));
    }
    meta(w, "thread_name", pid, TID_JOBS, "name", "jobs", 0);
    meta(w, "thread_sort_index", pid, TID_JOBS, "sort_index", NULL, TID_JOBS);
    for (size_t l = 0; l < t->lane_count; l++) {
        const trace_lane *lane = &t->lanes[l];
        if (lane->source != source)
            continue;
        char dev[96];
        trace_device_label(t, source, lane->device, dev, sizeof dev);
        for (uint32_t r = 0; r < lane->rows; r++) {
            if (r)
                snprintf(buf, sizeof buf, "%s %s #%u", dev, lane->worker, r + 1);
            else
                snprintf(buf, sizeof buf, "%s %s", dev, lane->worker);
            meta(w, "thread_name", lane_pid(t, lane), tid_of_lane[l] + r, "name", buf, 0);
            meta(w, "thread_sort_index", lane_pid(t, lane), tid_of_lane[l] + r, "sort_index",
                 NULL, tid_of_lane[l] + r);
        }
    }
}

static void span(writer *w, const trace_span *s, int64_t pid, long tid)
{
    const trace *t = w->t;
    FILE *out = w->out;
    begin(w);
    fputs("{\"ph\":\"X\",\"name\":", out);
    trace_put_json_str(out, t->phase_names[s->phase]);
    fprintf(out, ",\"cat\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%ld,\"ts\":", trace_cat_name(s->cat),
            pid, tid);
    put_us(out, s->start_ns - t->t_base);
    fputs(",\"dur\":", out);
    put_us(out, s->end_ns - s->start_ns);
    fprintf(out, ",\"args\":{\"job\":%" PRIu64 ",\"partition\":%u,\"circuit\":", s->job,
            s->partition);
    trace_put_json_str(out, s->circuit);
    fprintf(out, ",\"bytes\":%" PRIu64 ",\"device\":%d", s->bytes, (int)t->lanes[s->lane].device);
    if (s->cat == TRACE_CAT_COPY) {
        fprintf(out, ",\"dir\":\"%s\",\"stream\":%d,\"what\":", trace_dir_name(s->dir),
                (int)s->stream);
        trace_put_json_str(out, s->what);
    }
    fputs("}}", out);
}

static void counters(writer *w)
{
    const trace *t = w->t;
    for (size_t k = 0; k < t->series_count; k++) {
        const trace_series *se = &t->series[k];
        char name[256];
        if (se->device < 0)
            snprintf(name, sizeof name, "cpu %s", se->name);
        else
            snprintf(name, sizeof name, "gpu%d %s", (int)se->device, se->name);
        int64_t pid =
            se->device < 0 ? pid_of(t, se->source) : device_pid(t, se->source, se->device);
        for (uint32_t i = se->first; i < se->first + se->count; i++) {
            const trace_sample *sm = &t->samples[i];
            if (!isfinite(sm->value))
                continue;
            begin(w);
            fputs("{\"ph\":\"C\",\"name\":", w->out);
            trace_put_json_str(w->out, name);
            fprintf(w->out, ",\"pid\":%" PRId64 ",\"tid\":0,\"ts\":", pid);
            put_us(w->out, sm->ts_ns - t->t_base);
            fprintf(w->out, ",\"args\":{\"value\":%.17g}}", sm->value);
        }
    }
}

static void jobs(writer *w)
{
    const trace *t = w->t;
    FILE *out = w->out;
    for (size_t i = 0; i < t->job_event_count; i++) {
        const trace_job_event *e = &t->job_events[i];
        char name[160];
        snprintf(name, sizeof name, "job %" PRIu64 " %s", e->job, e->state_name);
        begin(w);
        fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":", out);
        trace_put_json_str(out, name);
        fprintf(out,
                ",\"cat\":\"job\",\"pid\":%" PRId64 ",\"tid\":%d,\"ts\":", pid_of(t, e->source),
                TID_JOBS);
        put_us(out, e->ts_ns - t->t_base);
        fprintf(out, ",\"args\":{\"job\":%" PRIu64 ",\"state\":", e->job);
        trace_put_json_str(out, e->state_name);
        fputs(",\"circuit\":", out);
        trace_put_json_str(out, e->circuit);
        fprintf(out, ",\"partitions\":%u,\"priority\":", e->partitions);
        trace_put_json_str(out, e->priority);
        fputs(",\"message\":", out);
        trace_put_json_str(out, e->message);
        fputs("}}", out);
    }
    /* Each job's extent, first to last event, as an async slice. */
    for (size_t i = 0; i < t->job_count; i++) {
        const trace_job *j = &t->jobs[i];
        for (int end = 0; end < 2; end++) {
            begin(w);
            fprintf(out,
                    "{\"ph\":\"%s\",\"cat\":\"job\",\"name\":\"job %" PRIu64
                    "\",\"id\":\"job-%" PRIu64 "\",\"pid\":%" PRId64 ",\"tid\":%d,\"ts\":",
                    end ? "e" : "b", j->job, j->job, pid_of(t, j->source), TID_JOBS);
            put_us(out, (end ? j->last_ns : j->first_ns) - t->t_base);
            if (!end) {
                fputs(",\"args\":{\"circuit\":", out);
                trace_put_json_str(out, j->circuit);
                fprintf(out, ",\"state\":\"%s\",\"partitions\":%u}", trace_job_state_name(j->state),
                        j->partitions ? j->partitions : j->partitions_seen);
            }
            fputc('}', out);
        }
    }
}

cuzk_status trace_write_perfetto(FILE *out, const trace *t)
{
    long *tid_of_lane = malloc((t->lane_count + 1) * sizeof(long));
    if (!tid_of_lane)
        return CUZK_ERR_OUT_OF_MEMORY;
    writer w = {.out = out, .t = t, .first = true};
    fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"cuzk trace\",\"t_base_ns\":",
          out);
    fprintf(out, "%" PRIu64 "},\"traceEvents\":[", t->t_base);
    for (uint32_t s = 0; s < t->source_count; s++) {
        long tid = TID_FIRST_LANE;
        for (size_t l = 0; l < t->lane_count; l++)
            if (t->lanes[l].source == s) {
                tid_of_lane[l] = tid;
                tid += t->lanes[l].rows ? t->lanes[l].rows : 1;
            }
        names(&w, s, tid_of_lane);
    }
    for (size_t l = 0; l < t->lane_count; l++) {
        const trace_lane *lane = &t->lanes[l];
        int64_t pid = lane_pid(t, lane);
        for (uint32_t i = lane->first; i < lane->first + lane->count; i++)
            span(&w, &t->spans[i], pid, tid_of_lane[l] + (long)t->spans[i].row);
    }
    counters(&w);
    jobs(&w);
    fputs("\n]}\n", out);
    free(tid_of_lane);
    return ferror(out) ? CUZK_ERR_IO : CUZK_OK;
}
