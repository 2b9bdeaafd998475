#ifndef CUZK_TRACE_EXPORT_H
#define CUZK_TRACE_EXPORT_H

/* Views of a log for people:
 *
 * Perfetto / Chrome trace-event JSON ({"traceEvents": [...]}, loads in
 * ui.perfetto.dev and chrome://tracing): one process per process of the log
 * (host, pid), one thread per worker lane and sub-row, named and sorted
 * (a "jobs" thread, CPU stages, then each device's workers); spans as
 * complete events ("ph":"X", ts and dur in microseconds from the log's
 * earliest event, args job, partition, circuit, bytes, device); counters as
 * counter events ("ph":"C") named "<device> <counter>"; job lines as instant
 * events on the jobs thread and each job's extent as an async slice.
 *
 * SVG: a self-contained timeline (no scripts, no external resources): a
 * time axis, a legend, the jobs as bars, one lane per worker (CPU stages
 * first, then per device its workers, its idle gaps longer than the
 * summary's threshold shaded, and its counters as polylines scaled per
 * counter, with the summary's dips marked). Rectangles are colored by
 * phase (a fixed palette) and carry <title> tooltips. Spans narrower than
 * a pixel are merged into runs, so the size grows with the picture's width
 * and the number of lanes, not with the number of spans.
 *
 * HTML: a page holding the same SVG inline, a legend and the text summary. */

#include <stdio.h>

#include "trace/summary.h"
#include "trace/trace.h"

typedef struct trace_svg_options {
    unsigned width; /* pixels; 0: TRACE_SVG_DEFAULT_WIDTH */
} trace_svg_options;

#define TRACE_SVG_DEFAULT_WIDTH 1600
#define TRACE_SVG_MIN_WIDTH 400
#define TRACE_SVG_MAX_WIDTH 20000

/* What the last SVG drew: every span is in exactly one span rectangle or
 * one merged run. */
typedef struct trace_svg_stats {
    size_t span_rects, runs, spans_in_runs;
} trace_svg_stats;

cuzk_status trace_write_perfetto(FILE *out, const trace *t);

/* s: the summary of t (its gaps and dips are drawn); may be NULL. stats may be NULL. */
cuzk_status trace_write_svg(FILE *out, const trace *t, const trace_summary *s,
                            const trace_svg_options *opt, trace_svg_stats *stats);
cuzk_status trace_write_html(FILE *out, const trace *t, const trace_summary *s,
                             const trace_svg_options *opt);

/* The fill color of a phase ("#rrggbb"). */
const char *trace_phase_color(uint32_t phase);

#endif
