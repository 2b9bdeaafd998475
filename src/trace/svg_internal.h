#ifndef CUZK_TRACE_SVG_INTERNAL_H
#define CUZK_TRACE_SVG_INTERNAL_H

/* The SVG writer's state, shared by svg.c (layout, lanes) and svg_parts.c
 * (title, legend, axis, counters). */

#include <stdbool.h>
#include <stdio.h>

#include "trace/export.h"

#define SVG_MAX_ROWS 8

typedef enum svg_track_kind { TRK_HEADER, TRK_JOBS, TRK_LANE, TRK_COUNTER } svg_track_kind;

typedef struct svg_track {
    svg_track_kind kind;
    uint32_t index; /* lane, series or (header) first lane */
    long device;    /* index into trace.devices, -1 for CPU tracks */
    uint32_t source;
    double y, h;
} svg_track;

/* Sub-pixel spans of one row being merged. */
typedef struct svg_run {
    uint32_t n, first_span;
    double x0, x1;
    uint64_t a, b;
    double *phase_ns; /* time per phase, for the run's color */
} svg_run;

typedef struct svg_ctx {
    FILE *out;
    const trace *t;
    const trace_summary *s;
    unsigned width;
    double pw;       /* width of the plot */
    uint64_t v0, v1; /* the time shown */
    double scale;    /* pixels per nanosecond */
    double top, y, height;
    svg_track *trk;
    size_t ntrk;
    uint8_t *job_row;
    double *dev_y0, *dev_y1; /* vertical extent of each device's lanes */
    double *phase_ns;
    svg_run runs[SVG_MAX_ROWS];
    trace_svg_stats stats;
} svg_ctx;

double svg_x(const svg_ctx *g, uint64_t ns);
void svg_draw_title(svg_ctx *g);
/* The legend under the title; returns its height. draw false: only measures. */
double svg_legend(svg_ctx *g, bool draw);
void svg_draw_axis(svg_ctx *g);
void svg_draw_counter(svg_ctx *g, const svg_track *k, const char *color);
void svg_html_legend(FILE *out, const trace *t, const trace_summary *s);

#endif
