/* cuzk trace: the engine's JSON-lines timing log turned into a Perfetto
 * trace, an SVG or HTML timeline, and a summary (docs/TRACE.md). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "trace/export.h"
#include "trace/summary.h"
#include "trace/trace.h"

#define ISSUES_SHOWN 20

static void trace_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk trace LOG.jsonl [--perfetto OUT.json] [--html OUT.html] [--svg OUT.svg]\n"
            "                  [--summary] [--json-summary OUT.json] [--gap-ms X]\n"
            "                  [--dip-threshold X | --dip-below X] [--width PX] [--strict]\n"
            "  Reads the engine's timing log (JSON lines) and writes:\n"
            "    --perfetto F      a Chrome trace-event JSON file for ui.perfetto.dev\n"
            "    --svg F           a self-contained SVG timeline\n"
            "    --html F          an HTML page with the timeline, a legend and the summary\n"
            "    --summary         the text summary on stdout (the default when no output\n"
            "                      is named)\n"
            "    --json-summary F  the summary as JSON\n"
            "  F may be '-' for stdout.\n"
            "    --gap-ms X        report device idle gaps longer than X ms (default %g)\n"
            "    --dip-threshold X report %s below X (default %g); --dip-below X is the same\n"
            "    --width PX        width of the timeline (default %d)\n"
            "    --strict          refuse a log with a malformed line or no meta line\n"
            "  Malformed lines are reported with their line number and skipped.\n"
            "  Exit status: 0 done, 1 an output could not be written, 2 usage,\n"
            "  3 the log is unreadable (or, with --strict, malformed).\n",
            TRACE_DEFAULT_GAP_MS, TRACE_DEFAULT_DIP_COUNTER, TRACE_DEFAULT_DIP_THRESHOLD,
            TRACE_SVG_DEFAULT_WIDTH);
}

typedef struct trace_args {
    const char *log, *perfetto, *svg, *html, *json;
    bool summary, strict;
    trace_summary_options opt;
    trace_svg_options svg_opt;
} trace_args;

static bool parse_number(const char *option, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < 0) {
        cli_error("trace: %s wants a non-negative number, got '%s'", option, text);
        return false;
    }
    *out = v;
    return true;
}

enum {
    OPT_PERFETTO = CLI_ARGS_FIRST_CODE,
    OPT_SVG,
    OPT_HTML,
    OPT_JSON_SUMMARY,
    OPT_SUMMARY,
    OPT_GAP_MS,
    OPT_DIP,
    OPT_WIDTH,
    OPT_STRICT,
};

static const struct option trace_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"perfetto", required_argument, NULL, OPT_PERFETTO},
    {"svg", required_argument, NULL, OPT_SVG},
    {"html", required_argument, NULL, OPT_HTML},
    {"json-summary", required_argument, NULL, OPT_JSON_SUMMARY},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"gap-ms", required_argument, NULL, OPT_GAP_MS},
    /* one code: two names of one option, so --dip is no ambiguous prefix */
    {"dip-threshold", required_argument, NULL, OPT_DIP},
    {"dip-below", required_argument, NULL, OPT_DIP},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"strict", no_argument, NULL, OPT_STRICT},
    {0},
};

/* 0 on success, otherwise the exit code (-1: the help was printed). */
static int parse_args(int argc, char **argv, trace_args *t)
{
    cli_args a;
    cli_args_start(&a, "trace", argc, argv, trace_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        unsigned long long w;
        switch (code) {
        case 'h':
            trace_usage(stdout);
            return -1;
        case OPT_PERFETTO:
            t->perfetto = a.value;
            break;
        case OPT_SVG:
            t->svg = a.value;
            break;
        case OPT_HTML:
            t->html = a.value;
            break;
        case OPT_JSON_SUMMARY:
            t->json = a.value;
            break;
        case OPT_SUMMARY:
            t->summary = true;
            break;
        case OPT_STRICT:
            t->strict = true;
            break;
        case OPT_GAP_MS:
            if (!parse_number(a.option, a.value, &t->opt.gap_ms))
                return CLI_EXIT_USAGE;
            break;
        case OPT_DIP:
            if (!parse_number(a.option, a.value, &t->opt.dip_threshold))
                return CLI_EXIT_USAGE;
            break;
        case OPT_WIDTH:
            if (!cli_parse_uint(a.option, a.value, TRACE_SVG_MAX_WIDTH, &w))
                return CLI_EXIT_USAGE;
            if (w < TRACE_SVG_MIN_WIDTH) {
                cli_error("trace: --width wants at least %d pixels", TRACE_SVG_MIN_WIDTH);
                return CLI_EXIT_USAGE;
            }
            t->svg_opt.width = (unsigned)w;
            break;
        case CLI_ARG:
            if (t->log) {
                cli_error("trace: one log at a time ('%s' and '%s')", t->log, a.value);
                return CLI_EXIT_USAGE;
            }
            t->log = a.value;
            break;
        default: /* said by cli_args_next */
            return CLI_EXIT_USAGE;
        }
    }
    if (!t->log) {
        cli_error("trace: which log? (cuzk trace LOG.jsonl)");
        trace_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!t->perfetto && !t->svg && !t->html && !t->json)
        t->summary = true;
    return 0;
}

