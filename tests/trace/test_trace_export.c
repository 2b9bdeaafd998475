/* The exporters: the Perfetto JSON parsed back and checked against the
 * trace-event format (required keys per event type, names for every
 * thread, no overlapping slices on a thread, known timestamps); the SVG and
 * HTML checked as well-formed XML, with every span in a rectangle or a
 * merged run; sub-pixel merging keeps a crowded timeline small; names that
 * need escaping. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/export.h"
#include "trace/summary.h"
#include "trace/trace.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/trace/"

static char msg[256];

static trace *load(const char *path)
{
    trace *t = NULL;
    if (trace_read_file(&t, path, false, msg, sizeof msg) != CUZK_OK)
        fail_msg("%s: %s", path, msg);
    return t;
}

static trace *parse(const char *text)
{
    trace *t = NULL;
    if (trace_read_buffer(&t, text, strlen(text), true, msg, sizeof msg) != CUZK_OK)
        fail_msg("%s", msg);
    return t;
}

typedef enum { EXP_PERFETTO, EXP_SVG, EXP_HTML } exp_kind;

static char *export(const trace *t, exp_kind kind, trace_svg_stats *stats, size_t *len_out)
{
    trace_summary *s = NULL;
    assert_int_equal(trace_summarize(&s, t, NULL), CUZK_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cuzk_status st = kind == EXP_PERFETTO ? trace_write_perfetto(f, t)
                     : kind == EXP_SVG    ? trace_write_svg(f, t, s, NULL, stats)
                                          : trace_write_html(f, t, s, NULL);
    assert_int_equal(st, CUZK_OK);
    fclose(f);
    trace_summary_free(s);
    if (len_out)
        *len_out = len;
    return text;
}

/* ---- Perfetto ---- */

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_number(v))
        fail_msg("event without a numeric \"%s\"", key);
    return json_number_value(v);
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        fail_msg("event without a string \"%s\"", key);
    return json_string_value(v);
}

typedef struct slice {
    long pid, tid;
    double ts, end;
} slice;

static int cmp_slice(const void *x, const void *y)
{
    const slice *a = x, *b = y;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Checks the document's structure; returns it (json_decref). */
static json_t *check_perfetto(const trace *t, const char *text)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("not JSON: %s (line %d)", err.text, err.line);
    json_t *events = json_object_get(root, "traceEvents");
    assert_true(json_is_array(events));
    size_t n = json_array_size(events), nx = 0, nc = 0, ni = 0, nb = 0, ne = 0, nthreads = 0;
    slice *slices = calloc(n + 1, sizeof(slice));
    slice *threads = calloc(n + 1, sizeof(slice)); /* (pid, tid) named */
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = str(e, "ph");
        assert_true(json_is_integer(json_object_get(e, "pid")));
        long pid = (long)json_integer_value(json_object_get(e, "pid"));
        str(e, "name");
        if (!strcmp(ph, "M")) {
            assert_true(json_is_object(json_object_get(e, "args")));
            if (!strcmp(str(e, "name"), "thread_name")) {
                str(json_object_get(e, "args"), "name");
                threads[nthreads++] = (slice){pid, (long)num(e, "tid"), 0, 0};
            }
            continue;
        }
        double ts = num(e, "ts");
        assert_true(ts >= 0);
        if (!strcmp(ph, "X")) {
            double dur = num(e, "dur");
            assert_true(dur >= 0);
            str(e, "cat");
            json_t *args = json_object_get(e, "args");
            num(args, "job");
            num(args, "partition");
            num(args, "bytes");
            str(args, "circuit");
            slices[nx++] = (slice){pid, (long)num(e, "tid"), ts, ts + dur};
        } else if (!strcmp(ph, "C")) {
            num(json_object_get(e, "args"), "value");
            nc++;
        } else if (!strcmp(ph, "i")) {
            assert_string_equal(str(e, "s"), "t");
            num(e, "tid");
            ni++;
        } else if (!strcmp(ph, "b") || !strcmp(ph, "e")) {
            str(e, "id");
            str(e, "cat");
            nb += ph[0] == 'b';
            ne += ph[0] == 'e';
        } else {
            fail_msg("unexpected event type %s", ph);
        }
    }
    assert_int_equal(nx, t->span_count);
    assert_int_equal(nc, t->sample_count);
    assert_int_equal(ni, t->job_event_count);
    assert_int_equal(nb, t->job_count);
    assert_int_equal(ne, t->job_count);
    /* every slice's thread is named, and slices of a thread never overlap
     * (the viewers require proper nesting on a thread) */
    qsort(slices, nx, sizeof(slice), cmp_slice);
    for (size_t i = 0; i < nx; i++) {
        bool named = false;
        for (size_t k = 0; k < nthreads && !named; k++)
            named = threads[k].pid == slices[i].pid && threads[k].tid == slices[i].tid;
        assert_true(named);
        if (i && slices[i].pid == slices[i - 1].pid && slices[i].tid == slices[i - 1].tid)
            assert_true(slices[i].ts >= slices[i - 1].end - 1e-9);
    }
    free(slices);
    free(threads);
    return root;
}

