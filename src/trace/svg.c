/* The SVG timeline (export.h describes what it shows). Two passes: the
 * layout (tracks and their heights) first, since the <svg> element states
 * its height, then the drawing. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/export.h"
#include "trace/svg_internal.h"
#include "trace/trace_internal.h"

#define LEFT 170.0
#define RIGHT 20.0
#define ROW_H 12.0
#define MAX_ROWS SVG_MAX_ROWS /* rows drawn per lane; deeper spans share the last one */
#define LANE_GAP 3.0
#define COUNTER_H 30.0
#define HEADER_H 18.0
#define JOB_ROWS 4
#define JOB_ROW_H 8.0
#define RUN_MAX_PX 2.0 /* a merged run is cut after this width, to keep the colors local */

static const char *const phase_colors[TRACE_PHASE_KNOWN] = {
    "#bab0ac", /* queue_wait */
    "#4e79a7", /* synthesize */
    "#76b7b2", /* eval_abc */
    "#f28e2b", /* upload */
    "#59a14f", /* h */
    "#8cd17d", /* msm_h */
    "#b07aa1", /* msm_l */
    "#ff9da7", /* msm_a */
    "#9c755f", /* msm_b_g1 */
    "#edc948", /* msm_b_g2 */
    "#ffbe7d", /* download */
    "#d4a6c8", /* assemble */
    "#86bcb6", /* verify */
    "#499894", /* finalize */
};
static const char *const other_colors[6] = {"#79706e", "#d37295", "#a0cbe8",
                                            "#b6992d", "#f1ce63", "#8fbc8f"};

const char *trace_phase_color(uint32_t phase)
{
    return phase < TRACE_PHASE_KNOWN ? phase_colors[phase]
                                     : other_colors[(phase - TRACE_PHASE_KNOWN) % 6];
}

static const char *counter_color(const char *name)
{
    static const struct {
        const char *name, *color;
    } fixed[] = {{"sm_util", "#1f77b4"},     {"mem_util", "#9467bd"},
                 {"power_w", "#ff7f0e"},     {"sm_clock_mhz", "#2ca02c"},
                 {"pcie_rx_bps", "#17becf"}, {"pcie_tx_bps", "#8c564b"}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(name, fixed[i].name))
            return fixed[i].color;
    return "#555555";
}

double svg_x(const svg_ctx *g, uint64_t ns)
{
    return LEFT + (double)(int64_t)(ns - g->v0) * g->scale;
}

static void add_track(svg_ctx *g, svg_track_kind kind, uint32_t index, long device, uint32_t source,
                      double h)
{
    svg_track *k = &g->trk[g->ntrk++];
    *k = (svg_track){
        .kind = kind, .index = index, .device = device, .source = source, .y = g->y, .h = h};
    g->y += h;
}

static void layout_jobs(svg_ctx *g)
{
    const trace *t = g->t;
    uint64_t row_end[JOB_ROWS] = {0};
    bool used[JOB_ROWS] = {false};
    int rows = 0;
    for (size_t i = 0; i < t->job_count; i++) {
        const trace_job *j = &t->jobs[i];
        int r = 0;
        while (r < JOB_ROWS && used[r] && row_end[r] > j->first_ns)
            r++;
        if (r == JOB_ROWS) /* all taken: the one freed first */
            for (int k = r = 0; k < JOB_ROWS; k++)
                if (row_end[k] < row_end[r])
                    r = k;
        if (!used[r] || j->last_ns > row_end[r])
            row_end[r] = j->last_ns;
        used[r] = true;
        g->job_row[i] = (uint8_t)r;
        if (r + 1 > rows)
            rows = r + 1;
    }
    if (rows)
        add_track(g, TRK_JOBS, 0, -1, 0, rows * JOB_ROW_H + 6);
}

static void layout_lanes(svg_ctx *g, uint32_t source, int32_t device, long dev_index)
{
    const trace *t = g->t;
    double y0 = g->y;
    bool header = false;
    for (size_t l = 0; l < t->lane_count; l++) {
        const trace_lane *lane = &t->lanes[l];
        if (lane->source != source || lane->device != device)
            continue;
        if (!header) {
            add_track(g, TRK_HEADER, (uint32_t)l, dev_index, source, HEADER_H);
            header = true;
            y0 = g->y;
        }
        uint32_t rows = lane->rows < MAX_ROWS ? lane->rows : MAX_ROWS;
        add_track(g, TRK_LANE, (uint32_t)l, dev_index, source,
                  (rows ? rows : 1) * ROW_H + LANE_GAP);
    }
    if (dev_index >= 0) {
        g->dev_y0[dev_index] = y0;
        g->dev_y1[dev_index] = g->y;
    }
    for (size_t k = 0; k < t->series_count; k++) {
        const trace_series *se = &t->series[k];
        if (se->source != source || se->device != device)
            continue;
        if (!header) {
            add_track(g, TRK_HEADER, UINT32_MAX, dev_index, source, HEADER_H);
            header = true;
        }
        add_track(g, TRK_COUNTER, (uint32_t)k, dev_index, source, COUNTER_H + LANE_GAP);
    }
}

