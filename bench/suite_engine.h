#ifndef CUZK_BENCH_SUITE_ENGINE_H
#define CUZK_BENCH_SUITE_ENGINE_H

/* What an engine run's timing log says about each partition and each
 * device, for `cuzk bench` and bench/bench_engine (docs/ENGINE.md,
 * "Reading cuzk bench", defines every figure).
 *
 * A partition's life runs from its submission (the start of its queue_wait
 * span) to its proof being stored (the end of its finalize span, or the
 * job's done line when it was the job's last partition). It is cut into
 * pieces that add up to the life exactly:
 *
 *   admission       queue_wait: held back by the queue bound or busy
 *                   synthesis workers
 *   synthesis       synthesize start to eval_abc end (to synthesize end
 *                   when the backend evaluates a, b, c: its eval_abc span
 *                   is then a device span, part of prove)
 *   device wait     synthesized, while its device ran partitions that
 *                   reached it first (their backend calls, first to last span)
 *   prove           the backend's prove(), first to last span
 *   finalizer wait  proven, while its finalizer finished an earlier partition
 *   finalize        assemble + verify (the finalize span)
 *   overhead        everything else: the engine's own handoffs. Buffer
 *                   acquisition (queue_wait end to synthesize start), the
 *                   prove-queue handoff (eval_abc end to the first backend
 *                   span, less the device wait), the finalize-queue handoff
 *                   (last backend span to finalize, less the finalizer
 *                   wait), and, for a job's last partition, the job's
 *                   completion (finalize end to the job's done line).
 *
 * With several partitions in flight the admission wait is the pipeline's
 * back-pressure, so it is not counted as overhead; when partitions go
 * through one at a time (bench_engine --isolated) nothing else can be
 * waited for and the whole of life minus work is overhead. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "trace/trace.h"

typedef struct bench_partition_timing {
    uint64_t job;
    uint32_t partition;
    uint32_t source;       /* the process in the log */
    int32_t device;        /* the device that proved it */
    uint64_t submit_ns;    /* the start of its queue_wait */
    uint64_t done_ns;      /* when its proof was stored */
    uint64_t admission_ns; /* the pieces of done_ns - submit_ns, as above */
    uint64_t synth_ns;
    uint64_t device_wait_ns;
    uint64_t prove_ns;
    uint64_t finalizer_wait_ns;
    uint64_t finalize_ns;
    uint64_t overhead_ns;         /* = the four below */
    uint64_t acquire_ns;          /* queue_wait end to synthesize start */
    uint64_t prove_handoff_ns;    /* eval_abc end to the first backend span, less the device wait */
    uint64_t finalize_handoff_ns; /* last backend span to finalize, less the finalizer wait */
    uint64_t completion_ns;       /* finalize end to the job's done line (its last partition) */
    uint64_t verify_ns;           /* part of finalize_ns; 0 without verification */
    bool verified;                /* a verify span was logged */
} bench_partition_timing;

typedef struct bench_device_busy {
    uint32_t source;
    int32_t device;
    uint64_t first_ns, last_ns; /* first and last kernel span of the device */
    uint64_t busy_ns;           /* the union of its kernel spans (cat gpu, or cpu on the CPU
                                   backend's devices); copies are not busy time */
    uint32_t partitions;        /* partitions it proved */
} bench_device_busy;

typedef struct bench_engine_report {
    bench_partition_timing *parts; /* complete partitions, in log order of submission */
    size_t count;
    size_t skipped; /* partitions seen without exactly one complete attempt (retried,
                       failed, cancelled, or a log cut short) */
    bench_device_busy *devices;
    size_t device_count;
    uint64_t wall_ns; /* the log's first to last span or job line */
} bench_engine_report;

/* Splits every partition's life and measures every device of the log t.
 * CUZK_ERR_OUT_OF_MEMORY is the only failure. */
cuzk_status bench_engine_analyze(bench_engine_report *out, const trace *t)
    __attribute__((warn_unused_result));
void bench_engine_report_free(bench_engine_report *r);

/* The q-quantile of v[0..n), interpolated linearly between the closest ranks
 * as the trace summary does (v is sorted in place); 0 when n is 0. */
double bench_quantile(double *v, size_t n, double q);

/* Overhead per partition in milliseconds over r's partitions: mean, p50, p95
 * and max; with_admission adds the admission wait (partitions proved one at a
 * time). False when r has no partitions. */
typedef struct bench_overhead_stats {
    double mean_ms, p50_ms, p95_ms, max_ms;
    /* the means of its pieces */
    double acquire_ms, prove_handoff_ms, finalize_handoff_ms, completion_ms, admission_ms;
} bench_overhead_stats;

bool bench_overhead_stats_of(const bench_engine_report *r, bool with_admission,
                             bench_overhead_stats *out);

#endif
