#ifndef CUZK_TRACE_TRACE_H
#define CUZK_TRACE_TRACE_H

/* The engine's timing log read into memory. The log is JSON lines, one
 * object per line, of four types (docs/TRACE.md is the authoritative
 * description):
 *
 *   meta     {"type":"meta","clock":"monotonic","t0_ns":U,"pid":I,"host":S,"version":S}
 *   span     {"type":"span","name":PHASE,"cat":"queue|cpu|gpu|copy","job":U,
 *             "partition":U,"circuit":S,"worker":S,"device":I,"start_ns":U,
 *             "end_ns":U,"bytes":U}
 *   job      {"type":"job","job":U,"circuit":S,"state":"queued|done|failed|cancelled",
 *             "ts_ns":U,"partitions":U,"priority":S,"message":S}
 *   counter  {"type":"counter","name":S,"device":I,"ts_ns":U,"value":D}
 *   telemetry {"type":"telemetry","state":"on|off","source":S,"devices":U,
 *             "interval_ms":U,"reason":S}
 *
 * A copy span may add "dir":"h2d|d2h", "stream":I and "what":S.
 *
 * Unknown types and unknown fields are ignored (the format grows by adding
 * them). A line that is not JSON, not an object, or a known type with a
 * required field missing or of the wrong type, or a span ending before it
 * starts, is malformed: recorded with its line number and skipped, or,
 * when reading strictly, the whole log is refused.
 *
 * After reading, the model is indexed:
 *   lanes    one per worker of one process; CPU lanes (device -1) first,
 *            ordered by the pipeline stage they run, then each device's
 *            lanes; spans of a lane are contiguous and sorted by start.
 *            Spans that overlap inside a lane go to sub-rows (first fit),
 *            so that every row is a sequence of disjoint spans.
 *   devices  one per (process, device >= 0) seen in spans or counters.
 *   series   one per (process, device, counter name); samples sorted by time.
 *   jobs     one per (process, job id): circuit, final state, extent.
 * All times are nanoseconds of the log's clock; t_base is the earliest
 * timestamp of any event, and exporters show times relative to it. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "groth16/phase.h"

typedef enum trace_cat {
    TRACE_CAT_QUEUE = 0,
    TRACE_CAT_CPU,
    TRACE_CAT_GPU,
    TRACE_CAT_COPY,
    TRACE_CAT_OTHER, /* a category this reader does not know */
    TRACE_CAT_COUNT
} trace_cat;

/* The phases the engine emits, in pipeline order: groth16/phase.h's
 * table, under the trace's names. Phase names outside it are kept (their
 * index is TRACE_PHASE_KNOWN or more). */
typedef enum trace_phase {
    TRACE_PHASE_QUEUE_WAIT = PHASE_QUEUE_WAIT,
    TRACE_PHASE_SYNTHESIZE = PHASE_SYNTHESIZE,
    TRACE_PHASE_EVAL_ABC = PHASE_EVAL_ABC,
    TRACE_PHASE_UPLOAD = PHASE_UPLOAD,
    TRACE_PHASE_H = PHASE_H,
    TRACE_PHASE_MSM_H = PHASE_MSM_H,
    TRACE_PHASE_MSM_L = PHASE_MSM_L,
    TRACE_PHASE_MSM_A = PHASE_MSM_A,
    TRACE_PHASE_MSM_B_G1 = PHASE_MSM_B_G1,
    TRACE_PHASE_MSM_B_G2 = PHASE_MSM_B_G2,
    TRACE_PHASE_DOWNLOAD = PHASE_DOWNLOAD,
    TRACE_PHASE_ASSEMBLE = PHASE_ASSEMBLE,
    TRACE_PHASE_VERIFY = PHASE_VERIFY,
    TRACE_PHASE_FINALIZE = PHASE_FINALIZE,
    TRACE_PHASE_KNOWN = PHASE_COUNT
} trace_phase;

typedef enum trace_job_state {
    TRACE_JOB_QUEUED = 0,
    TRACE_JOB_DONE,
    TRACE_JOB_FAILED,
    TRACE_JOB_CANCELLED,
    TRACE_JOB_OTHER, /* a state this reader does not know; state_name has it */
    TRACE_JOB_NONE   /* no job event seen (aggregated jobs only) */
} trace_job_state;

/* One process that wrote (part of) the log: a meta line starts one. */
typedef struct trace_source {
    const char *host;    /* "" when the log has no meta line */
    const char *version; /* "" when absent */
    int64_t pid;
    uint64_t t0_ns;
    bool has_meta;
} trace_source;

/* The direction of a copy span: its "dir" field, else its phase name
 * (upload: to the device, download: from it). */
typedef enum trace_dir { TRACE_DIR_NONE = 0, TRACE_DIR_H2D, TRACE_DIR_D2H } trace_dir;

