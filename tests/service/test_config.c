/* The configuration of `cuzk serve`: defaults, every section and type, the
 * command line on top of the file, errors that name the file, line and
 * key, the checks that need the whole picture, and docs/CONFIG.md listing
 * every key the parser knows. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "util/byte_size.h"

static char msg[1024];

static void load_ok(cuzk_config *c, const char *text)
{
    cuzk_status st = cuzk_config_load_string(c, text, "t.ini", msg, sizeof(msg));
    if (st != CUZK_OK)
        fail_msg("%s", msg);
}

/* Loads text into a fresh config, expects a failure whose message holds
 * every one of the NULL-terminated fragments. */
static void load_fails(const char *text, ...)
{
    cuzk_config c;
    cuzk_config_init(&c);
    msg[0] = 0;
    assert_int_not_equal(cuzk_config_load_string(&c, text, "t.ini", msg, sizeof(msg)), CUZK_OK);
    va_list ap;
    va_start(ap, text);
    for (const char *want; (want = va_arg(ap, const char *));)
        if (!strstr(msg, want))
            fail_msg("message '%s' lacks '%s'", msg, want);
    va_end(ap);
    cuzk_config_free(&c);
}

static void test_defaults(void **state)
{
    (void)state;
    cuzk_config c;
    cuzk_config_init(&c);
    engine_config d;
    engine_config_default(&d);
    assert_int_equal(c.engine.workers_per_device, d.workers_per_device);
    assert_int_equal(c.engine.retries, d.retries);
    assert_int_equal(c.engine.keep_finished, d.keep_finished);
    assert_true(c.engine.verify);
    assert_null(c.engine.event_log);
    char sock[4096];
    config_default_socket(sock, sizeof(sock));
    assert_string_equal(c.server.socket_path, sock);
    assert_int_equal(c.server.socket_mode, 0600);
    assert_null(c.server.tcp_address);
    assert_int_equal(c.server.max_json_bytes, 1 << 20);
    assert_int_equal(c.server.max_body_bytes, 64 << 20);
    assert_true(c.server.max_wait_s == 60);
    assert_int_equal(c.num_circuits, 0);
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    cuzk_config_free(&c);
}

