/* Pieces of the SVG timeline: title, legend, time axis, counter tracks, and
 * the HTML page's legend. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/svg_internal.h"
#include "trace/trace_internal.h"

#define LEFT 170.0
#define COUNTER_H 30.0
#define MAX_JOB_LINES 200
#define DIP_OVERLAPS_SHOWN 6

static void put_seconds(FILE *out, const svg_ctx *g, uint64_t ns)
{
    fprintf(out, "%.6f s", (double)(int64_t)(ns - g->t->t_base) / 1e9);
}

void svg_draw_title(svg_ctx *g)
{
    const trace *t = g->t;
    FILE *out = g->out;
    fputs("<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">cuzk trace", out);
    for (size_t i = 0; i < t->source_count; i++)
        if (t->sources[i].has_meta) {
            fputs(i ? ", " : ": ", out);
            trace_put_xml(out, t->sources[i].host);
            fprintf(out, " (pid %lld)", (long long)t->sources[i].pid);
        }
    fprintf(out, ", %zu spans, %zu jobs", t->span_count, t->job_count);
    if (t->has_extent)
        fprintf(out, ", %.3f s", (double)(t->t_last - t->t_first) / 1e9);
    else
        fputs(", no spans", out);
    fputs("</text>\n", out);
}

typedef struct legend_item {
    const char *label, *fill;
    double opacity;
} legend_item;

/* Phases that occur in the log, in pipeline order, then the marks. */
static size_t legend_items(const trace *t, const trace_summary *s, legend_item *items,
                           char *gap_label, size_t gap_len)
{
    size_t n = 0;
    bool *seen = calloc(t->phase_count + 1, sizeof(bool));
    if (seen) {
        for (size_t i = 0; i < t->span_count; i++)
            seen[t->spans[i].phase] = true;
        for (uint32_t p = 0; p < t->phase_count; p++)
            if (seen[p])
                items[n++] = (legend_item){t->phase_names[p], trace_phase_color(p), 1.0};
        free(seen);
    }
    if (t->job_count) {
        items[n++] = (legend_item){"job done", "#5f6b7a", 1.0};
        items[n++] = (legend_item){"job failed", "#e15759", 1.0};
        items[n++] = (legend_item){"job cancelled", "#bab0ac", 1.0};
    }
    if (s && t->device_count) {
        snprintf(gap_label, gap_len, "device idle > %g ms", s->opt.gap_ms);
        items[n++] = (legend_item){gap_label, "#e15759", 0.22};
        items[n++] = (legend_item){"counter dip", "#d62728", 1.0};
    }
    return n;
}

double svg_legend(svg_ctx *g, bool draw)
{
    const trace *t = g->t;
    legend_item *items = malloc((t->phase_count + 8) * sizeof(legend_item));
    if (!items)
        return 0;
    char gap_label[64];
    size_t n = legend_items(t, g->s, items, gap_label, sizeof gap_label);
    double x = 10, y = 28, row_h = 16;
    for (size_t i = 0; i < n; i++) {
        double w = 12 + 4 + 6.2 * (double)strlen(items[i].label) + 14;
        if (x + w > g->width - 10 && x > 10) {
            x = 10;
            y += row_h;
        }
        if (draw) {
            fprintf(g->out,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\" "
                    "fill-opacity=\"%.2f\" stroke=\"#999\" stroke-width=\"0.5\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\">",
                    x, y, items[i].fill, items[i].opacity, x + 16, y + 10);
            trace_put_xml(g->out, items[i].label);
            fputs("</text>\n", g->out);
        }
        x += w;
    }
    free(items);
    return n ? y - 28 + row_h : 0;
}

#define SVG_MAX_TICKS 64

void svg_draw_axis(svg_ctx *g)
{
    const trace *t = g->t;
    FILE *out = g->out;
    double span = (double)(g->v1 - g->v0), raw = span / 10;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
    if (step < 1)
        step = 1;
    int decimals = step >= 1e9 ? 0 : (int)ceil(-log10(step / 1e9) - 1e-9);
    if (decimals > 9)
        decimals = 9;
    double rel0 = (double)(g->v0 - t->t_base);
    double bottom = g->height - 12;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", LEFT,
            g->top - 2, LEFT + g->pw, g->top - 2);
    /* About ten ticks. At most SVG_MAX_TICKS, and none once a tick is no
     * later than the one before: times far beyond the span (a crafted or
     * damaged log) are where a double cannot tell k from k + 1. */
    double prev = -INFINITY, k = ceil(rel0 / step);
    for (int i = 0; i < SVG_MAX_TICKS; i++, k++) {
        double rel = k * step;
        if (rel > (double)(g->v1 - t->t_base) + 0.5 || rel <= prev)
            break;
        prev = rel;
        double x = LEFT + (rel - rel0) * g->scale;
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                "stroke-opacity=\"0.08\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                "text-anchor=\"middle\">%.*f s</text>\n",
                x, g->top - 2, x, bottom, x, g->top - 6, decimals, rel / 1e9);
    }
    if (t->job_count > MAX_JOB_LINES)
        return;
    /* Job boundaries: where each job ends. */
    for (size_t i = 0; i < t->job_count; i++) {
        double x = svg_x(g, t->jobs[i].last_ns);
        fprintf(out,
                "<line class=\"jobend\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#333\" stroke-opacity=\"0.3\" stroke-dasharray=\"2,3\"/>\n",
                x, g->top, x, bottom);
    }
}

typedef struct column {
    int col;
    double min, max;
    uint32_t imin, imax;
} column;