static void layout(svg_ctx *g)
{
    const trace *t = g->t;
    g->y = g->top;
    layout_jobs(g);
    for (uint32_t s = 0; s < t->source_count; s++) {
        layout_lanes(g, s, -1, -1);
        for (size_t d = 0; d < t->device_count; d++)
            if (t->devices[d].source == s)
                layout_lanes(g, s, t->devices[d].device, (long)d);
    }
    g->height = g->y + 12;
}

static void put_time(FILE *out, double s)
{
    fprintf(out, "%.6f s", s);
}

static double rel_s(const svg_ctx *g, uint64_t ns)
{
    return (double)(int64_t)(ns - g->t->t_base) / 1e9;
}

static void put_bytes(FILE *out, uint64_t b)
{
    if (b >= 1000000)
        fprintf(out, ", %.1f MB", (double)b / 1e6);
    else if (b)
        fprintf(out, ", %" PRIu64 " bytes", b);
}

static void draw_span(svg_ctx *g, const trace_span *s, double x, double w, double y)
{
    const trace *t = g->t;
    FILE *out = g->out;
    /* a white edge between neighbours wide enough to show it */
    fprintf(out,
            "<rect class=\"s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
            "fill=\"%s\"%s><title>",
            x, y, w, ROW_H - 2, trace_phase_color(s->phase),
            w >= 4 ? " stroke=\"#fff\" stroke-width=\"0.5\"" : "");
    trace_put_xml(out, t->phase_names[s->phase]);
    fprintf(out, " (%s) job %" PRIu64 " partition %u ", trace_cat_name(s->cat), s->job,
            s->partition);
    trace_put_xml(out, s->circuit);
    fprintf(out, ": %.3f ms at ", (double)(s->end_ns - s->start_ns) / 1e6);
    put_time(out, rel_s(g, s->start_ns));
    put_bytes(out, s->bytes);
    fputs("</title></rect>\n", out);
    g->stats.span_rects++;
}

static void flush_run(svg_ctx *g, svg_run *r, double y)
{
    if (!r->n)
        return;
    const trace *t = g->t;
    if (r->n == 1) {
        draw_span(g, &t->spans[r->first_span], r->x0, 1.0, y);
    } else {
        uint32_t best = 0;
        for (uint32_t p = 1; p < t->phase_count; p++)
            if (r->phase_ns[p] > r->phase_ns[best])
                best = p;
        double w = r->x1 - r->x0 < 1.0 ? 1.0 : r->x1 - r->x0;
        fprintf(g->out,
                "<rect class=\"r\" data-n=\"%u\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
                "height=\"%.1f\" fill=\"%s\"><title>%u spans from ",
                r->n, r->x0, y, w, ROW_H - 2, trace_phase_color(best), r->n);
        put_time(g->out, rel_s(g, r->a));
        fputs(" to ", g->out);
        put_time(g->out, rel_s(g, r->b));
        fputs(", mostly ", g->out);
        trace_put_xml(g->out, t->phase_names[best]);
        fputs("</title></rect>\n", g->out);
        g->stats.runs++;
        g->stats.spans_in_runs += r->n;
    }
    r->n = 0;
    memset(r->phase_ns, 0, t->phase_count * sizeof(double));
}

static void draw_lane(svg_ctx *g, const svg_track *k)
{
    const trace *t = g->t;
    const trace_lane *lane = &t->lanes[k->index];
    FILE *out = g->out;
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f3f3f3\"/>\n",
            LEFT, k->y, g->pw, k->h - LANE_GAP);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, k->y + ROW_H - 2);
    trace_put_xml(out, lane->worker);
    if (lane->rows > 1)
        fprintf(out, " (%u rows)", lane->rows);
    fputs("</text>\n", out);
    for (int r = 0; r < MAX_ROWS; r++)
        g->runs[r].n = 0;
    for (uint32_t i = lane->first; i < lane->first + lane->count; i++) {
        const trace_span *s = &t->spans[i];
        int row = s->row < MAX_ROWS ? (int)s->row : MAX_ROWS - 1;
        double y = k->y + 1 + row * ROW_H;
        double x0 = svg_x(g, s->start_ns), x1 = svg_x(g, s->end_ns);
        svg_run *run = &g->runs[row];
        if (x1 - x0 >= 1.0) {
            flush_run(g, run, y);
            draw_span(g, s, x0, x1 - x0, y);
            continue;
        }
        if (run->n && (x0 > run->x1 + 0.5 || x1 - run->x0 > RUN_MAX_PX))
            flush_run(g, run, y);
        if (!run->n) {
            run->x0 = x0;
            run->x1 = x1;
            run->a = s->start_ns;
            run->b = s->end_ns;
            run->first_span = i;
        }
        run->n++;
        if (x1 > run->x1)
            run->x1 = x1;
        if (s->end_ns > run->b)
            run->b = s->end_ns;
        run->phase_ns[s->phase] += (double)(s->end_ns - s->start_ns) + 1.0;
    }
    for (int r = 0; r < MAX_ROWS; r++)
        flush_run(g, &g->runs[r], k->y + 1 + r * ROW_H);
}