static void test_every_section(void **state)
{
    (void)state;
    cuzk_config c;
    cuzk_config_init(&c);
    load_ok(&c, "# a comment\n"
                "; another\n"
                "[engine]\n"
                "backend = cpu\n"
                "synth_workers = 3\n"
                "expected_log_rows = 24\n"
                "workers_per_device = 1\n"
                "queue_bound = 5\n"
                "buffer_budget = 512M\n"
                "resident_budget = 2GiB\n"
                "abc_eval = synthesis\n"
                "verify = false\n"
                "retries = 0\n"
                "default_timeout_s = 2.5\n"
                "keep_finished = 7\n"
                "event_log = /tmp/ev.jsonl\n"
                "telemetry_interval_ms = 0\n"
                "\n"
                "[server]\n"
                "socket = /tmp/x.sock\n"
                "socket_mode = 0660\n"
                "tcp = 127.0.0.1:9090\n"
                "token_file = /etc/cuzk/token\n"
                "max_json_bytes = 4K\n"
                "max_wait_s = 5\n"
                "shutdown_grace_s = 30 ; inline comment\n"
                "[circuit porep-10]\n"
                "kind = builtin\n"
                "log_constraints = 10\n"
                "params = /p/k10.params\n"
                "preload = yes\n"
                "[circuit chain]\n"
                "kind = zkey\n"
                "zkey = /z/chain.zkey\n"
                "check = subgroup\n");
    assert_int_equal(c.engine.backend, BACKEND_CPU);
    assert_int_equal(c.engine.synth_workers, 3);
    assert_int_equal(c.engine.expected_log_rows, 24);
    assert_int_equal(c.engine.workers_per_device, 1);
    assert_int_equal(c.engine.queue_bound, 5);
    assert_int_equal(c.engine.buffer_budget, 512ull << 20);
    assert_int_equal(c.engine.resident_budget, 2ull << 30);
    assert_int_equal(c.engine.abc_eval, ENGINE_ABC_SYNTHESIS);
    assert_false(c.engine.verify);
    assert_int_equal(c.engine.retries, 0);
    assert_true(c.engine.default_timeout_s == 2.5);
    assert_int_equal(c.engine.keep_finished, 7);
    assert_string_equal(c.engine.event_log, "/tmp/ev.jsonl");
    assert_int_equal(c.engine.telemetry_interval_ms, 0);
    assert_string_equal(c.server.socket_path, "/tmp/x.sock");
    assert_int_equal(c.server.socket_mode, 0660);
    assert_string_equal(c.server.tcp_address, "127.0.0.1:9090");
    assert_string_equal(c.server.token_file, "/etc/cuzk/token");
    assert_int_equal(c.server.max_json_bytes, 4096);
    assert_true(c.server.max_wait_s == 5);
    assert_true(c.server.shutdown_grace_s == 30);
    assert_int_equal(c.num_circuits, 2);
    assert_string_equal(c.circuits[0].name, "porep-10");
    assert_int_equal(c.circuits[0].kind, CIRCUIT_BUILTIN);
    assert_int_equal(c.circuits[0].log_constraints, 10);
    assert_int_equal(c.circuits[0].arity, 8);
    assert_string_equal(c.circuits[0].params_path, "/p/k10.params");
    assert_true(c.circuits[0].preload);
    assert_int_equal(c.circuits[0].check, FORMATS_CHECK_CURVE);
    assert_string_equal(c.circuits[0].origin, "t.ini:28");
    assert_int_equal(c.circuits[1].kind, CIRCUIT_ZKEY);
    assert_string_equal(c.circuits[1].zkey_path, "/z/chain.zkey");
    assert_int_equal(c.circuits[1].check, FORMATS_CHECK_SUBGROUP);
    assert_false(c.circuits[1].preload);
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    circuit_spec spec;
    assert_int_equal(config_circuit_spec(&c.circuits[0], &spec, msg, sizeof(msg)), CUZK_OK);
    assert_string_equal(spec.params_path, "/p/k10.params");
    assert_true(spec.shape.challenges >= 1);

    /* The command line on top: later wins, a circuit's section by name. */
    assert_int_equal(cuzk_config_set(&c, "engine.retries=4", "cl", msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(c.engine.retries, 4);
    assert_int_equal(cuzk_config_set(&c, "circuit chain.check=none", "cl", msg, sizeof(msg)),
                     CUZK_OK);
    assert_int_equal(c.circuits[1].check, FORMATS_CHECK_NONE);
    assert_int_equal(cuzk_config_set(&c, "engine.event_log=", "cl", msg, sizeof(msg)), CUZK_OK);
    assert_null(c.engine.event_log);
    assert_int_equal(cuzk_config_set(&c, "circuit v1.2.kind=zkey", "cl", msg, sizeof(msg)),
                     CUZK_OK);
    assert_int_equal(c.num_circuits, 3);
    assert_string_equal(c.circuits[2].name, "v1.2");
    /* It has no zkey yet: the whole-picture check names it. */
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "[circuit v1.2]"));
    assert_non_null(strstr(msg, "'zkey'"));
    cuzk_config_free(&c);
}

