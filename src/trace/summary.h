#ifndef CUZK_TRACE_SUMMARY_H
#define CUZK_TRACE_SUMMARY_H

/* What a log says about a run, computed from the model (docs/TRACE.md,
 * "Reading the summary", explains each figure):
 *   - wall time: first to last span or job line;
 *   - per device: busy % = the union of its workers' gpu spans over the time
 *     from its first to its last gpu span; the idle gaps of that union longer
 *     than gap_ms, each with its cause (what overlapped it: synthesis or a
 *     queue wait in the same process, a copy to or from the device, or
 *     nothing); counter statistics while a gpu span runs; dips of one
 *     counter (sm_util) below a threshold, with the device's spans that
 *     overlap each dip;
 *   - per phase: p50 / p95 / max of the time each partition spent in it;
 *   - throughput, and the failed and cancelled jobs with their messages;
 *   - the synthesis pool: a partition's synthesis latency (p50, p90) and
 *     the partitions it synthesized per second;
 *   - per worker: busy % of the wall time. */

#include <stdio.h>

#include "trace/trace.h"

#define TRACE_DEFAULT_GAP_MS 5.0
#define TRACE_DEFAULT_DIP_THRESHOLD 50.0
#define TRACE_DEFAULT_DIP_COUNTER "sm_util"

typedef enum trace_gap_cause {
    TRACE_GAP_SYNTHESIS = 0, /* a partition was in queue_wait, synthesize or eval_abc */
    TRACE_GAP_TRANSFER,      /* a copy span of the device overlapped */
    TRACE_GAP_NO_WORK,       /* nothing */
    TRACE_GAP_CAUSES
} trace_gap_cause;

/* "waiting for synthesis", "transfer", "no work queued". */
const char *trace_gap_cause_name(trace_gap_cause cause);

typedef struct trace_gap {
    uint64_t start_ns, end_ns;
    uint64_t synthesis_ns, transfer_ns; /* how much of the gap each activity covers */
    trace_gap_cause cause;              /* the one covering more (transfer on a tie) */
} trace_gap;

typedef struct trace_dip_overlap {
    uint32_t span; /* index into trace.spans */
    uint64_t overlap_ns;
} trace_dip_overlap;

/* A run of consecutive samples below the threshold. It lasts from its first
 * low sample to the next sample (the last low one when none follows). */
typedef struct trace_dip {
    uint32_t series;
    uint64_t start_ns, end_ns;
    double min, mean;
    uint32_t samples;
    trace_dip_overlap *overlaps; /* the device's spans overlapping it, by start */
    uint32_t overlap_count;
} trace_dip;

typedef struct trace_counter_stat {
    uint32_t series;
    uint32_t samples, busy_samples; /* all / taken while a gpu span runs */
    double mean, p5, min, max;      /* over the busy samples (0 when there are none) */
} trace_counter_stat;

typedef struct trace_device_summary {
    uint32_t device; /* index into trace.devices */
    size_t gpu_spans, copy_spans;
    uint64_t first_ns, last_ns; /* first gpu span start, last gpu span end */
    uint64_t busy_ns, copy_ns;  /* unions of gpu spans and of copy spans */
    double busy_pct;            /* busy_ns / (last_ns - first_ns) */
    trace_gap *gaps;
    size_t gap_count;
    uint64_t gap_ns[TRACE_GAP_CAUSES];
    trace_counter_stat *counters;
    size_t counter_count;
    trace_dip *dips;
    size_t dip_count;
} trace_device_summary;

typedef struct trace_phase_stat {
    uint32_t phase; /* index into trace.phase_names */
    trace_cat cat;  /* category of its first span */
    size_t spans, partitions;
    double p50_ms, p95_ms, max_ms, mean_ms; /* per-partition time (its spans summed) */
    double total_s;
} trace_phase_stat;

/* One partition's stay on one device: its kernel phases (gpu spans), the
 * dip counter (sm_util) while they ran, and the bytes its copies moved. */
typedef struct trace_partition_stat {
    uint32_t device; /* index into trace.devices */
    uint64_t job;
    uint32_t partition;
    const char *circuit;
    uint64_t first_ns, last_ns;    /* its first span's start and last span's end there */
    uint64_t kernel_ns;            /* union of its gpu spans */
    uint32_t samples;              /* dip-counter samples taken inside its gpu spans */
    double util_mean, util_p5;     /* over those samples (0 when there are none) */
    uint64_t h2d_bytes, d2h_bytes; /* its copy spans by direction */
    uint32_t copies;
} trace_partition_stat;

/* The synthesis pool, from its cpu spans `synthesize` and `eval_abc` (the
 * witness, then a, b, c on the host). A partition's synthesis latency is
 * its such spans summed (attempts included, as for the phases). */
typedef struct trace_synthesis_stat {
    size_t partitions;                      /* (process, job, partition) with such spans */
    size_t workers;                         /* lanes that ran them */
    double p50_ms, p90_ms, max_ms, mean_ms; /* latency per partition */
    double per_s;                           /* partitions over the wall time, per second */
    /* workers / mean latency: the partitions per second the pool keeps up
     * when every worker is busy all the time (an upper bound of per_s) */
    double capacity_per_s;
} trace_synthesis_stat;

typedef struct trace_lane_stat {
    uint64_t busy_ns; /* union of the lane's spans */
    double busy_pct;  /* of the wall time */
} trace_lane_stat;

typedef struct trace_summary_options {
    double gap_ms;        /* report device idle gaps longer than this */
    double dip_threshold; /* report dips of dip_counter below this */
    const char *dip_counter;
} trace_summary_options;

typedef struct trace_summary {
    trace_summary_options opt;
    uint64_t wall_ns;
    size_t jobs, jobs_done, jobs_failed, jobs_cancelled, jobs_unfinished;
    uint64_t partitions_done;
    bool throughput_from_spans; /* no job lines: every job and partition seen counts */
    double jobs_per_hour, partitions_per_hour;
    trace_device_summary *devices; /* one per trace.devices entry, same order */
    size_t device_count;
    trace_phase_stat *phases; /* phases that occur, in pipeline order */
    size_t phase_count;
    trace_lane_stat *lanes; /* one per trace.lanes entry */
    uint32_t *failures;     /* indices into trace.jobs of failed and cancelled jobs */
    size_t failure_count;
    trace_partition_stat *partitions; /* by device, then by first span */
    size_t partition_count;
    trace_synthesis_stat synthesis;
} trace_summary;

/* The partitions of s (summary.c calls it; partitions.c). */
cuzk_status trace_partition_stats(const trace *t, trace_summary *s);

/* s->synthesis, after the wall time (summary.c calls it; synthesis.c). */
cuzk_status trace_synthesis_stats(const trace *t, trace_summary *s);

/* opt NULL: the defaults above. */
cuzk_status trace_summarize(trace_summary **out, const trace *t, const trace_summary_options *opt)
    __attribute__((warn_unused_result));
void trace_summary_free(trace_summary *s);

/* The text report. */
void trace_summary_print(FILE *out, const trace *t, const trace_summary *s);
/* The same as one JSON document. */
cuzk_status trace_summary_write_json(FILE *out, const trace *t, const trace_summary *s);

#endif