typedef struct trace_span {
    uint64_t start_ns, end_ns;
    uint64_t job, bytes;
    uint32_t partition;
    uint32_t lane;  /* index into trace.lanes */
    uint32_t row;   /* sub-row of the lane (0 unless spans overlap there) */
    uint32_t phase; /* index into trace.phase_names */
    uint32_t line;  /* line number in the log */
    trace_cat cat;
    trace_dir dir;  /* copies; NONE for other spans */
    int32_t stream; /* copies: the backend's stream number; -1 when not given */
    const char *circuit;
    const char *what; /* copies: what was moved; "" when not given */
} trace_span;

typedef struct trace_lane {
    uint32_t source;
    int32_t device; /* -1: a CPU stage */
    const char *worker;
    uint32_t first, count; /* trace.spans[first, first + count) */
    uint32_t rows;         /* sub-rows needed so that no two spans of a row overlap */
    uint32_t stage;        /* the earliest phase it runs (sort key of CPU lanes) */
} trace_lane;

typedef struct trace_device {
    uint32_t source;
    int32_t device;
    uint32_t first_lane, lane_count;     /* its lanes, contiguous */
    uint32_t first_series, series_count; /* its counter series, contiguous */
} trace_device;

typedef struct trace_series {
    uint32_t source;
    int32_t device;
    const char *name;
    uint32_t first, count; /* trace.samples[first, first + count), sorted by time */
} trace_series;

typedef struct trace_sample {
    uint64_t ts_ns;
    double value;
    uint32_t series;
} trace_sample;

/* One job line, as read. */
typedef struct trace_job_event {
    uint64_t job, ts_ns;
    uint32_t source, partitions, line;
    trace_job_state state;
    const char *state_name, *circuit, *priority, *message; /* "" when absent */
} trace_job_event;

/* One job, aggregated over its job lines and spans. */
typedef struct trace_job {
    uint64_t job;
    uint32_t source;
    trace_job_state state; /* the last state seen (by time), or NONE */
    const char *circuit, *priority, *message;
    uint64_t queued_ns, end_ns; /* 0 when not seen */
    uint64_t first_ns, last_ns; /* extent over its job lines and spans */
    uint32_t partitions;        /* declared in a job line (0: unknown) */
    uint32_t partitions_seen;   /* distinct partitions among its spans */
    uint32_t spans;
} trace_job;

#define TRACE_MAX_ISSUES 64

/* A malformed line. */
typedef struct trace_issue {
    uint32_t line;
    char text[160];
} trace_issue;

struct trace_strtab;

typedef struct trace {
    trace_source *sources;
    size_t source_count;
    trace_span *spans;
    size_t span_count;
    trace_lane *lanes;
    size_t lane_count;
    trace_device *devices;
    size_t device_count;
    trace_series *series;
    size_t series_count;
    trace_sample *samples;
    size_t sample_count;
    trace_job_event *job_events; /* sorted by time */
    size_t job_event_count;
    trace_job *jobs; /* sorted by first appearance */
    size_t job_count;
    const char **phase_names; /* TRACE_PHASE_KNOWN fixed names, then the others */
    size_t phase_count;

    uint64_t t_base;          /* earliest timestamp of any event */
    uint64_t t_first, t_last; /* extent of spans and job lines */
    bool has_extent;          /* false when there are no spans and no job lines */
    size_t lines;             /* non-blank lines */
    size_t ignored;           /* lines of an unknown type */
    size_t malformed;         /* malformed lines (the first TRACE_MAX_ISSUES in issues) */
    /* The last telemetry line: whether device telemetry ran and, when it
     * did not, why ("" / false when the log has none). */
    bool telemetry_seen, telemetry_on;
    const char *telemetry_source, *telemetry_reason;
    trace_issue issues[TRACE_MAX_ISSUES];
    struct trace_strtab *strings;
} trace;

/* Reads a log from memory / from a file. strict: refuse the log (CUZK_ERR_CORRUPT,
 * msg "line N: why") at the first malformed line, or when its first line is not
 * a meta line; otherwise malformed lines are recorded in (*out)->issues and
 * skipped. An unreadable file gives CUZK_ERR_IO. *out is freed with trace_free. */
cuzk_status trace_read_buffer(trace **out, const char *data, size_t len, bool strict, char *msg,
                              size_t msg_len) __attribute__((warn_unused_result));
cuzk_status trace_read_file(trace **out, const char *path, bool strict, char *msg, size_t msg_len)
    __attribute__((warn_unused_result));
void trace_free(trace *t);

const char *trace_cat_name(trace_cat cat);
/* "h2d", "d2h", "" */
const char *trace_dir_name(trace_dir dir);
const char *trace_job_state_name(trace_job_state state);
/* The fixed name of a known phase ("msm_l"), NULL for others. */
const char *trace_phase_known_name(trace_phase phase);

/* "gpu0" / "cpu", prefixed by "host:pid/" when the log holds several processes. */
void trace_device_label(const trace *t, uint32_t source, int32_t device, char *buf, size_t n);

/* Index of the device (source, device) in t->devices, or -1. */
long trace_device_find(const trace *t, uint32_t source, int32_t device);

#endif