static void test_errors_name_file_line_key(void **state)
{
    (void)state;
    load_fails("[engine]\nretries = 1\nsynth_workrs = 2\n", "t.ini:3", "unknown key",
               "'synth_workrs'", NULL);
    load_fails("[engine]\n\n\nretries = lots\n", "t.ini:4", "'retries'", "whole number", "'lots'",
               NULL);
    load_fails("[engine]\nretries = -1\n", "t.ini:2", "'retries'", NULL);
    load_fails("[engine]\nretries = 101\n", "t.ini:2", "0 to 100", NULL);
    load_fails("[engine]\nverify = maybe\n", "t.ini:2", "'verify'", "true or false", NULL);
    load_fails("[engine]\nbackend = tpu\n", "t.ini:2", "auto, cpu or cuda", NULL);
    load_fails("[engine]\nabc_eval = gpu\n", "t.ini:2", "auto, synthesis or backend", NULL);
    load_fails("[engine]\nbuffer_budget = 12X\n", "t.ini:2", "'buffer_budget'", "size", NULL);
    load_fails("[engine]\ndefault_timeout_s = -3\n", "t.ini:2", "seconds", NULL);
    load_fails("[server]\nsocket_mode = 0999\n", "t.ini:2", "octal", NULL);
    load_fails("[engines]\nretries = 1\n", "t.ini:2", "unknown section [engines]", NULL);
    load_fails("retries = 1\n", "t.ini:1", "outside a section", "'retries'", NULL);
    load_fails("[engine]\nretries 1\n", "t.ini:2", "syntax error", NULL);
    load_fails("[engine]\n[circuit a/b]\nkind = zkey\n", "t.ini:3", "[circuit a/b]", NULL);
    load_fails("[circuit x]\nkind = plonk\n", "t.ini:2", "builtin or zkey", NULL);
    load_fails("[circuit x]\ncheck = all\n", "t.ini:2", "none, curve or subgroup", NULL);
    /* A long line (a deep path) still counts as one. */
    char text[2048];
    snprintf(text, sizeof(text), "[server]\nsocket = /%0900d\nbogus = 1\n", 7);
    load_fails(text, "t.ini:3", "'bogus'", NULL);

    cuzk_config c;
    cuzk_config_init(&c);
    assert_int_not_equal(cuzk_config_load(&c, "/nonexistent/cuzk.ini", msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "/nonexistent/cuzk.ini"));
    assert_int_not_equal(cuzk_config_set(&c, "retries=1", "command line", msg, sizeof(msg)),
                         CUZK_OK);
    assert_non_null(strstr(msg, "section.key=value"));
    assert_int_not_equal(cuzk_config_set(&c, "engine.nope=1", "command line", msg, sizeof(msg)),
                         CUZK_OK);
    assert_non_null(strstr(msg, "command line"));
    assert_non_null(strstr(msg, "'nope'"));
    cuzk_config_free(&c);
}

