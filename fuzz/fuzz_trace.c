/* The engine's timing log as `cuzk trace` reads it (trace/trace.h): read
 * leniently and strictly; a log that is read is summarized and exported
 * (text, JSON, Perfetto, SVG, HTML) into /dev/null. */
#include "fuzz/fuzz.h"

#include "trace/export.h"
#include "trace/summary.h"
#include "trace/trace.h"

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    FUZZ_CHECK(sink != NULL);
    return 0;
}

static void views(const trace *t)
{
    for (size_t i = 0; i < t->lane_count; i++)
        FUZZ_CHECK(t->lanes[i].first + t->lanes[i].count <= t->span_count);
    trace_summary *s;
    if (trace_summarize(&s, t, NULL) != CUZK_OK)
        return;
    trace_summary_print(sink, t, s);
    (void)trace_summary_write_json(sink, t, s);
    (void)trace_write_perfetto(sink, t);
    trace_svg_options opt = {.width = TRACE_SVG_MIN_WIDTH};
    trace_svg_stats stats;
    if (trace_write_svg(sink, t, s, &opt, &stats) == CUZK_OK)
        FUZZ_CHECK(stats.spans_in_runs + stats.span_rects == t->span_count);
    (void)trace_write_html(sink, t, s, &opt);
    trace_summary_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[256];
    trace *t = NULL;
    if (trace_read_buffer(&t, (const char *)data, size, false, msg, sizeof(msg)) == CUZK_OK)
        views(t);
    trace_free(t);
    t = NULL;
    if (trace_read_buffer(&t, (const char *)data, size, true, msg, sizeof(msg)) == CUZK_OK)
        FUZZ_CHECK(t->malformed == 0);
    trace_free(t);
    return 0;
}