static json_t *find_x(json_t *root, const char *name, long job, long partition)
{
    json_t *events = json_object_get(root, "traceEvents"), *e;
    size_t i;
    json_array_foreach(events, i, e)
    {
        json_t *args = json_object_get(e, "args");
        if (!strcmp(str(e, "ph"), "X") && !strcmp(str(e, "name"), name) &&
            json_integer_value(json_object_get(args, "job")) == job &&
            json_integer_value(json_object_get(args, "partition")) == partition)
            return e;
    }
    return NULL;
}

static void test_perfetto(void **state)
{
    (void)state;
    const char *files[] = {FIX "gaps.jsonl", FIX "dip.jsonl", FIX "unknown.jsonl",
                           FIX "malformed.jsonl", FIX "empty.jsonl"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        trace *t = load(files[f]);
        char *text = export(t, EXP_PERFETTO, NULL, NULL);
        json_t *root = check_perfetto(t, text);
        if (f == 0) {
            /* the upload of job 1 partition 1: 60 ms to 70 ms, in microseconds */
            json_t *up = find_x(root, "upload", 1, 1);
            assert_non_null(up);
            assert_true(fabs(num(up, "ts") - 60000.0) < 1e-6);
            assert_true(fabs(num(up, "dur") - 10000.0) < 1e-6);
            assert_string_equal(str(up, "cat"), "copy");
            assert_int_equal(num(json_object_get(up, "args"), "bytes"), 4e9);
            /* A CPU stage's lane is in the log's process (its pid); a
             * device's lanes in a process of the device's own, named
             * after it and the log's pid, and sorted after the log's. */
            json_t *syn = find_x(root, "synthesize", 1, 0);
            assert_int_equal(json_integer_value(json_object_get(syn, "pid")), 4242);
            json_int_t dev_pid = json_integer_value(json_object_get(up, "pid"));
            assert_true(dev_pid != 4242);
            const char *dev_name = NULL;
            long main_sort = -1, dev_sort = -1;
            json_t *evs = json_object_get(root, "traceEvents");
            for (size_t i = 0; i < json_array_size(evs); i++) {
                json_t *ev = json_array_get(evs, i);
                if (strcmp(str(ev, "ph"), "M") != 0)
                    continue;
                json_int_t p = json_integer_value(json_object_get(ev, "pid"));
                json_t *args = json_object_get(ev, "args");
                if (!strcmp(str(ev, "name"), "process_name") && p == dev_pid)
                    dev_name = str(args, "name");
                if (!strcmp(str(ev, "name"), "process_sort_index")) {
                    long v = (long)num(args, "sort_index");
                    if (p == dev_pid)
                        dev_sort = v;
                    else if (p == 4242)
                        main_sort = v;
                }
            }
            assert_non_null(dev_name);
            assert_non_null(strstr(dev_name, "(cuzk pid 4242)"));
            assert_true(main_sort >= 0 && dev_sort > main_sort);
        }
        json_decref(root);
        free(text);
        trace_free(t);
    }
}

/* ---- XML ---- */

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.';
}

