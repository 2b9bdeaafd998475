/* The JSON-lines reader: one jansson parse per line, fields checked by
 * type, strings interned; the model is indexed by trace_index at the end. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

typedef struct reader {
    trace *t;
    bool strict;
    trace_map lanes, series, phases;
    size_t cap_spans, cap_lanes, cap_series, cap_samples, cap_jobs, cap_sources, cap_phases;
    uint32_t line;
    bool oom;
    char why[160];
} reader;

const char *trace_phase_known_name(trace_phase phase)
{
    return (unsigned)phase < TRACE_PHASE_KNOWN ? proof_phase_name((proof_phase)phase) : NULL;
}

const char *trace_dir_name(trace_dir dir)
{
    return dir == TRACE_DIR_H2D ? "h2d" : dir == TRACE_DIR_D2H ? "d2h" : "";
}

const char *trace_cat_name(trace_cat cat)
{
    static const char *const names[TRACE_CAT_COUNT] = {"queue", "cpu", "gpu", "copy", "other"};
    return (unsigned)cat < TRACE_CAT_COUNT ? names[cat] : "other";
}

const char *trace_job_state_name(trace_job_state state)
{
    switch (state) {
    case TRACE_JOB_QUEUED:
        return "queued";
    case TRACE_JOB_DONE:
        return "done";
    case TRACE_JOB_FAILED:
        return "failed";
    case TRACE_JOB_CANCELLED:
        return "cancelled";
    case TRACE_JOB_OTHER:
        return "other";
    case TRACE_JOB_NONE:
        break;
    }
    return "none";
}

static bool bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    return false;
}

static const char *intern(reader *r, const char *s)
{
    const char *p = strtab_intern(r->t->strings, s, strlen(s));
    if (!p)
        r->oom = true;
    return p;
}

/* Field readers: false (with r->why) when the field is required and
 * missing, or present with the wrong type; absent optional fields leave
 * *out as it is. */
static bool get_u64(reader *r, json_t *o, const char *key, bool required, uint64_t *out)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? bad(r, "\"%s\" is missing", key) : true;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return bad(r, "\"%s\" is not a non-negative integer", key);
    *out = (uint64_t)json_integer_value(v);
    return true;
}

static bool get_int(reader *r, json_t *o, const char *key, bool required, int64_t min, int64_t max,
                    int64_t *out)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? bad(r, "\"%s\" is missing", key) : true;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return bad(r, "\"%s\" is not an integer from %lld to %lld", key, (long long)min,
                   (long long)max);
    *out = json_integer_value(v);
    return true;
}

static bool get_str(reader *r, json_t *o, const char *key, bool required, const char **out)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? bad(r, "\"%s\" is missing", key) : true;
    if (!json_is_string(v))
        return bad(r, "\"%s\" is not a string", key);
    const char *s = intern(r, json_string_value(v));
    if (!s)
        return false;
    *out = s;
    return true;
}

/* The current source, creating an anonymous one before the first meta line. */
static uint32_t current_source(reader *r)
{
    trace *t = r->t;
    if (t->source_count == 0) {
        if (!trace_grow((void **)&t->sources, &r->cap_sources, 1, sizeof(trace_source))) {
            r->oom = true;
            return 0;
        }
        t->sources[0] = (trace_source){.host = intern(r, ""), .version = intern(r, "")};
        t->source_count = 1;
    }
    return (uint32_t)(t->source_count - 1);
}

static bool read_meta(reader *r, json_t *o)
{
    trace *t = r->t;
    trace_source src = {.host = intern(r, ""), .version = intern(r, ""), .has_meta = true};
    if (!get_u64(r, o, "t0_ns", false, &src.t0_ns) ||
        !get_int(r, o, "pid", false, INT64_MIN, INT64_MAX, &src.pid) ||
        !get_str(r, o, "host", false, &src.host) || !get_str(r, o, "version", false, &src.version))
        return false;
    /* A meta line names the process of the lines that follow; the lines
     * before the first one belong to it too. */
    if (t->source_count == 0 || t->sources[t->source_count - 1].has_meta) {
        if (!trace_grow((void **)&t->sources, &r->cap_sources, t->source_count + 1,
                        sizeof(trace_source))) {
            r->oom = true;
            return false;
        }
        t->source_count++;
    }
    t->sources[t->source_count - 1] = src;
    return true;
}