typedef enum output_kind { OUT_PERFETTO, OUT_SVG, OUT_HTML, OUT_JSON } output_kind;

static bool write_output(output_kind kind, const char *path, const trace *t, const trace_summary *s,
                         const trace_args *a)
{
    bool to_stdout = !strcmp(path, "-");
    FILE *out = to_stdout ? stdout : fopen(path, "w");
    if (!out) {
        cli_error("trace: cannot create %s: %s", path, strerror(errno));
        return false;
    }
    cuzk_status st = CUZK_OK;
    switch (kind) {
    case OUT_PERFETTO:
        st = trace_write_perfetto(out, t);
        break;
    case OUT_SVG:
        st = trace_write_svg(out, t, s, &a->svg_opt, NULL);
        break;
    case OUT_HTML:
        st = trace_write_html(out, t, s, &a->svg_opt);
        break;
    case OUT_JSON:
        st = trace_summary_write_json(out, t, s);
        break;
    }
    int err = errno;
    bool closed = to_stdout ? fflush(out) == 0 : fclose(out) == 0;
    if (st != CUZK_OK || !closed) {
        cli_error("trace: cannot write %s: %s", path,
                  st != CUZK_OK && st != CUZK_ERR_IO ? cuzk_status_str(st) : strerror(err));
        return false;
    }
    return true;
}

int cli_trace(int argc, char **argv)
{
    trace_args a = {
        .opt = {TRACE_DEFAULT_GAP_MS, TRACE_DEFAULT_DIP_THRESHOLD, TRACE_DEFAULT_DIP_COUNTER}};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    char msg[256];
    trace *t = NULL;
    cuzk_status st = trace_read_file(&t, a.log, a.strict, msg, sizeof msg);
    if (st != CUZK_OK) {
        if (st == CUZK_ERR_CORRUPT)
            cli_error("trace: %s: %s (--strict)", a.log, msg);
        else
            cli_error("trace: %s", msg);
        return st == CUZK_ERR_OUT_OF_MEMORY ? CLI_EXIT_FAILURE : CLI_EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < t->malformed && i < ISSUES_SHOWN && i < TRACE_MAX_ISSUES; i++)
        fprintf(stderr, "cuzk: warning: %s:%u: %s (line skipped)\n", a.log, t->issues[i].line,
                t->issues[i].text);
    if (t->malformed > ISSUES_SHOWN)
        fprintf(stderr, "cuzk: warning: %s: %zu more malformed lines skipped\n", a.log,
                t->malformed - ISSUES_SHOWN);
    trace_summary *s = NULL;
    st = trace_summarize(&s, t, &a.opt);
    if (st != CUZK_OK) {
        cli_error("trace: %s", cuzk_status_str(st));
        trace_free(t);
        return CLI_EXIT_FAILURE;
    }
    bool ok = true;
    if (a.perfetto)
        ok &= write_output(OUT_PERFETTO, a.perfetto, t, s, &a);
    if (a.svg)
        ok &= write_output(OUT_SVG, a.svg, t, s, &a);
    if (a.html)
        ok &= write_output(OUT_HTML, a.html, t, s, &a);
    if (a.json)
        ok &= write_output(OUT_JSON, a.json, t, s, &a);
    if (a.summary)
        trace_summary_print(stdout, t, s);
    trace_summary_free(s);
    trace_free(t);
    if (fflush(stdout) != 0)
        ok = false;
    return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