static void draw_header(svg_ctx *g, const svg_track *k)
{
    const trace *t = g->t;
    char label[128];
    trace_device_label(t, k->source, k->device >= 0 ? t->devices[k->device].device : -1, label,
                       sizeof label);
    fprintf(g->out, "<text x=\"4\" y=\"%.1f\" font-weight=\"bold\">", k->y + 13);
    trace_put_xml(g->out, label);
    if (k->device >= 0 && g->s && (size_t)k->device < g->s->device_count) {
        const trace_device_summary *ds = &g->s->devices[k->device];
        if (ds->gpu_spans)
            fprintf(g->out, " busy %.1f %%, %zu idle gaps over %g ms", ds->busy_pct, ds->gap_count,
                    g->s->opt.gap_ms);
    }
    fputs("</text>\n", g->out);
}

static void draw_gaps(svg_ctx *g, long d)
{
    if (!g->s || (size_t)d >= g->s->device_count || g->dev_y1[d] <= g->dev_y0[d])
        return;
    const trace_device_summary *ds = &g->s->devices[d];
    for (size_t i = 0; i < ds->gap_count; i++) {
        const trace_gap *gap = &ds->gaps[i];
        double x0 = svg_x(g, gap->start_ns), x1 = svg_x(g, gap->end_ns);
        fprintf(g->out,
                "<rect class=\"gap\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                "fill=\"#e15759\" fill-opacity=\"0.22\"><title>idle %.3f ms at ",
                x0, g->dev_y0[d], x1 - x0 < 1 ? 1 : x1 - x0, g->dev_y1[d] - g->dev_y0[d],
                (double)(gap->end_ns - gap->start_ns) / 1e6);
        put_time(g->out, rel_s(g, gap->start_ns));
        fprintf(g->out, ": %s</title></rect>\n", trace_gap_cause_name(gap->cause));
    }
}

static void draw_jobs(svg_ctx *g, const svg_track *k)
{
    const trace *t = g->t;
    FILE *out = g->out;
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">jobs</text>\n", LEFT - 6,
            k->y + JOB_ROW_H + 1);
    for (size_t i = 0; i < t->job_count; i++) {
        const trace_job *j = &t->jobs[i];
        const char *fill = j->state == TRACE_JOB_FAILED      ? "#e15759"
                           : j->state == TRACE_JOB_CANCELLED ? "#bab0ac"
                           : j->state == TRACE_JOB_DONE      ? (i % 2 ? "#9aa5b1" : "#5f6b7a")
                                                             : "#d7d7d7";
        double x0 = svg_x(g, j->first_ns), x1 = svg_x(g, j->last_ns);
        fprintf(out,
                "<rect class=\"job\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                "fill=\"%s\"><title>job %" PRIu64 " ",
                x0, k->y + 2 + g->job_row[i] * JOB_ROW_H, x1 - x0 < 1 ? 1 : x1 - x0, JOB_ROW_H - 2,
                fill, j->job);
        trace_put_xml(out, j->circuit);
        fprintf(out, " %s, %u partitions, %.3f s from ", trace_job_state_name(j->state),
                j->partitions ? j->partitions : j->partitions_seen,
                (double)(j->last_ns - j->first_ns) / 1e9);
        put_time(out, rel_s(g, j->first_ns));
        if (*j->message) {
            fputs(": ", out);
            trace_put_xml(out, j->message);
        }
        fputs("</title></rect>\n", out);
    }
}

static void draw_track(svg_ctx *g, size_t i)
{
    const svg_track *k = &g->trk[i];
    switch (k->kind) {
    case TRK_HEADER:
        draw_header(g, k);
        break;
    case TRK_JOBS:
        draw_jobs(g, k);
        break;
    case TRK_LANE:
        draw_lane(g, k);
        /* the device's gaps go over its last lane, so that they shade them all */
        if (k->device >= 0 && (i + 1 == g->ntrk || g->trk[i + 1].kind != TRK_LANE))
            draw_gaps(g, k->device);
        break;
    case TRK_COUNTER:
        svg_draw_counter(g, k, counter_color(g->t->series[k->index].name));
        break;
    }
}