static double counter_y(const svg_track *k, double v, double lo, double hi)
{
    return k->y + COUNTER_H - 2 - (v - lo) / (hi - lo) * (COUNTER_H - 6);
}

static void emit_column(FILE *out, const svg_track *k, const column *c, double lo, double hi)
{
    if (c->col == INT_MIN)
        return;
    double x = c->col + 0.5;
    double a = c->imin <= c->imax ? c->min : c->max, b = c->imin <= c->imax ? c->max : c->min;
    fprintf(out, "%.1f,%.1f ", x, counter_y(k, a, lo, hi));
    if (a != b)
        fprintf(out, "%.1f,%.1f ", x, counter_y(k, b, lo, hi));
}

static void draw_dips(svg_ctx *g, const svg_track *k)
{
    const trace *t = g->t;
    if (!g->s || k->device < 0 || (size_t)k->device >= g->s->device_count)
        return;
    const trace_device_summary *ds = &g->s->devices[k->device];
    for (size_t i = 0; i < ds->dip_count; i++) {
        const trace_dip *d = &ds->dips[i];
        if (d->series != k->index)
            continue;
        double x0 = svg_x(g, d->start_ns), x1 = svg_x(g, d->end_ns);
        fprintf(g->out,
                "<rect class=\"dip\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"4\" "
                "fill=\"#d62728\"><title>",
                x0, k->y + COUNTER_H - 4, x1 - x0 < 1 ? 1 : x1 - x0);
        trace_put_xml(g->out, t->series[d->series].name);
        fprintf(g->out, " below %g for %.3f ms at ", g->s->opt.dip_threshold,
                (double)(d->end_ns - d->start_ns) / 1e6);
        put_seconds(g->out, g, d->start_ns);
        fprintf(g->out, " (min %.4g)", d->min);
        for (uint32_t j = 0; j < d->overlap_count && j < DIP_OVERLAPS_SHOWN; j++) {
            const trace_span *sp = &t->spans[d->overlaps[j].span];
            fputs(j ? ", " : ": ", g->out);
            trace_put_xml(g->out, t->phase_names[sp->phase]);
            fprintf(g->out, " job %" PRIu64 " partition %u", sp->job, sp->partition);
        }
        if (d->overlap_count > DIP_OVERLAPS_SHOWN)
            fprintf(g->out, ", %u more", d->overlap_count - DIP_OVERLAPS_SHOWN);
        fputs("</title></rect>\n", g->out);
    }
}

void svg_draw_counter(svg_ctx *g, const svg_track *k, const char *color)
{
    const trace *t = g->t;
    const trace_series *se = &t->series[k->index];
    FILE *out = g->out;
    const trace_sample *smp = t->samples + se->first;
    double vmin = INFINITY, vmax = -INFINITY;
    uint32_t n = 0;
    for (uint32_t i = 0; i < se->count; i++) {
        if (smp[i].ts_ns < g->v0 || smp[i].ts_ns > g->v1)
            continue;
        vmin = fmin(vmin, smp[i].value);
        vmax = fmax(vmax, smp[i].value);
        n++;
    }
    /* Scaled per counter, from 0 (or its minimum when negative) to its maximum. */
    double lo = n && vmin < 0 ? vmin : 0, hi = n ? vmax : 1;
    if (!(hi > lo))
        hi = lo + 1;
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" "
            "stroke=\"#e6e6e6\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">",
            LEFT, k->y, g->pw, COUNTER_H, LEFT - 6, k->y + 12, color);
    trace_put_xml(out, se->name);
    fprintf(out,
            "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"9\" "
            "fill=\"#777\">%.4g to %.4g</text>\n",
            LEFT - 6, k->y + 24, lo, hi);
    if (g->s && g->s->opt.dip_counter && !strcmp(se->name, g->s->opt.dip_counter) &&
        g->s->opt.dip_threshold > lo && g->s->opt.dip_threshold < hi) {
        double y = counter_y(k, g->s->opt.dip_threshold, lo, hi);
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                "stroke-opacity=\"0.5\" stroke-dasharray=\"4,3\"/>\n",
                LEFT, y, LEFT + g->pw, y);
    }
    if (n) {
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1\" points=\"", color);
        column c = {.col = INT_MIN};
        for (uint32_t i = 0; i < se->count; i++) {
            if (smp[i].ts_ns < g->v0 || smp[i].ts_ns > g->v1)
                continue;
            int col = (int)floor(svg_x(g, smp[i].ts_ns));
            double v = smp[i].value;
            if (col != c.col) {
                emit_column(out, k, &c, lo, hi);
                c = (column){col, v, v, i, i};
            } else if (v < c.min) {
                c.min = v;
                c.imin = i;
            } else if (v > c.max) {
                c.max = v;
                c.imax = i;
            }
        }
        emit_column(out, k, &c, lo, hi);
        fputs("\"><title>", out);
        trace_put_xml(out, se->name);
        fprintf(out, ": %u samples from %.4g to %.4g</title></polyline>\n", n, lo, hi);
    }
    draw_dips(g, k);
}

void svg_html_legend(FILE *out, const trace *t, const trace_summary *s)
{
    legend_item *items = malloc((t->phase_count + 8) * sizeof(legend_item));
    if (!items)
        return;
    char gap_label[64];
    size_t n = legend_items(t, s, items, gap_label, sizeof gap_label);
    fputs("<p>", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<span class=\"sw\" style=\"background:%s;opacity:%.2f\"></span>",
                items[i].fill, items[i].opacity < 1 ? 0.5 : 1.0);
        trace_put_xml(out, items[i].label);
        fputc('\n', out);
    }
    fputs("</p>\n", out);
    free(items);
}