static void test_whole_picture_checks(void **state)
{
    (void)state;
    cuzk_config c;
    cuzk_config_init(&c);
    load_ok(&c, "[server]\ntcp = 127.0.0.1:0\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "token_file"));
    assert_non_null(strstr(msg, "insecure_no_token"));
    load_ok(&c, "[server]\ninsecure_no_token = true\n");
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    cuzk_config_free(&c);

    cuzk_config_init(&c);
    load_ok(&c, "\n[circuit b]\nlog_constraints = 10\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "t.ini:3"));
    assert_non_null(strstr(msg, "'kind' is missing"));
    load_ok(&c, "[circuit b]\nkind = builtin\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "'params'"));
    load_ok(&c, "[circuit b]\nparams = /x\nlog_constraints = 3\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "no such built-in circuit"));
    load_ok(&c, "[circuit b]\nlog_constraints = 12\n");
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    cuzk_config_free(&c);

    /* An await that may not wait would be asked again at once, forever. */
    cuzk_config_init(&c);
    load_ok(&c, "[server]\nmax_wait_s = 0\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "max_wait_s"));
    load_ok(&c, "[server]\nmax_wait_s = 0.5\n");
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    cuzk_config_free(&c);

    /* Development parameters: "dev:SEED", a bad seed named with its circuit. */
    cuzk_config_init(&c);
    load_ok(&c, "[circuit d]\nkind = builtin\nlog_constraints = 10\nparams = dev:42\n");
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    circuit_spec spec;
    assert_int_equal(config_circuit_spec(&c.circuits[0], &spec, msg, sizeof(msg)), CUZK_OK);
    assert_string_equal(spec.params_path, "dev:42");
    load_ok(&c, "[circuit d]\nparams = dev:4x2\n");
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "[circuit d]"));
    assert_non_null(strstr(msg, "'dev:4x2'"));
    assert_non_null(strstr(msg, "dev:SEED"));
    cuzk_config_free(&c);
}

/* The keys of the service's hardening, with their defaults. */
static void test_bounds_and_folders(void **state)
{
    (void)state;
    cuzk_config c;
    cuzk_config_init(&c);
    assert_true(c.server.header_timeout_s > 0);
    assert_true(c.server.max_connections_per_address > 0);
    assert_true(c.server.max_queued_jobs > 0);
    assert_int_equal(c.server.max_queued_partitions, 65536);
    assert_true(c.server.max_queued_bytes > 0);
    assert_null(c.server.circuit_dir);
    load_ok(&c, "[server]\ncircuit_dir = /srv/c\nheader_timeout_s = 2.5\n"
                "max_connections_per_address = 3\nmax_unauthenticated = 5\n"
                "max_queued_jobs = 7\nmax_queued_partitions = 100\nmax_queued_bytes = 1M\n");
    assert_string_equal(c.server.circuit_dir, "/srv/c");
    assert_true(c.server.header_timeout_s == 2.5);
    assert_int_equal(c.server.max_connections_per_address, 3);
    assert_int_equal(c.server.max_unauthenticated, 5);
    assert_int_equal(c.server.max_queued_jobs, 7);
    assert_int_equal(c.server.max_queued_partitions, 100);
    assert_int_equal(c.server.max_queued_bytes, 1 << 20);
    cuzk_config_free(&c);
}

/* The spill folder of streamed witnesses and its threshold: defaults, a
 * size with a suffix, the flag's key, and errors naming the key. */
static void test_witness_spill(void **state)
{
    (void)state;
    cuzk_config c;
    cuzk_config_init(&c);
    assert_null(c.server.witness_spill_dir);
    assert_int_equal(c.server.witness_inline_max, 1 << 20);
    load_ok(&c, "[server]\nwitness_spill_dir = /shared/spill\nwitness_inline_max = 64K\n");
    assert_string_equal(c.server.witness_spill_dir, "/shared/spill");
    assert_int_equal(c.server.witness_inline_max, 64 << 10);
    assert_int_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    /* 0: every streamed witness spills */
    assert_int_equal(
        cuzk_config_set(&c, "server.witness_inline_max=0", "command line", msg, sizeof(msg)),
        CUZK_OK);
    assert_int_equal(c.server.witness_inline_max, 0);
    /* An empty value unsets the folder, as for every path key. */
    assert_int_equal(
        cuzk_config_set(&c, "server.witness_spill_dir=", "command line", msg, sizeof(msg)),
        CUZK_OK);
    assert_null(c.server.witness_spill_dir);
    /* A relative folder is no path every host shares. */
    assert_int_equal(
        cuzk_config_set(&c, "server.witness_spill_dir=spill", "command line", msg, sizeof(msg)),
        CUZK_OK);
    assert_int_not_equal(cuzk_config_check(&c, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "witness_spill_dir"));
    assert_non_null(strstr(msg, "absolute"));
    assert_non_null(strstr(msg, "'spill'"));
    cuzk_config_free(&c);
    load_fails("[server]\nwitness_inline_max = 1.5M\n", "t.ini:2", "'witness_inline_max'",
               "size in bytes", "'1.5M'", NULL);
    load_fails("[server]\n\nwitness_inline_max = -1\n", "t.ini:3", "'witness_inline_max'", NULL);
    load_fails("[server]\nwitness_spill_dirs = /x\n", "t.ini:2", "unknown key",
               "'witness_spill_dirs'", NULL);
}

/* A configuration file must be a regular file: a folder opens and reads
 * as empty (a silent default configuration), a FIFO blocks the start. */
static void test_file_must_be_regular(void **state)
{
    (void)state;
    char dir[] = "/tmp/cuzk-config-XXXXXX";
    assert_non_null(mkdtemp(dir));
    cuzk_config c;
    cuzk_config_init(&c);
    assert_int_equal(cuzk_config_load(&c, dir, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a folder"));
    char fifo[64];
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(cuzk_config_load(&c, fifo, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a FIFO"));
    unlink(fifo);
    rmdir(dir);
    cuzk_config_free(&c);
}

/* Without $XDG_RUNTIME_DIR the socket lies in a folder of its own under
 * $TMPDIR (else /tmp), not in the shared folder itself. */
static void test_default_socket_folder(void **state)
{
    (void)state;
    char *run = getenv("XDG_RUNTIME_DIR") ? strdup(getenv("XDG_RUNTIME_DIR")) : NULL;
    unsetenv("XDG_RUNTIME_DIR");
    setenv("TMPDIR", "/some/tmp", 1);
    char sock[4096], want[128];
    config_default_socket(sock, sizeof(sock));
    snprintf(want, sizeof(want), "/some/tmp/cuzk-%u/cuzk.sock", (unsigned)getuid());
    assert_string_equal(sock, want);
    unsetenv("TMPDIR");
    config_default_socket(sock, sizeof(sock));
    snprintf(want, sizeof(want), "/tmp/cuzk-%u/cuzk.sock", (unsigned)getuid());
    assert_string_equal(sock, want);
    setenv("XDG_RUNTIME_DIR", "/run/user/7", 1);
    config_default_socket(sock, sizeof(sock));
    assert_string_equal(sock, "/run/user/7/cuzk.sock");
    if (run)
        setenv("XDG_RUNTIME_DIR", run, 1);
    else
        unsetenv("XDG_RUNTIME_DIR");
    free(run);
}

static void test_bytes(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(parse_byte_size("0", &v) && v == 0);
    assert_true(parse_byte_size("4096", &v) && v == 4096);
    assert_true(parse_byte_size("4096B", &v) && v == 4096);
    assert_true(parse_byte_size("2K", &v) && v == 2048);
    assert_true(parse_byte_size("3m", &v) && v == 3ull << 20);
    assert_true(parse_byte_size("5GiB", &v) && v == 5ull << 30);
    assert_true(parse_byte_size("1TB", &v) && v == 1ull << 40);
    assert_false(parse_byte_size("", &v));
    assert_false(parse_byte_size("-1", &v));
    assert_false(parse_byte_size("1.5G", &v));
    assert_false(parse_byte_size("1 G", &v));
    assert_false(parse_byte_size("1Gb", &v));
    assert_false(parse_byte_size("99999999999T", &v));
    assert_false(parse_byte_size("18446744073709551616", &v));
}

/* docs/CONFIG.md has one table with every key as `section.key` (circuit
 * keys as `circuit NAME.key`), and no key the parser does not know. */
static void test_docs_list_every_key(void **state)
{
    (void)state;
    const char *path = CUZK_VECTOR_DIR "/../../docs/CONFIG.md";
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s", path);
    static char doc[1 << 17];
    size_t n = fread(doc, 1, sizeof(doc) - 1, f);
    doc[n] = 0;
    fclose(f);
    const char *section, *key;
    size_t count = 0;
    for (size_t i = 0; config_key_at(i, &section, &key); i++, count++) {
        char want[128];
        if (!strcmp(section, "circuit"))
            snprintf(want, sizeof(want), "| `circuit NAME.%s` |", key);
        else
            snprintf(want, sizeof(want), "| `%s.%s` |", section, key);
        if (!strstr(doc, want))
            fail_msg("%s lacks the row %s", path, want);
    }
    /* And the table has no more rows than keys. */
    size_t rows = 0;
    for (const char *p = doc; (p = strstr(p, "\n| `")); p++)
        rows++;
    assert_int_equal(rows, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_section),
        cmocka_unit_test(test_errors_name_file_line_key),
        cmocka_unit_test(test_whole_picture_checks),
        cmocka_unit_test(test_bounds_and_folders),
        cmocka_unit_test(test_witness_spill),
        cmocka_unit_test(test_file_must_be_regular),
        cmocka_unit_test(test_default_socket_folder),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_docs_list_every_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
