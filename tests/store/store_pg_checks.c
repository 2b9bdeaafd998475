/* The PostgreSQL job store (store/store.h) against a real server, run by
 * test_store_pg.sh, which starts one and sets CUZK_TEST_PG to its URL:
 * the checks every store passes (store_checks.h), on an empty database
 * each; several processes opening one empty database at once apply each
 * migration exactly once; one server per database (a second open waits,
 * then is refused); a schema newer than this cuzk is refused; and a
 * server that cannot be reached is named in the message, without the
 * password. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "store/store.h"
#include "store_checks.h"

static const char *url;

/* Runs sql on a connection of its own; fails the test when it fails. */
static void sql(const char *text)
{
    PGconn *c = PQconnectdb(url);
    if (PQstatus(c) != CONNECTION_OK)
        fail_msg("cannot connect to %s: %s", url, PQerrorMessage(c));
    PGresult *r = PQexec(c, text);
    ExecStatusType t = PQresultStatus(r);
    if (t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK)
        fail_msg("%s: %s", text, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
}

/* An empty database: no tables, no schema version. */
static int empty(void **state)
{
    (void)state;
    sql("SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    return 0;
}

static store *open_store(void)
{
    store *st;
    ok(store_open_postgres(&st, url, msg, sizeof(msg)));
    return st;
}

static cuzk_status open_other(store **st)
{
    return store_open_postgres(st, url, msg, sizeof(msg));
}

/* Eight processes open the empty database at the same moment: each
 * opens it, and cuzk_schema holds every version once. */
static void test_migration_race(void **state)
{
    (void)state;
    enum { N = 8 };
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            close(go[1]);
            char c;
            if (read(go[0], &c, 1) != 0) /* EOF: the start */
                _exit(3);
            store *st;
            char m[512] = "";
            cuzk_status rc = store_open_postgres(&st, url, m, sizeof(m));
            if (rc != CUZK_OK) {
                fprintf(stderr, "child %d: %s\n", i, m);
                _exit(1);
            }
            store_close(st);
            _exit(0);
        }
    }
    close(go[0]);
    close(go[1]);
    for (int i = 0; i < N; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, "SELECT count(*), count(DISTINCT version), min(version),"
                            " max(version) FROM cuzk_schema");
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    long rows = atol(PQgetvalue(r, 0, 0)), versions = atol(PQgetvalue(r, 0, 1));
    assert_true(rows >= 1);
    assert_int_equal(rows, versions);
    assert_int_equal(atol(PQgetvalue(r, 0, 2)), 1);
    assert_int_equal(atol(PQgetvalue(r, 0, 3)), rows);
    PQclear(r);
    PQfinish(c);
}

/* A database migrated by a newer cuzk is not used. */
static void test_newer_schema(void **state)
{
    (void)state;
    store_close(open_store());
    sql("INSERT INTO cuzk_schema (version) VALUES (999)");
    store *st;
    assert_int_equal(store_open_postgres(&st, url, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "schema version 999"));
}

static void test_unreachable(void **state)
{
    (void)state;
    store *st;
    assert_int_equal(store_open_postgres(&st,
                                         "postgresql://cuzk:s3cret@/cuzk?host=/nonexistent/pg"
                                         "&connect_timeout=2",
                                         msg, sizeof(msg)),
                     CUZK_ERR_IO);
    assert_null(st);
    assert_non_null(strstr(msg, "host=/nonexistent/pg"));
    assert_non_null(strstr(msg, "cannot connect"));
    assert_null(strstr(msg, "s3cret"));
}

static void test_urls(void **state)
{
    (void)state;
    assert_true(store_is_postgres_url("postgresql://h/db"));
    assert_true(store_is_postgres_url("postgres://h/db"));
    assert_false(store_is_postgres_url("/var/lib/cuzk"));
    assert_false(store_is_postgres_url("mysql://h/db"));
    assert_false(store_is_postgres_url(NULL));
    char where[512];
    store_postgres_where("postgresql://u:pw-secret@db.example:5433/jobs", where, sizeof(where));
    assert_non_null(strstr(where, "user=u"));
    assert_non_null(strstr(where, "host=db.example"));
    assert_non_null(strstr(where, "port=5433"));
    assert_non_null(strstr(where, "dbname=jobs"));
    assert_null(strstr(where, "pw-secret"));
    store_postgres_where("postgresql://[bad", where, sizeof(where));
    assert_string_equal(where, "(settings libpq cannot parse)");
}

int main(void)
{
    url = getenv("CUZK_TEST_PG");
    if (!url || !*url) {
        fprintf(stderr, "CUZK_TEST_PG is not set: run tests/store/test_store_pg.sh, which "
                        "starts a PostgreSQL server (scripts/install-deps.sh installs it)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_and_keys),
        cmocka_unit_test(test_urls),
        cmocka_unit_test_setup(test_round_trip, empty),
        cmocka_unit_test_setup(test_updates_and_reopen, empty),
        cmocka_unit_test_setup(test_list_and_expire, empty),
        cmocka_unit_test_setup(test_migration_race, empty),
        cmocka_unit_test_setup(test_one_user, empty),
        cmocka_unit_test_setup(test_newer_schema, empty),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