static bool phase_index(reader *r, const char *name, uint32_t *out)
{
    trace *t = r->t;
    bool added;
    if (!trace_map_get_or_add(&r->phases, (uintptr_t)name, 0, 0, (uint32_t)t->phase_count, out,
                              &added) ||
        (added && !trace_grow((void **)&t->phase_names, &r->cap_phases, t->phase_count + 1,
                              sizeof(char *)))) {
        r->oom = true;
        return false;
    }
    if (added)
        t->phase_names[t->phase_count++] = name;
    return true;
}

static bool read_span(reader *r, json_t *o)
{
    trace *t = r->t;
    const char *name = NULL, *cat = NULL, *worker = NULL, *circuit = "", *dir = "", *what = "";
    uint64_t job = 0, part = 0, start = 0, end = 0, bytes = 0;
    int64_t device = -1, stream = -1;
    if (!get_str(r, o, "name", true, &name) || !get_str(r, o, "cat", true, &cat) ||
        !get_u64(r, o, "job", true, &job) || !get_u64(r, o, "partition", true, &part) ||
        !get_str(r, o, "worker", true, &worker) ||
        !get_int(r, o, "device", true, -1, INT32_MAX, &device) ||
        !get_u64(r, o, "start_ns", true, &start) || !get_u64(r, o, "end_ns", true, &end) ||
        !get_str(r, o, "circuit", false, &circuit) || !get_u64(r, o, "bytes", false, &bytes) ||
        !get_str(r, o, "dir", false, &dir) || !get_str(r, o, "what", false, &what) ||
        !get_int(r, o, "stream", false, -1, INT32_MAX, &stream))
        return false;
    if (part > UINT32_MAX)
        return bad(r, "\"partition\" is larger than 2^32 - 1");
    if (end < start)
        return bad(r, "span ends before it starts (end_ns %llu < start_ns %llu)",
                   (unsigned long long)end, (unsigned long long)start);
    if ((*circuit == '\0' && !(circuit = intern(r, ""))) ||
        (*what == '\0' && !(what = intern(r, ""))))
        return false;
    trace_cat c = TRACE_CAT_OTHER;
    for (int k = 0; k < TRACE_CAT_OTHER; k++)
        if (!strcmp(cat, trace_cat_name((trace_cat)k)))
            c = (trace_cat)k;
    trace_dir d = TRACE_DIR_NONE;
    if (c == TRACE_CAT_COPY)
        d = !strcmp(dir, "h2d") || (!*dir && !strcmp(name, "upload"))     ? TRACE_DIR_H2D
            : !strcmp(dir, "d2h") || (!*dir && !strcmp(name, "download")) ? TRACE_DIR_D2H
                                                                          : TRACE_DIR_NONE;
    uint32_t source = current_source(r), lane, phase;
    bool added;
    if (r->oom || !phase_index(r, name, &phase))
        return false;
    if (!trace_map_get_or_add(&r->lanes, source, (uint64_t)device, (uintptr_t)worker,
                              (uint32_t)t->lane_count, &lane, &added) ||
        (added &&
         !trace_grow((void **)&t->lanes, &r->cap_lanes, t->lane_count + 1, sizeof(trace_lane))) ||
        !trace_grow((void **)&t->spans, &r->cap_spans, t->span_count + 1, sizeof(trace_span))) {
        r->oom = true;
        return false;
    }
    if (added)
        t->lanes[t->lane_count++] =
            (trace_lane){.source = source, .device = (int32_t)device, .worker = worker};
    t->spans[t->span_count++] = (trace_span){
        .start_ns = start,
        .end_ns = end,
        .job = job,
        .bytes = bytes,
        .partition = (uint32_t)part,
        .lane = lane,
        .phase = phase,
        .line = r->line,
        .cat = c,
        .dir = d,
        .stream = (int32_t)stream,
        .circuit = circuit,
        .what = what,
    };
    return true;
}

