/* The timing-log reader: the fixtures' contents, unknown types and fields
 * ignored, malformed lines reported with their numbers (or the log refused
 * when strict), empty logs, spans ending before they start, lane order,
 * sub-rows of overlapping spans, several processes in one log. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/trace/"
#define T0 1000000000ULL
#define MS 1000000ULL

static char msg[256];

static trace *load(const char *name, bool strict)
{
    trace *t = NULL;
    cuzk_status st = trace_read_file(&t, name, strict, msg, sizeof msg);
    if (st != CUZK_OK)
        fail_msg("%s: %s: %s", name, cuzk_status_str(st), msg);
    return t;
}

static trace *parse(const char *text, bool strict, cuzk_status want)
{
    trace *t = NULL;
    cuzk_status st = trace_read_buffer(&t, text, strlen(text), strict, msg, sizeof msg);
    if (st != want)
        fail_msg("status %s (%s), expected %s", cuzk_status_str(st), msg, cuzk_status_str(want));
    if (want != CUZK_OK)
        assert_null(t);
    return t;
}

static const char *lane_name(const trace *t, size_t i)
{
    assert_true(i < t->lane_count);
    return t->lanes[i].worker;
}

static void test_valid(void **state)
{
    (void)state;
    trace *t = load(FIX "gaps.jsonl", true);
    assert_int_equal(t->lines, 22);
    assert_int_equal(t->malformed, 0);
    assert_int_equal(t->ignored, 0);
    assert_int_equal(t->span_count, 15);
    assert_int_equal(t->job_event_count, 6);
    assert_int_equal(t->source_count, 1);
    assert_string_equal(t->sources[0].host, "prover-a");
    assert_string_equal(t->sources[0].version, "0.1.0");
    assert_int_equal(t->sources[0].pid, 4242);
    assert_int_equal(t->sources[0].t0_ns, T0);
    /* CPU lanes in pipeline order, then each device's lanes by name */
    const char *order[] = {"queue",   "synth-0", "synth-1", "final-0",
                           "dev0-w0", "dev0-w1", "dev1-w0"};
    assert_int_equal(t->lane_count, 7);
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(lane_name(t, i), order[i]);
    assert_int_equal(t->lanes[3].device, -1);
    assert_int_equal(t->lanes[4].device, 0);
    assert_int_equal(t->lanes[6].device, 1);
    assert_int_equal(t->device_count, 2);
    assert_int_equal(t->devices[0].device, 0);
    assert_int_equal(t->devices[0].first_lane, 4);
    assert_int_equal(t->devices[0].lane_count, 2);
    assert_int_equal(t->devices[1].lane_count, 1);
    /* spans of a lane are contiguous and sorted by start */
    for (size_t l = 0; l < t->lane_count; l++)
        for (uint32_t i = t->lanes[l].first; i < t->lanes[l].first + t->lanes[l].count; i++) {
            assert_int_equal(t->spans[i].lane, l);
            if (i > t->lanes[l].first)
                assert_true(t->spans[i].start_ns >= t->spans[i - 1].start_ns);
        }
    const trace_span *up = NULL;
    for (size_t i = 0; i < t->span_count; i++)
        if (t->spans[i].phase == TRACE_PHASE_UPLOAD)
            up = &t->spans[i];
    assert_non_null(up);
    assert_int_equal(up->cat, TRACE_CAT_COPY);
    assert_int_equal(up->bytes, 4000000000ULL);
    assert_int_equal(up->start_ns, T0 + 60 * MS);
    assert_string_equal(up->circuit, "porep-32g");
    assert_string_equal(lane_name(t, up->lane), "dev0-w1");
    assert_int_equal(t->t_base, T0);
    assert_true(t->has_extent);
    assert_int_equal(t->t_first, T0);
    assert_int_equal(t->t_last, T0 + 116 * MS);
    /* jobs, by first appearance: 3 (its queue wait starts at 0), 1, 2 */
    assert_int_equal(t->job_count, 3);
    int done = 0, failed = 0, cancelled = 0;
    for (size_t i = 0; i < t->job_count; i++) {
        const trace_job *j = &t->jobs[i];
        done += j->state == TRACE_JOB_DONE;
        failed += j->state == TRACE_JOB_FAILED;
        cancelled += j->state == TRACE_JOB_CANCELLED;
        if (j->job == 1) {
            assert_int_equal(j->partitions, 2);
            assert_int_equal(j->partitions_seen, 2);
            assert_string_equal(j->priority, "high");
            assert_int_equal(j->queued_ns, T0);
            assert_int_equal(j->end_ns, T0 + 115 * MS);
        }
        if (j->job == 2)
            assert_string_equal(j->message, "out of memory on device 0");
    }
    assert_int_equal(done + failed + cancelled, 3);
    assert_int_equal(failed, 1);
    trace_free(t);
}