static const char *check_entity(const char *p)
{
    static const char *const ok[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
    for (size_t i = 0; i < 5; i++)
        if (!strncmp(p, ok[i], strlen(ok[i])))
            return p + strlen(ok[i]);
    fail_msg("bad entity at: %.20s", p);
    return NULL;
}

typedef struct xml_count {
    size_t elements, span_rects, runs, spans_in_runs, gaps, dips, polylines;
    bool has_script, has_href;
} xml_count;

/* A small checker of well-formed XML: one root, every element closed in
 * order, attribute values quoted, entities known, nothing after the root.
 * Counts the timeline's elements on the way. */
static void check_xml(const char *p, xml_count *c)
{
    char stack[64][32];
    int depth = 0;
    bool root_done = false;
    memset(c, 0, sizeof *c);
    while (*p) {
        if (*p != '<') {
            if (root_done && !isspace((unsigned char)*p))
                fail_msg("text after the root element: %.20s", p);
            p = *p == '&' ? check_entity(p) : p + 1;
            continue;
        }
        if (!strncmp(p, "<?", 2) || !strncmp(p, "<!DOCTYPE", 9)) {
            p = strchr(p, '>');
            assert_non_null(p);
            p++;
            continue;
        }
        if (!strncmp(p, "<!--", 4)) {
            p = strstr(p, "-->");
            assert_non_null(p);
            p += 3;
            continue;
        }
        if (p[1] == '/') {
            p += 2;
            size_t n = 0;
            while (name_char(p[n]))
                n++;
            assert_true(depth > 0);
            depth--;
            if (strlen(stack[depth]) != n || strncmp(stack[depth], p, n))
                fail_msg("</%.*s> closes <%s>", (int)n, p, stack[depth]);
            p += n;
            assert_int_equal(*p, '>');
            p++;
            root_done = depth == 0;
            continue;
        }
        assert_false(root_done);
        p++;
        size_t n = 0;
        while (name_char(p[n]))
            n++;
        assert_true(n > 0 && n < 32);
        char name[32];
        memcpy(name, p, n);
        name[n] = '\0';
        p += n;
        c->elements++;
        c->has_script |= !strcmp(name, "script");
        const char *cls = "";
        long data_n = 0;
        for (;;) {
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '>' || !strncmp(p, "/>", 2))
                break;
            const char *attr = p;
            while (name_char(*p))
                p++;
            assert_true(p > attr);
            size_t an = (size_t)(p - attr);
            assert_int_equal(*p++, '=');
            assert_int_equal(*p++, '"');
            const char *val = p;
            while (*p != '"') {
                assert_true(*p && *p != '<');
                p = *p == '&' ? check_entity(p) : p + 1;
            }
            if (an == 5 && !strncmp(attr, "class", 5))
                cls = val[0] == 's' && val[1] == '"'   ? "s"
                      : val[0] == 'r' && val[1] == '"' ? "r"
                      : !strncmp(val, "gap\"", 4)      ? "gap"
                      : !strncmp(val, "dip\"", 4)      ? "dip"
                                                       : "";
            if (an == 6 && !strncmp(attr, "data-n", 6))
                data_n = strtol(val, NULL, 10);
            if (an == 4 && !strncmp(attr, "href", 4))
                c->has_href = true;
            p++;
        }
        if (!strcmp(name, "rect") && !strcmp(cls, "s"))
            c->span_rects++;
        if (!strcmp(name, "rect") && !strcmp(cls, "r")) {
            c->runs++;
            c->spans_in_runs += (size_t)data_n;
        }
        c->gaps += !strcmp(cls, "gap");
        c->dips += !strcmp(cls, "dip");
        c->polylines += !strcmp(name, "polyline");
        if (*p == '/') {
            p += 2;
            root_done = depth == 0;
        } else {
            assert_true(depth < 64);
            strcpy(stack[depth++], name);
            p++;
        }
    }
    assert_int_equal(depth, 0);
    assert_true(root_done);
}

static void test_svg(void **state)
{
    (void)state;
    trace *t = load(FIX "gaps.jsonl");
    trace_svg_stats st;
    char *svg = export(t, EXP_SVG, &st, NULL);
    xml_count c;
    check_xml(svg, &c);
    assert_int_equal(c.span_rects + c.spans_in_runs, t->span_count);
    assert_int_equal(c.span_rects, st.span_rects);
    assert_int_equal(c.runs, st.runs);
    assert_int_equal(c.gaps, 3);
    assert_false(c.has_script);
    assert_false(c.has_href);
    assert_non_null(strstr(svg, "<title>idle 10.000 ms at 0.060000 s: transfer</title>"));
    assert_non_null(strstr(svg, ">dev0-w1</text>"));
    free(svg);
    trace_free(t);
    t = load(FIX "dip.jsonl");
    svg = export(t, EXP_SVG, &st, NULL);
    check_xml(svg, &c);
    assert_int_equal(c.span_rects + c.spans_in_runs, t->span_count);
    assert_int_equal(c.dips, 1);
    assert_int_equal(c.polylines, 2); /* sm_util, power_w */
    assert_non_null(strstr(svg, "download job 7 partition 3"));
    free(svg);
    trace_free(t);
    t = load(FIX "empty.jsonl");
    svg = export(t, EXP_SVG, &st, NULL);
    check_xml(svg, &c);
    free(svg);
    trace_free(t);
}