static cuzk_status write_svg(FILE *out, const trace *t, const trace_summary *s,
                             const trace_svg_options *opt, trace_svg_stats *stats, bool standalone)
{
    unsigned width = opt && opt->width ? opt->width : TRACE_SVG_DEFAULT_WIDTH;
    if (width < TRACE_SVG_MIN_WIDTH)
        width = TRACE_SVG_MIN_WIDTH;
    if (width > TRACE_SVG_MAX_WIDTH)
        width = TRACE_SVG_MAX_WIDTH;
    size_t ntracks = 2 * (t->lane_count + t->series_count + t->device_count) + 8;
    svg_ctx g = {.out = out, .t = t, .s = s, .width = width, .pw = width - LEFT - RIGHT};
    g.trk = malloc(ntracks * sizeof(svg_track));
    g.job_row = malloc(t->job_count + 1);
    g.dev_y0 = calloc(t->device_count + 1, sizeof(double));
    g.dev_y1 = calloc(t->device_count + 1, sizeof(double));
    g.phase_ns = calloc(MAX_ROWS * (t->phase_count + 1), sizeof(double));
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!g.trk || !g.job_row || !g.dev_y0 || !g.dev_y1 || !g.phase_ns)
        goto out;
    for (int r = 0; r < MAX_ROWS; r++)
        g.runs[r].phase_ns = g.phase_ns + r * (t->phase_count + 1);
    g.v0 = t->t_first;
    g.v1 = t->t_last > t->t_first ? t->t_last : t->t_first + 1;
    g.scale = g.pw / (double)(g.v1 - g.v0);
    g.top = 30 + svg_legend(&g, false) + 22;
    layout(&g);
    if (standalone)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%.0f\" "
            "viewBox=\"0 0 %u %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, g.height, width, g.height);
    fputs("<style>rect.s:hover,rect.r:hover,rect.job:hover{stroke:#000;stroke-width:1}</style>\n",
          out);
    fprintf(out, "<rect width=\"%u\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width, g.height);
    svg_draw_title(&g);
    svg_legend(&g, true);
    if (t->has_extent) {
        svg_draw_axis(&g);
        for (size_t i = 0; i < g.ntrk; i++)
            draw_track(&g, i);
    }
    fputs("</svg>\n", out);
    if (stats)
        *stats = g.stats;
    st = ferror(out) ? CUZK_ERR_IO : CUZK_OK;
out:
    free(g.trk);
    free(g.job_row);
    free(g.dev_y0);
    free(g.dev_y1);
    free(g.phase_ns);
    return st;
}

cuzk_status trace_write_svg(FILE *out, const trace *t, const trace_summary *s,
                            const trace_svg_options *opt, trace_svg_stats *stats)
{
    return write_svg(out, t, s, opt, stats, true);
}

cuzk_status trace_write_html(FILE *out, const trace *t, const trace_summary *s,
                             const trace_svg_options *opt)
{
    /* Polyglot markup: valid HTML5 and well-formed XML, so that XML tools
     * can check it. */
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
          "<head>\n<meta charset=\"utf-8\"/>\n"
          "<title>cuzk trace</title>\n<style>\n"
          "body{font:13px sans-serif;margin:16px;color:#222}\n"
          "pre{font:12px monospace;background:#f6f6f6;padding:8px;overflow:auto}\n"
          ".sw{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;"
          "vertical-align:middle;border:1px solid #999}\n"
          ".tl{overflow-x:auto}\n</style>\n</head>\n<body>\n<h1>cuzk trace</h1>\n",
          out);
    svg_html_legend(out, t, s);
    fputs("<p>Hover over a rectangle for its phase, job, partition and duration. Shaded bands "
          "over a device's lanes are its idle gaps; red marks under a counter are its dips.</p>\n"
          "<div class=\"tl\">\n",
          out);
    cuzk_status st = write_svg(out, t, s, opt, NULL, false);
    if (st != CUZK_OK)
        return st;
    fputs("</div>\n", out);
    if (s) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            return CUZK_ERR_OUT_OF_MEMORY;
        trace_summary_print(mem, t, s);
        fclose(mem);
        fputs("<h2>Summary</h2>\n<pre>", out);
        trace_put_xml(out, text ? text : "");
        fputs("</pre>\n", out);
        free(text);
    }
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? CUZK_ERR_IO : CUZK_OK;
}