static bool read_job(reader *r, json_t *o)
{
    trace *t = r->t;
    trace_job_event e = {.line = r->line};
    uint64_t parts = 0;
    e.circuit = e.priority = e.message = intern(r, "");
    if (!e.circuit || !get_u64(r, o, "job", true, &e.job) ||
        !get_str(r, o, "state", true, &e.state_name) || !get_u64(r, o, "ts_ns", true, &e.ts_ns) ||
        !get_str(r, o, "circuit", false, &e.circuit) ||
        !get_u64(r, o, "partitions", false, &parts) ||
        !get_str(r, o, "priority", false, &e.priority) ||
        !get_str(r, o, "message", false, &e.message))
        return false;
    if (parts > UINT32_MAX)
        return bad(r, "\"partitions\" is larger than 2^32 - 1");
    e.partitions = (uint32_t)parts;
    e.state = TRACE_JOB_OTHER;
    for (int k = TRACE_JOB_QUEUED; k < TRACE_JOB_OTHER; k++)
        if (!strcmp(e.state_name, trace_job_state_name((trace_job_state)k)))
            e.state = (trace_job_state)k;
    e.source = current_source(r);
    if (r->oom || !trace_grow((void **)&t->job_events, &r->cap_jobs, t->job_event_count + 1,
                              sizeof(trace_job_event))) {
        r->oom = true;
        return false;
    }
    t->job_events[t->job_event_count++] = e;
    return true;
}

static bool read_counter(reader *r, json_t *o)
{
    trace *t = r->t;
    const char *name = NULL;
    int64_t device = 0;
    uint64_t ts = 0;
    if (!get_str(r, o, "name", true, &name) ||
        !get_int(r, o, "device", true, -1, INT32_MAX, &device) ||
        !get_u64(r, o, "ts_ns", true, &ts))
        return false;
    json_t *v = json_object_get(o, "value");
    if (!v)
        return bad(r, "\"value\" is missing");
    if (!json_is_number(v))
        return bad(r, "\"value\" is not a number");
    uint32_t source = current_source(r), series;
    bool added;
    if (r->oom ||
        !trace_map_get_or_add(&r->series, source, (uint64_t)device, (uintptr_t)name,
                              (uint32_t)t->series_count, &series, &added) ||
        (added && !trace_grow((void **)&t->series, &r->cap_series, t->series_count + 1,
                              sizeof(trace_series))) ||
        !trace_grow((void **)&t->samples, &r->cap_samples, t->sample_count + 1,
                    sizeof(trace_sample))) {
        r->oom = true;
        return false;
    }
    if (added)
        t->series[t->series_count++] =
            (trace_series){.source = source, .device = (int32_t)device, .name = name};
    t->samples[t->sample_count++] =
        (trace_sample){.ts_ns = ts, .value = json_number_value(v), .series = series};
    return true;
}

/* A telemetry line: the last one says whether device telemetry ran. */
static bool read_telemetry(reader *r, json_t *o)
{
    trace *t = r->t;
    const char *state = NULL, *source = "", *reason = "";
    if (!get_str(r, o, "state", true, &state) || !get_str(r, o, "source", false, &source) ||
        !get_str(r, o, "reason", false, &reason))
        return false;
    if ((!*source && !(source = intern(r, ""))) || (!*reason && !(reason = intern(r, ""))))
        return false;
    t->telemetry_seen = true;
    t->telemetry_on = !strcmp(state, "on");
    t->telemetry_source = source;
    t->telemetry_reason = reason;
    return true;
}

/* One non-blank line: true when it was read or ignored, false when it is
 * malformed (r->why says why) or memory ran out (r->oom). */