static void test_html(void **state)
{
    (void)state;
    trace *t = load(FIX "dip.jsonl");
    char *html = export(t, EXP_HTML, NULL, NULL);
    xml_count c;
    check_xml(html, &c); /* the page is polyglot: HTML5 and well-formed XML */
    assert_int_equal(c.span_rects + c.spans_in_runs, t->span_count);
    assert_false(c.has_script);
    assert_false(c.has_href);
    assert_non_null(strstr(html, "<svg "));
    assert_non_null(strstr(html, "<pre>"));
    assert_non_null(strstr(html, "download (copy) job 7 partition 3"));
    assert_non_null(strstr(html, "class=\"sw\""));
    free(html);
    trace_free(t);
}

/* A lane of n tiny spans spread over a long time, plus a few wide ones. */
static char *crowded_log(size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fputs("{\"type\":\"meta\",\"pid\":1,\"host\":\"h\",\"version\":\"v\"}\n", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f,
                "{\"type\":\"span\",\"name\":\"%s\",\"cat\":\"gpu\",\"job\":%zu,\"partition\":0,"
                "\"worker\":\"dev0-w0\",\"device\":0,\"start_ns\":%zu,\"end_ns\":%zu}\n",
                i % 3 ? "msm_l" : "h", i / 10, i * 1000000, i * 1000000 + 900000);
    fprintf(f,
            "{\"type\":\"span\",\"name\":\"finalize\",\"cat\":\"cpu\",\"job\":0,\"partition\":0,"
            "\"worker\":\"final-0\",\"device\":-1,\"start_ns\":0,\"end_ns\":%zu}\n",
            n * 1000000 / 2);
    fclose(f);
    return text;
}

/* Found by fuzzing: a damaged log (a job line 10^16 ns after the rest)
 * kept the SVG's time axis drawing ticks for tens of seconds. The axis has
 * at most 64 ticks now, each later than the one before. */
static void test_svg_axis_bounded(void **state)
{
    (void)state;
    trace *t = load(CUZK_VECTOR_DIR "/../../fuzz/corpus/trace/svg_axis_far_job_line.jsonl");
    time_t t0 = time(NULL);
    size_t len;
    char *svg = export(t, EXP_SVG, NULL, &len);
    assert_true(time(NULL) - t0 < 5);
    size_t ticks = 0;
    for (const char *p = svg; (p = strstr(p, " s</text>")); p++)
        ticks++;
    assert_true(ticks <= 64);
    free(svg);
    trace_free(t);
}

static void test_svg_merges_subpixel_spans(void **state)
{
    (void)state;
    char *log = crowded_log(20000);
    trace *t = parse(log);
    trace_svg_stats st;
    size_t len;
    char *svg = export(t, EXP_SVG, &st, &len);
    xml_count c;
    check_xml(svg, &c);
    assert_int_equal(c.span_rects + c.spans_in_runs, t->span_count);
    assert_true(c.runs > 0 && c.runs < 2000);
    assert_true(c.span_rects <= 2);
    printf("20000 spans: %zu runs, %zu rectangles, %zu bytes of SVG\n", c.runs, c.span_rects, len);
    assert_true(len < 1000000);
    free(svg);
    trace_free(t);
    free(log);
}

static void test_escaping(void **state)
{
    (void)state;
    const char *log =
        "{\"type\":\"meta\",\"pid\":1,\"host\":\"a<b>&\\\"c'\",\"version\":\"v\"}\n"
        "{\"type\":\"span\",\"name\":\"h<&>\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
        "\"circuit\":\"x\\\"y\\\\z\\u0001\",\"worker\":\"w<1>\",\"device\":0,\"start_ns\":0,"
        "\"end_ns\":5000000}\n"
        "{\"type\":\"job\",\"job\":1,\"state\":\"failed\",\"ts_ns\":6000000,"
        "\"message\":\"<oops> & \\\"bad\\\"\\n second line\"}\n";
    trace *t = parse(log);
    char *svg = export(t, EXP_SVG, NULL, NULL);
    xml_count c;
    check_xml(svg, &c);
    assert_non_null(strstr(svg, "w&lt;1&gt;"));
    free(svg);
    char *html = export(t, EXP_HTML, NULL, NULL);
    check_xml(html, &c);
    free(html);
    char *text = export(t, EXP_PERFETTO, NULL, NULL);
    json_t *root = check_perfetto(t, text);
    json_t *x = find_x(root, "h<&>", 1, 0);
    assert_non_null(x);
    assert_string_equal(str(json_object_get(x, "args"), "circuit"), "x\"y\\z\001");
    json_decref(root);
    free(text);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perfetto), cmocka_unit_test(test_svg),
        cmocka_unit_test(test_html),     cmocka_unit_test(test_svg_merges_subpixel_spans),
        cmocka_unit_test(test_svg_axis_bounded),
        cmocka_unit_test(test_escaping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