static void test_unknown_types_and_fields(void **state)
{
    (void)state;
    trace *t = load(FIX "unknown.jsonl", true);
    assert_int_equal(t->malformed, 0);
    assert_int_equal(t->ignored, 2); /* heartbeat, alert */
    assert_int_equal(t->span_count, 3);
    assert_int_equal(t->sample_count, 1);
    assert_string_equal(t->series[0].name, "fan_rpm");
    /* an unknown phase and category are kept */
    const trace_span *pre = NULL, *h = NULL;
    for (size_t i = 0; i < t->span_count; i++) {
        if (!strcmp(t->phase_names[t->spans[i].phase], "srs_prefetch"))
            pre = &t->spans[i];
        if (t->spans[i].phase == TRACE_PHASE_H)
            h = &t->spans[i];
    }
    assert_non_null(pre);
    assert_true(pre->phase >= TRACE_PHASE_KNOWN);
    assert_int_equal(pre->cat, TRACE_CAT_OTHER);
    /* circuit and bytes are optional */
    assert_non_null(h);
    assert_string_equal(h->circuit, "");
    assert_int_equal(h->bytes, 0);
    /* an unknown job state is kept; the last state wins */
    assert_int_equal(t->job_event_count, 2);
    assert_int_equal(t->job_events[0].state, TRACE_JOB_OTHER);
    assert_string_equal(t->job_events[0].state_name, "running");
    assert_int_equal(t->job_count, 1);
    assert_int_equal(t->jobs[0].state, TRACE_JOB_DONE);
    trace_free(t);
}

static void test_malformed_lines(void **state)
{
    (void)state;
    trace *t = load(FIX "malformed.jsonl", false);
    const uint32_t bad[] = {3, 4, 6, 7, 8, 10, 11, 12};
    const char *why[] = {"not JSON",
                         "not a JSON object",
                         "\"end_ns\" is missing",
                         "ends before",
                         "\"value\" is not a number",
                         "\"ts_ns\"",
                         "\"type\" is missing",
                         "not JSON"};
    assert_int_equal(t->malformed, 8);
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(t->issues[i].line, bad[i]);
        if (!strstr(t->issues[i].text, why[i]))
            fail_msg("line %u: '%s' does not say '%s'", bad[i], t->issues[i].text, why[i]);
    }
    assert_int_equal(t->lines, 12); /* the blank line does not count */
    assert_int_equal(t->span_count, 2);
    assert_int_equal(t->sample_count, 0);
    assert_int_equal(t->job_event_count, 1);
    trace_free(t);
    /* strict: refused at the first malformed line */
    t = NULL;
    assert_int_equal(trace_read_file(&t, FIX "malformed.jsonl", true, msg, sizeof msg),
                     CUZK_ERR_CORRUPT);
    assert_null(t);
    assert_non_null(strstr(msg, "line 3:"));
}

static void test_empty(void **state)
{
    (void)state;
    trace *t = load(FIX "empty.jsonl", false);
    assert_int_equal(t->lines, 0);
    assert_int_equal(t->span_count, 0);
    assert_int_equal(t->lane_count, 0);
    assert_int_equal(t->device_count, 0);
    assert_false(t->has_extent);
    trace_free(t);
    t = parse("\n  \n\t\r\n", false, CUZK_OK);
    assert_int_equal(t->lines, 0);
    trace_free(t);
    /* strict: an empty log has no meta line */
    parse("", true, CUZK_ERR_CORRUPT);
    assert_non_null(strstr(msg, "empty"));
    assert_int_equal(trace_read_file(&t, FIX "no-such-file.jsonl", false, msg, sizeof msg),
                     CUZK_ERR_IO);
    assert_null(t);
    assert_non_null(strstr(msg, "no-such-file.jsonl"));
}

#define META "{\"type\":\"meta\",\"t0_ns\":0,\"pid\":1,\"host\":\"h\",\"version\":\"v\"}\n"
#define SPAN(worker, dev, a, b)                                                                    \
    "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"                 \
    "\"worker\":\"" worker "\",\"device\":" #dev ",\"start_ns\":" #a ",\"end_ns\":" #b "}\n"

static void test_end_before_start(void **state)
{
    (void)state;
    trace *t = parse(META SPAN("w", 0, 100, 99) SPAN("w", 0, 100, 100), false, CUZK_OK);
    assert_int_equal(t->malformed, 1);
    assert_int_equal(t->issues[0].line, 2);
    assert_non_null(strstr(t->issues[0].text, "ends before it starts"));
    assert_int_equal(t->span_count, 1); /* an empty span is fine */
    trace_free(t);
    parse(META SPAN("w", 0, 100, 99), true, CUZK_ERR_CORRUPT);
    assert_non_null(strstr(msg, "line 2: span ends before it starts"));
}