static bool read_line(reader *r, const char *p, size_t len, bool first)
{
    json_error_t err;
    json_t *o = json_loadb(p, len, 0, &err);
    if (!o)
        return bad(r, "not JSON: %s (column %d)", err.text, err.column);
    bool ok;
    json_t *type = json_object_get(o, "type");
    if (!json_is_object(o))
        ok = bad(r, "not a JSON object");
    else if (!type)
        ok = bad(r, "\"type\" is missing");
    else if (!json_is_string(type))
        ok = bad(r, "\"type\" is not a string");
    else if (r->strict && first && strcmp(json_string_value(type), "meta"))
        ok = bad(r, "the log does not begin with a meta line");
    else if (!strcmp(json_string_value(type), "meta"))
        ok = read_meta(r, o);
    else if (!strcmp(json_string_value(type), "span"))
        ok = read_span(r, o);
    else if (!strcmp(json_string_value(type), "job"))
        ok = read_job(r, o);
    else if (!strcmp(json_string_value(type), "counter"))
        ok = read_counter(r, o);
    else if (!strcmp(json_string_value(type), "telemetry"))
        ok = read_telemetry(r, o);
    else {
        r->t->ignored++;
        ok = true;
    }
    json_decref(o);
    return ok;
}

static bool blank(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return false;
    return true;
}

static void set_msg(char *msg, size_t msg_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || !msg_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

cuzk_status trace_read_buffer(trace **out, const char *data, size_t len, bool strict, char *msg,
                              size_t msg_len)
{
    *out = NULL;
    set_msg(msg, msg_len, "%s", "");
    trace *t = calloc(1, sizeof(trace));
    reader r = {.t = t, .strict = strict};
    if (!t || !(t->strings = calloc(1, sizeof(trace_strtab))))
        goto oom;
    for (int k = 0; k < TRACE_PHASE_KNOWN; k++) {
        uint32_t idx;
        const char *name = intern(&r, proof_phase_name((proof_phase)k));
        if (!name || !phase_index(&r, name, &idx))
            goto oom;
    }
    cuzk_status st = CUZK_OK;
    const char *p = data, *end = len ? data + len : data;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        r.line++;
        if (!blank(p, n)) {
            t->lines++;
            bool ok = read_line(&r, p, n, t->lines == 1);
            if (r.oom)
                goto oom;
            if (!ok) {
                if (strict) {
                    set_msg(msg, msg_len, "line %u: %s", r.line, r.why);
                    st = CUZK_ERR_CORRUPT;
                    goto fail;
                }
                if (t->malformed < TRACE_MAX_ISSUES) {
                    trace_issue *is = &t->issues[t->malformed];
                    is->line = r.line;
                    snprintf(is->text, sizeof is->text, "%s", r.why);
                }
                t->malformed++;
            }
        }
        p += n + 1;
    }
    if (strict && t->lines == 0) {
        set_msg(msg, msg_len, "the log is empty (no meta line)");
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    st = trace_index(t);
    if (st != CUZK_OK)
        goto fail;
    trace_map_free(&r.lanes);
    trace_map_free(&r.series);
    trace_map_free(&r.phases);
    *out = t;
    return CUZK_OK;
oom:
    st = CUZK_ERR_OUT_OF_MEMORY;
    set_msg(msg, msg_len, "out of memory reading the log");
fail:
    trace_map_free(&r.lanes);
    trace_map_free(&r.series);
    trace_map_free(&r.phases);
    trace_free(t);
    return st;
}

cuzk_status trace_read_file(trace **out, const char *path, bool strict, char *msg, size_t msg_len)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_msg(msg, msg_len, "cannot open %s: %s", path, strerror(errno));
        return CUZK_ERR_IO;
    }
    char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (!trace_grow((void **)&data, &cap, len + 65536, 1)) {
            free(data);
            fclose(f);
            set_msg(msg, msg_len, "out of memory reading %s", path);
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bool failed = ferror(f);
    int err = errno;
    fclose(f);
    if (failed) {
        free(data);
        set_msg(msg, msg_len, "cannot read %s: %s", path, strerror(err));
        return CUZK_ERR_IO;
    }
    cuzk_status st = trace_read_buffer(out, data, len, strict, msg, msg_len);
    free(data);
    return st;
}

void trace_free(trace *t)
{
    if (!t)
        return;
    free(t->sources);
    free(t->spans);
    free(t->lanes);
    free(t->devices);
    free(t->series);
    free(t->samples);
    free(t->job_events);
    free(t->jobs);
    free(t->phase_names);
    if (t->strings)
        strtab_free(t->strings);
    free(t->strings);
    free(t);
}
