/* The SQLite job store (store/store.h): the checks every store passes
 * (store_checks.h), the state folder made private, a store of the first
 * schema migrated, and what was
 * committed survives the process's death by SIGKILL (a child writes and
 * kills itself). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"
#include "store_checks.h"

static char root[64], dir[128];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/cuzk-store-XXXXXX");
    assert_non_null(mkdtemp(root));
    /* Nested: the store makes the missing folders. */
    snprintf(dir, sizeof(dir), "%s/a/cuzk", root);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd);
}

static store *open_store(void)
{
    store *st;
    ok(store_open_sqlite(&st, dir, msg, sizeof(msg)));
    return st;
}

static cuzk_status open_other(store **st)
{
    return store_open_sqlite(st, dir, msg, sizeof(msg));
}

/* The state folder is made private. */
static void test_private_dir(void **state)
{
    (void)state;
    store_close(open_store());
    struct stat sb;
    assert_int_equal(stat(dir, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
}

/* A child commits a job and a batch of proofs, then dies by SIGKILL with
 * the store open: the parent finds all of it. */
static void test_survives_sigkill(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        store *st;
        if (store_open_sqlite(&st, dir, NULL, 0) != CUZK_OK)
            _exit(1);
        store_job job;
        memset(&job, 0, sizeof(job));
        store_new_id(job.id);
        snprintf(job.circuit, sizeof(job.circuit), "p10");
        job.partitions = 2;
        job.submitted_at = 5000;
        store_partition parts[2] = {{.seed = 1}, {.seed = 2}};
        uint8_t proof[GROTH16_PROOF_BYTES];
        memset(proof, 0x5a, sizeof(proof));
        store_update u = {
            .kind = STORE_PARTITION_DONE, .idx = 1, .proof = proof, .proof_len = sizeof(proof)};
        memcpy(u.id, job.id, sizeof(job.id));
        if (store_add(st, &job, parts, NULL, NULL, 0) != CUZK_OK ||
            store_write(st, &u, 1, NULL, 0) != CUZK_OK)
            _exit(1);
        if (write(fds[1], job.id, STORE_ID_CHARS) != STORE_ID_CHARS)
            _exit(1);
        raise(SIGKILL);
        _exit(2);
    }
    close(fds[1]);
    char id[STORE_ID_CHARS + 1] = "";
    assert_int_equal(read(fds[0], id, STORE_ID_CHARS), STORE_ID_CHARS);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    store *st = open_store();
    store_job got;
    store_partition *parts;
    ok(store_get(st, id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.partitions_done, 1);
    assert_int_equal(parts[1].state, ENGINE_STATE_DONE);
    assert_int_equal(parts[1].proof[0], 0x5a);
    assert_int_equal(parts[0].state, ENGINE_STATE_QUEUED);
    store_partitions_free(parts, got.partitions);
    store_close(st);
}

/* A row damaged by hand (a partition count of 2^32 - 1, a state past the
 * last) is refused when read, naming the job and the column; nothing is
 * sized by it. Found by fuzz_store_recovery: the count sized a calloc. */
static void test_damaged_row(void **state)
{
    (void)state;
    store *st = open_store();
    store_job job;
    add_job(st, &job, NULL, 1000);
    store_close(st);
    static const char *const edits[] = {
        "UPDATE jobs SET partitions = -1", "UPDATE jobs SET partitions = 0",
        "UPDATE jobs SET partitions = 3, state = 99", "UPDATE jobs SET state = 0, priority = -5",
        "UPDATE jobs SET priority = 1, curve = 7"};
    static const char *const names[] = {"partition count", "partition count", "state", "priority",
                                        "curve"};
    for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
        char path[200];
        snprintf(path, sizeof(path), "%s/jobs.sqlite", dir);
        sqlite3 *db = NULL;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        assert_int_equal(sqlite3_exec(db, edits[i], NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        st = open_store();
        store_job row;
        store_partition *parts = NULL;
        msg[0] = 0;
        assert_int_equal(store_get(st, job.id, &row, &parts, msg, sizeof(msg)), CUZK_ERR_CORRUPT);
        assert_null(parts);
        assert_non_null(strstr(msg, job.id));
        assert_non_null(strstr(msg, names[i]));
        store_close(st);
    }
}

/* A store of schema version 1 (before jobs had a curve), with a proved
 * partition: opened, it is migrated to version 2, its job is
 * BLS12-381's and its 192-byte proof reads back. */
static void test_migrate_v1(void **state)
{
    (void)state;
    char path[200];
    snprintf(path, sizeof(path), "%s/jobs.sqlite", dir);
    char parent[160];
    snprintf(parent, sizeof(parent), "%s/a", root);
    assert_int_equal(mkdir(parent, 0700), 0);
    assert_int_equal(mkdir(dir, 0700), 0);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    static const char v1[] =
        "CREATE TABLE jobs (id TEXT PRIMARY KEY, idem_key TEXT UNIQUE, circuit TEXT NOT NULL,"
        " priority INTEGER NOT NULL, partitions INTEGER NOT NULL, timeout_s REAL NOT NULL,"
        " blinding BLOB, state INTEGER NOT NULL, message TEXT NOT NULL DEFAULT '',"
        " submitted_at REAL NOT NULL, finished_at REAL NOT NULL DEFAULT 0);"
        "CREATE TABLE partitions (job TEXT NOT NULL, idx INTEGER NOT NULL, seed INTEGER NOT NULL,"
        " wtns_path TEXT, witness BLOB, state INTEGER NOT NULL, proof BLOB, public BLOB,"
        " PRIMARY KEY (job, idx)) WITHOUT ROWID;"
        "CREATE INDEX jobs_final ON jobs (state, finished_at);"
        "INSERT INTO jobs (id, circuit, priority, partitions, timeout_s, state, submitted_at)"
        " VALUES ('0123456789abcdef0123456789abcdef', 'p10', 2, 1, 0, 0, 10);"
        "INSERT INTO partitions (job, idx, seed, state, proof)"
        " VALUES ('0123456789abcdef0123456789abcdef', 0, 5, 4, zeroblob(192));"
        "PRAGMA user_version = 1;";
    assert_int_equal(sqlite3_exec(db, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store *st = open_store();
    store_job job;
    store_partition *parts;
    ok(store_get(st, "0123456789abcdef0123456789abcdef", &job, &parts, msg, sizeof(msg)));
    assert_int_equal(job.curve, CURVE_BLS12_381);
    assert_int_equal(job.partitions_done, 1);
    assert_int_equal(parts[0].state, ENGINE_STATE_DONE);
    assert_int_equal(parts[0].proof_len, GROTH16_PROOF_BYTES);
    store_partitions_free(parts, job.partitions);
    store_close(st);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 2);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

static void test_default_dir(void **state)
{
    (void)state;
    char out[256];
    setenv("XDG_STATE_HOME", "/x/state", 1);
    store_default_dir(out, sizeof(out));
    assert_string_equal(out, "/x/state/cuzk");
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/home/u", 1);
    store_default_dir(out, sizeof(out));
    assert_string_equal(out, "/home/u/.local/state/cuzk");
}

static void test_not_a_folder(void **state)
{
    (void)state;
    char file[200];
    snprintf(file, sizeof(file), "%s/file", root);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    store *st;
    assert_int_not_equal(store_open_sqlite(&st, file, msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "not a folder"));
}

/* One server per store: a second open is refused while the first holds
 * it, and taken once it is closed. */
static void test_one_user(void **state)
{
    (void)state;
    store *a = open_store(), *b;
    assert_int_equal(open_other(&b), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "in use by another cuzk serve"));
    /* one host only: no cluster operations */
    assert_null(store_cluster(a));
    store_close(a);
    b = open_store();
    store_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_and_keys),
        cmocka_unit_test_setup_teardown(test_private_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_updates_and_reopen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_and_expire, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bn254_proofs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_survives_sigkill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_user, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_row, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
        cmocka_unit_test(test_default_dir),
        cmocka_unit_test_setup_teardown(test_not_a_folder, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