static void test_wrong_types(void **state)
{
    (void)state;
    const char *lines[] = {
        "{\"type\":3}",
        "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
        "\"worker\":\"w\",\"device\":\"0\",\"start_ns\":1,\"end_ns\":2}",
        "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":8589934592,"
        "\"worker\":\"w\",\"device\":0,\"start_ns\":1,\"end_ns\":2}",
        "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":-1,\"partition\":0,"
        "\"worker\":\"w\",\"device\":0,\"start_ns\":1,\"end_ns\":2}",
        "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
        "\"worker\":\"w\",\"device\":-2,\"start_ns\":1,\"end_ns\":2}",
        "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
        "\"worker\":\"w\",\"device\":0,\"start_ns\":1.5,\"end_ns\":2}",
        "{\"type\":\"span\",\"name\":7,\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
        "\"worker\":\"w\",\"device\":0,\"start_ns\":1,\"end_ns\":2}",
        "{\"type\":\"counter\",\"name\":\"sm_util\",\"device\":0,\"ts_ns\":1,\"value\":null}",
        "{\"type\":\"job\",\"job\":1,\"state\":\"done\"}",
        "{\"type\":\"meta\",\"pid\":\"x\"}",
        "{\"type\":\"span\"} trailing",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s\n", lines[i]);
        trace *t = parse(buf, false, CUZK_OK);
        if (t->malformed != 1)
            fail_msg("accepted: %s", lines[i]);
        trace_free(t);
    }
}

static void test_strict_needs_meta_first(void **state)
{
    (void)state;
    parse(SPAN("w", 0, 1, 2) META, true, CUZK_ERR_CORRUPT);
    assert_non_null(strstr(msg, "meta"));
    trace *t = parse(SPAN("w", 0, 1, 2) META, false, CUZK_OK);
    /* the lines before the first meta line belong to its process */
    assert_int_equal(t->source_count, 1);
    assert_true(t->sources[0].has_meta);
    trace_free(t);
    /* CRLF line ends are fine */
    t = parse("{\"type\":\"meta\",\"pid\":1}\r\n"
              "{\"type\":\"span\",\"name\":\"h\",\"cat\":\"gpu\",\"job\":1,\"partition\":0,"
              "\"worker\":\"w\",\"device\":0,\"start_ns\":1,\"end_ns\":2}\r\n",
              true, CUZK_OK);
    assert_int_equal(t->span_count, 1);
    assert_int_equal(t->malformed, 0);
    trace_free(t);
}

static void test_rows_and_order(void **state)
{
    (void)state;
    /* overlapping spans in one lane take rows first-fit; names sort numerically */
    /* clang-format off */
    static const char log[] = META
        SPAN("dev0-w10", 0, 0, 5)
        SPAN("dev0-w2", 0, 0, 100)
        SPAN("dev0-w2", 0, 10, 50)
        SPAN("dev0-w2", 0, 20, 30)
        SPAN("dev0-w2", 0, 40, 60)
        SPAN("dev0-w2", 0, 100, 110);
    /* clang-format on */
    trace *t = parse(log, true, CUZK_OK);
    assert_int_equal(t->lane_count, 2);
    assert_string_equal(t->lanes[0].worker, "dev0-w2");
    assert_string_equal(t->lanes[1].worker, "dev0-w10");
    const trace_lane *l = &t->lanes[0];
    assert_int_equal(l->count, 5);
    assert_int_equal(l->rows, 3);
    const uint32_t rows[] = {0, 1, 2, 2, 0}; /* [0,100) [10,50) [20,30) [40,60) [100,110) */
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(t->spans[l->first + i].row, rows[i]);
    assert_int_equal(t->lanes[1].rows, 1);
    trace_free(t);
}

static void test_several_processes(void **state)
{
    (void)state;
    /* clang-format off */
    static const char log[] = META
        SPAN("dev0-w0", 0, 0, 5)
        "{\"type\":\"meta\",\"pid\":2,\"host\":\"g\"}\n"
        SPAN("dev0-w0", 0, 3, 9);
    /* clang-format on */
    trace *t = parse(log, true, CUZK_OK);
    assert_int_equal(t->source_count, 2);
    assert_int_equal(t->lane_count, 2);
    assert_int_equal(t->device_count, 2);
    assert_int_equal(t->lanes[0].source, 0);
    assert_int_equal(t->lanes[1].source, 1);
    char label[64];
    trace_device_label(t, 1, 0, label, sizeof label);
    assert_string_equal(label, "g:2/gpu0");
    assert_int_equal(trace_device_find(t, 1, 0), 1);
    assert_int_equal(trace_device_find(t, 1, 3), -1);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_unknown_types_and_fields),
        cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_end_before_start),
        cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_strict_needs_meta_first),
        cmocka_unit_test(test_rows_and_order),
        cmocka_unit_test(test_several_processes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
