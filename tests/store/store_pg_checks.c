/* The PostgreSQL job store (store/store.h) against a real server, run by
 * test_store_pg.sh, which starts one and sets CUZK_TEST_PG to its URL:
 * the checks every store passes (store_checks.h), on an empty database
 * each; several processes opening one empty database at once apply each
 * migration exactly once; several hosts on one database (claims in
 * priority order of their circuits only, leases renewed and expiring, the
 * first proof staying, exactly one writer making a job done, failures up
 * to the limit, a cancel notified, spilled witnesses handed over for
 * removal once their job is final); a schema newer than this cuzk is refused; and a
 * server that cannot be reached is named in the message, without the
 * password. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

/* ------------------------------------------------------------- cluster */

/* A job of n seeded partitions of circuit at priority p. */
static void add_plain(store *st, store_job *j, const char *circuit, engine_priority p, uint32_t n)
{
    memset(j, 0, sizeof(*j));
    assert_true(store_new_id(j->id));
    snprintf(j->circuit, sizeof(j->circuit), "%s", circuit);
    j->priority = p;
    j->partitions = n;
    j->state = ENGINE_STATE_QUEUED;
    j->submitted_at = 1000;
    store_partition parts[8] = {{0}};
    assert_true(n <= 8);
    for (uint32_t i = 0; i < n; i++)
        parts[i].seed = i;
    ok(store_add(st, j, parts, NULL, msg, sizeof(msg)));
}

static const char *const p10[] = {"p10"};

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static uint32_t claim(store *st, const char *host, uint32_t max, double lease_s, store_lease *out)
{
    uint32_t n = 0;
    ok(store_cluster(st)->claim(st, host, p10, 1, max, lease_s, out, &n, msg, sizeof(msg)));
    store_leases_free(out, n); /* their ids and indices stay */
    return n;
}

static bool complete(store *st, const char *host, const char *id, uint32_t idx, uint8_t tag)
{
    uint8_t proof[GROTH16_PROOF_BYTES];
    memset(proof, tag, sizeof(proof));
    fr_t pub;
    fill(&pub, 1, tag);
    store_update u = {.kind = STORE_PARTITION_DONE,
                      .idx = idx,
                      .proof = proof,
                      .proof_len = sizeof(proof),
                      .pub = &pub,
                      .num_pub = 1};
    snprintf(u.id, sizeof(u.id), "%s", id);
    bool finished = false;
    ok(store_cluster(st)->complete(st, host, &u, &finished, msg, sizeof(msg)));
    return finished;
}

static bool has(const store_lease *l, uint32_t n, const char *id, uint32_t idx)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(l[i].id, id) && l[i].idx == idx)
            return true;
    return false;
}

/* A lease carries its job's row and its partition's input, and only
 * that partition's: a seed, a witness path, a streamed witness. */
static void test_lease_inputs(void **state)
{
    (void)state;
    store *a = open_store();
    store_job j = {0};
    assert_true(store_new_id(j.id));
    snprintf(j.circuit, sizeof(j.circuit), "p10");
    j.priority = ENGINE_PRIORITY_HIGH;
    j.partitions = 3;
    j.timeout_s = 42;
    j.has_blinding = true;
    fill(&j.r, 1, 0x31);
    fill(&j.s, 1, 0x32);
    j.submitted_at = 1000;
    fr_t w[5];
    fill(w, 5, 9);
    store_partition in[3] = {
        {.seed = 77}, {.wtns_path = "/shared/w1.wtns"}, {.witness = w, .witness_len = 5}};
    ok(store_add(a, &j, in, NULL, msg, sizeof(msg)));
    store_lease l[4];
    uint32_t n = 0;
    ok(store_cluster(a)->claim(a, "h1", p10, 1, 4, 30, l, &n, msg, sizeof(msg)));
    assert_int_equal(n, 3);
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(l[i].id, j.id);
        assert_string_equal(l[i].job.circuit, "p10");
        assert_int_equal(l[i].job.priority, ENGINE_PRIORITY_HIGH);
        assert_int_equal(l[i].job.partitions, 3);
        assert_true(l[i].job.timeout_s == 42);
        assert_true(l[i].job.has_blinding);
        assert_memory_equal(&l[i].job.r, &j.r, sizeof(fr_t));
        assert_memory_equal(&l[i].job.s, &j.s, sizeof(fr_t));
        const store_partition *p = &l[i].input;
        if (l[i].idx == 0) {
            assert_int_equal(p->seed, 77);
            assert_null(p->wtns_path);
            assert_null(p->witness);
        } else if (l[i].idx == 1) {
            assert_string_equal(p->wtns_path, "/shared/w1.wtns");
            assert_null(p->witness);
        } else {
            assert_int_equal(l[i].idx, 2);
            assert_null(p->wtns_path);
            assert_int_equal(p->witness_len, 5);
            assert_memory_equal(p->witness, w, sizeof(w));
        }
    }
    store_leases_free(l, n);
    assert_null(l[2].input.witness);
    store_close(a);
}

/* A job's row tells how many of its partitions a host proves now and how
 * often they were claimed; a partition's, whether it is leased now and
 * to whom, or who proved it. */
static void test_running_view(void **state)
{
    (void)state;
    store *a = open_store();
    store_job j, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
    store_lease l[2];
    assert_int_equal(claim(a, "h1", 1, 1, l), 1); /* partition 0, for 1 s */
    store_partition *parts;
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_QUEUED);
    assert_int_equal(got.partitions_running, 1);
    assert_int_equal(got.attempts, 1);
    assert_int_equal(parts[0].state, ENGINE_STATE_PROVING);
    assert_string_equal(parts[0].host, "h1");
    assert_int_equal(parts[1].state, ENGINE_STATE_QUEUED);
    assert_null(parts[1].host);
    store_partitions_free(parts, 2);
    pause_ms(1300); /* h1's lease runs out: claimed again by h2 */
    ok(store_get(a, j.id, &got, NULL, msg, sizeof(msg)));
    assert_int_equal(got.partitions_running, 0);
    assert_int_equal(claim(a, "h2", 2, 30, l), 2);
    assert_false(complete(a, "h2", j.id, 0, 0x51));
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.partitions_running, 1);
    assert_int_equal(got.partitions_done, 1);
    assert_int_equal(got.attempts, 3);
    assert_int_equal(parts[0].state, ENGINE_STATE_DONE);
    assert_string_equal(parts[0].host, "h2");
    assert_int_equal(parts[1].state, ENGINE_STATE_PROVING);
    store_partitions_free(parts, 2);
    store_close(a);
}

/* The shared queue's bound: an add past it is refused saying how full
 * the queue is, whichever host's store adds; a proof or a cancel makes
 * room; a duplicate key still answers its job. */
static void test_queue_bound(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    store_cluster(a)->bound_queue(a, 3);
    store_cluster(b)->bound_queue(b, 3);
    store_job j;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
    store_job big = {.partitions = 2, .submitted_at = 1000};
    assert_true(store_new_id(big.id));
    snprintf(big.circuit, sizeof(big.circuit), "p10");
    store_partition in[2] = {{0}};
    assert_int_equal(store_add(b, &big, in, NULL, msg, sizeof(msg)), STORE_QUEUE_FULL);
    assert_non_null(strstr(msg, "the shared queue is full: 2 partitions"));
    assert_non_null(strstr(msg, "is 3"));
    assert_false(complete(a, "h1", j.id, 0, 0x61)); /* one left: room for 2 */
    ok(store_add(b, &big, in, NULL, msg, sizeof(msg)));
    store_job one = big; /* full again: 3 open */
    one.partitions = 1;
    assert_true(store_new_id(one.id));
    assert_int_equal(store_add(a, &one, in, NULL, msg, sizeof(msg)), STORE_QUEUE_FULL);
    bool changed = false;
    ok(store_cluster(a)->finish(a, j.id, ENGINE_STATE_CANCELLED, "cancelled", &changed, msg,
                                sizeof(msg)));
    ok(store_add(a, &one, in, NULL, msg, sizeof(msg))); /* its partition left the queue */
    store_close(a);
    store_close(b);
}

/* A database of schema 2 with queued work (migrations 3 to 5 undone):
 * migration 3 copies each
 * partition's place in the queue from its job, and the claims go on in
 * priority order. */
static void test_migrate_queue_order(void **state)
{
    (void)state;
    store *a = open_store();
    store_job low, high;
    add_plain(a, &low, "p10", ENGINE_PRIORITY_LOW, 1);
    add_plain(a, &high, "p10", ENGINE_PRIORITY_HIGH, 1);
    store_close(a);
    sql("DROP INDEX partitions_queue; ALTER TABLE partitions DROP COLUMN priority,"
        " DROP COLUMN seq, DROP COLUMN circuit, DROP COLUMN claims;"
        " ALTER TABLE jobs DROP COLUMN curve; DROP INDEX partitions_spilled;"
        " ALTER TABLE partitions DROP COLUMN spilled; DELETE FROM cuzk_schema WHERE version >= 3");
    a = open_store();
    store_lease l[2];
    assert_int_equal(claim(a, "h1", 1, 30, l), 1);
    assert_string_equal(l[0].id, high.id);
    assert_int_equal(claim(a, "h1", 1, 30, l), 1);
    assert_string_equal(l[0].id, low.id);
    store_close(a);
}

/* Two hosts open one database at once and see each other's jobs. */
static void test_shared(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    assert_non_null(store_cluster(a));
    store_job j, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 1);
    ok(store_get(b, j.id, &got, NULL, msg, sizeof(msg)));
    assert_string_equal(got.circuit, "p10");
    store_close(a);
    store_close(b);
}

/* Claims: partitions in priority then submission order, only of the
 * named circuits, never one leased to another host; a lease renewed by
 * the heartbeat holds, one that expires is claimed by another host. */
static void test_claim_order_and_leases(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    store_job normal, high, other;
    add_plain(a, &normal, "p10", ENGINE_PRIORITY_NORMAL, 3);
    add_plain(a, &high, "p10", ENGINE_PRIORITY_HIGH, 2);
    add_plain(a, &other, "zz", ENGINE_PRIORITY_CRITICAL, 1);
    store_lease l[8];
    assert_int_equal(claim(a, "h1", 3, 30, l), 3);
    assert_true(has(l, 3, high.id, 0) && has(l, 3, high.id, 1) && has(l, 3, normal.id, 0));
    assert_int_equal(claim(b, "h2", 8, 1, l), 2); /* not h1's, not zz's */
    assert_true(has(l, 2, normal.id, 1) && has(l, 2, normal.id, 2));
    assert_int_equal(claim(b, "h3", 8, 30, l), 0);
    /* h2's leases (1 s) run out; h1's are renewed past them */
    ok(store_cluster(a)->beat(a, "h1", "p10", false, 30, msg, sizeof(msg)));
    pause_ms(1300);
    assert_int_equal(claim(b, "h3", 8, 30, l), 2);
    assert_true(has(l, 2, normal.id, 1) && has(l, 2, normal.id, 2));
    /* the hosts and the queue as status shows them */
    store_cluster_info info;
    ok(store_cluster(a)->info(a, &info, msg, sizeof(msg)));
    assert_int_equal(info.num_hosts, 1);
    assert_string_equal(info.hosts[0].host, "h1");
    assert_int_equal(info.hosts[0].leases, 3);
    assert_int_equal(info.leased[ENGINE_PRIORITY_HIGH], 2);
    assert_int_equal(info.leased[ENGINE_PRIORITY_NORMAL], 3);
    assert_int_equal(info.waiting[ENGINE_PRIORITY_CRITICAL], 1); /* zz: nobody's */
    store_cluster_info_free(&info);
    /* a host that leaves gives its leases back at once */
    ok(store_cluster(a)->leave(a, "h1", msg, sizeof(msg)));
    assert_int_equal(claim(b, "h2", 8, 30, l), 3);
    store_close(a);
    store_close(b);
}

/* The first proof of a partition stays; the last one written makes the
 * job done, once. */
static void test_complete(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    store_job j, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
    assert_false(complete(a, "h1", j.id, 0, 0xa1));
    assert_false(complete(b, "h2", j.id, 0, 0xb2)); /* proved twice: the first stays */
    assert_true(complete(b, "h2", j.id, 1, 0xb3));
    assert_false(complete(a, "h1", j.id, 1, 0xa4)); /* done already */
    store_partition *parts;
    ok(store_get(b, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_DONE);
    assert_int_equal(got.partitions_done, 2);
    assert_int_equal(parts[0].proof[0], 0xa1);
    assert_int_equal(parts[1].proof[0], 0xb3);
    store_partitions_free(parts, 2);
    store_close(a);
    store_close(b);
}

/* A host's proofs of a BN254 job: the lease says the curve; a proof of
 * BLS12-381's size is refused naming the job and partition, written
 * neither alone nor with a claim (which stands); the 256-byte one makes
 * the job done and reads back whole. */
static void test_complete_curve(void **state)
{
    (void)state;
    store *a = open_store();
    const store_cluster_ops *c = store_cluster(a);
    store_job j, k, got;
    add_bn254_job(a, &j);
    add_plain(a, &k, "chain-bn254", ENGINE_PRIORITY_LOW, 1);
    static const char *const names[] = {"chain-bn254"};
    store_lease l[4];
    uint32_t n = 0;
    ok(c->claim(a, "h1", names, 1, 2, 30, l, &n, msg, sizeof(msg)));
    assert_int_equal(n, 2);
    assert_int_equal(l[0].job.curve, CURVE_BN254);
    store_leases_free(l, n);
    uint8_t proof[BN254_PROOF_BYTES];
    memset(proof, 0x5b, sizeof(proof));
    store_update u = {
        .kind = STORE_PARTITION_DONE, .idx = 0, .proof = proof, .proof_len = GROTH16_PROOF_BYTES};
    memcpy(u.id, j.id, sizeof(u.id));
    bool finished = true;
    assert_int_equal(c->complete(a, "h1", &u, &finished, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_false(finished);
    assert_non_null(strstr(msg, j.id));
    assert_non_null(strstr(msg, "partition 0: a proof of 192 bytes"));
    assert_non_null(strstr(msg, "bn128"));
    assert_int_equal(
        c->complete_claim(a, "h1", &u, &finished, names, 1, 4, 30, l, &n, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(n, 1); /* k's partition: the claim stands */
    store_leases_free(l, n);
    store_partition *parts;
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.partitions_done, 0);
    store_partitions_free(parts, got.partitions);
    /* the right size, for both partitions */
    u.proof_len = BN254_PROOF_BYTES;
    ok(c->complete(a, "h1", &u, &finished, msg, sizeof(msg)));
    assert_false(finished);
    u.idx = 1;
    ok(c->complete(a, "h1", &u, &finished, msg, sizeof(msg)));
    assert_true(finished);
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_DONE);
    assert_int_equal(parts[1].proof_len, BN254_PROOF_BYTES);
    assert_memory_equal(parts[1].proof, proof, BN254_PROOF_BYTES);
    store_partitions_free(parts, got.partitions);
    store_close(a);
}

/* A proof written and the next work claimed in one transaction: the
 * proof stays, the job is done by it when it was the last, and the claim
 * takes what is left in the queue's order. */
static void test_complete_claim(void **state)
{
    (void)state;
    store *a = open_store();
    const store_cluster_ops *c = store_cluster(a);
    store_job j, k, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
    add_plain(a, &k, "p10", ENGINE_PRIORITY_LOW, 1);
    store_lease l[4];
    assert_int_equal(claim(a, "h1", 1, 30, l), 1);
    assert_true(has(l, 1, j.id, 0));
    uint8_t proof[GROTH16_PROOF_BYTES];
    memset(proof, 0x41, sizeof(proof));
    store_update u = {
        .kind = STORE_PARTITION_DONE, .idx = 0, .proof = proof, .proof_len = sizeof(proof)};
    memcpy(u.id, j.id, sizeof(u.id));
    bool finished = true;
    uint32_t n = 0;
    ok(c->complete_claim(a, "h1", &u, &finished, p10, 1, 4, 30, l, &n, msg, sizeof(msg)));
    assert_false(finished);
    assert_int_equal(n, 2);
    assert_true(has(l, 2, j.id, 1) && has(l, 2, k.id, 0));
    store_leases_free(l, n);
    u.idx = 1;
    ok(c->complete_claim(a, "h1", &u, &finished, p10, 1, 4, 30, l, &n, msg, sizeof(msg)));
    assert_true(finished);
    assert_int_equal(n, 0); /* k's partition is leased to h1 already */
    store_partition *parts;
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_DONE);
    assert_int_equal(parts[1].proof[0], 0x41);
    store_partitions_free(parts, 2);
    /* no room asked: the proof alone */
    memcpy(u.id, k.id, sizeof(u.id));
    u.idx = 0;
    ok(c->complete_claim(a, "h1", &u, &finished, p10, 1, 0, 30, l, &n, msg, sizeof(msg)));
    assert_true(finished);
    assert_int_equal(n, 0);
    store_close(a);
}

typedef struct racer {
    store *st;
    const char *host, *id;
    uint32_t idx;
    bool finished;
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    r->finished = complete(r->st, r->host, r->id, r->idx, (uint8_t)(r->idx + 1));
    return NULL;
}

/* Two hosts writing a job's last two proofs at the same moment: exactly
 * one of them makes it done. */
static void test_last_proof_race(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    for (int round = 0; round < 20; round++) {
        store_job j, got;
        add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
        racer r[2] = {{a, "h1", j.id, 0, false}, {b, "h2", j.id, 1, false}};
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        assert_int_equal(r[0].finished + r[1].finished, 1);
        ok(store_get(a, j.id, &got, NULL, msg, sizeof(msg)));
        assert_int_equal(got.state, ENGINE_STATE_DONE);
    }
    store_close(a);
    store_close(b);
}

/* A failing partition is claimable again until its failures reach the
 * limit; then the job fails with the reason. */
static void test_failures(void **state)
{
    (void)state;
    store *a = open_store();
    const store_cluster_ops *c = store_cluster(a);
    store_job j, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 1);
    store_lease l[2];
    bool failed = true;
    assert_int_equal(claim(a, "h1", 2, 30, l), 1);
    ok(c->fail_partition(a, j.id, 0, "on h1: the prover broke", 2, &failed, msg, sizeof(msg)));
    assert_false(failed);
    assert_int_equal(claim(a, "h2", 2, 30, l), 1); /* its lease ended with the failure */
    ok(c->fail_partition(a, j.id, 0, "on h2: the prover broke again", 2, &failed, msg,
                         sizeof(msg)));
    assert_true(failed);
    ok(store_get(a, j.id, &got, NULL, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_FAILED);
    assert_non_null(strstr(got.message, "partition 0 failed 2 times"));
    assert_non_null(strstr(got.message, "on h2: the prover broke again"));
    assert_int_equal(claim(a, "h3", 2, 30, l), 0); /* final: nothing to claim */
    store_close(a);
}

/* A cancel on one host: the job is final once, the others are notified
 * and see it among their jobs' states. */
static void test_cancel_and_notify(void **state)
{
    (void)state;
    store *a = open_store(), *b = open_store();
    const store_cluster_ops *c = store_cluster(a);
    store_job j, k;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 1);
    add_plain(a, &k, "p10", ENGINE_PRIORITY_NORMAL, 1);
    pause_ms(300); /* the adds' notifications are in */
    uint64_t before = c->events(b);
    assert_false(c->wait(b, before, 0.3)); /* nothing happened */
    bool changed = false;
    ok(c->finish(a, j.id, ENGINE_STATE_CANCELLED, "cancelled by request", &changed, msg,
                 sizeof(msg)));
    assert_true(changed);
    assert_true(c->wait(b, before, 5));
    ok(c->finish(a, j.id, ENGINE_STATE_CANCELLED, "again", &changed, msg, sizeof(msg)));
    assert_false(changed);
    char ids[3][STORE_ID_CHARS + 1] = {{0}};
    memcpy(ids[0], j.id, sizeof(ids[0]));
    memcpy(ids[1], k.id, sizeof(ids[1]));
    memcpy(ids[2], "00000000000000000000000000000000", sizeof(ids[2]));
    bool final[3];
    ok(c->finals(b, (const char(*)[STORE_ID_CHARS + 1]) ids, 3, final, msg, sizeof(msg)));
    assert_true(final[0]);
    assert_false(final[1]);
    assert_true(final[2]); /* gone */
    store_close(a);
    store_close(b);
}

/* Ends every other session on the database (a server restart, as the
 * store's connections see it). */
static void drop_connections(void)
{
    sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
}

/* The connection lost between operations (its prepared statements with
 * it): each kind of operation, the pipelined ones (a claim, a proof, a
 * cancel, a heartbeat) and the single statements (a read), works on a
 * fresh connection, once each. */
static void test_connection_lost(void **state)
{
    (void)state;
    store *a = open_store();
    const store_cluster_ops *c = store_cluster(a);
    store_job j, k, got;
    add_plain(a, &j, "p10", ENGINE_PRIORITY_NORMAL, 2);
    add_plain(a, &k, "p10", ENGINE_PRIORITY_LOW, 1);
    store_lease l[4];
    assert_int_equal(claim(a, "h1", 1, 30, l), 1); /* every statement prepared once */
    assert_false(complete(a, "h1", j.id, 0, 0x11));
    ok(store_get(a, j.id, &got, NULL, msg, sizeof(msg)));

    drop_connections();
    assert_int_equal(claim(a, "h1", 1, 30, l), 1);
    assert_true(has(l, 1, j.id, 1));
    drop_connections();
    assert_true(complete(a, "h1", j.id, 1, 0x12));
    drop_connections();
    ok(store_get(a, j.id, &got, NULL, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_DONE);
    drop_connections();
    ok(c->beat(a, "h1", "p10", false, 30, msg, sizeof(msg)));
    drop_connections();
    bool changed = false;
    ok(c->finish(a, k.id, ENGINE_STATE_CANCELLED, "cancelled", &changed, msg, sizeof(msg)));
    assert_true(changed);
    store_close(a);
}

/* A job made final drops its inputs in the same transaction: a cancelled
 * job's partitions without a proof end cancelled, and their witnesses
 * are gone; a done job keeps its proofs. */
static void test_final_drops_inputs(void **state)
{
    (void)state;
    store *a = open_store();
    store_job j = {0}, got;
    assert_true(store_new_id(j.id));
    snprintf(j.circuit, sizeof(j.circuit), "p10");
    j.partitions = 2;
    j.submitted_at = 1000;
    fr_t w[3];
    fill(w, 3, 7);
    store_partition in[2] = {{.witness = w, .witness_len = 3}, {.witness = w, .witness_len = 3}};
    ok(store_add(a, &j, in, NULL, msg, sizeof(msg)));
    assert_false(complete(a, "h1", j.id, 0, 0x21));
    bool changed = false;
    ok(store_cluster(a)->finish(a, j.id, ENGINE_STATE_CANCELLED, "cancelled", &changed, msg,
                                sizeof(msg)));
    assert_true(changed);
    store_partition *parts;
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_CANCELLED);
    assert_int_equal(parts[0].state, ENGINE_STATE_DONE);
    assert_int_equal(parts[0].proof[0], 0x21);
    assert_int_equal(parts[1].state, ENGINE_STATE_CANCELLED);
    assert_null(parts[0].witness);
    assert_null(parts[1].witness);
    store_partitions_free(parts, 2);
    assert_false(complete(a, "h1", j.id, 1, 0x22)); /* final: not written */
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(parts[1].state, ENGINE_STATE_CANCELLED);
    store_partitions_free(parts, 2);
    store_close(a);
}

/* Records the paths drop_spills hands over; says each is gone unless it
 * is `keep`. */
typedef struct removals {
    char paths[4][64];
    int n;
    const char *keep;
} removals;

static bool note_removal(void *ctx, const char *path)
{
    removals *r = ctx;
    if (r->n < 4)
        snprintf(r->paths[r->n++], sizeof(r->paths[0]), "%s", path);
    return !r->keep || strcmp(path, r->keep) != 0;
}

/* A spilled witness's path is told from a path a client named: a lease
 * and a read say which; its file is handed over for removal only once its
 * job is final (by the job's id, or among every final job's), and its
 * path forgotten once it is gone; a client's path is never handed over. */
static void test_spills(void **state)
{
    (void)state;
    store *a = open_store();
    const store_cluster_ops *ops = store_cluster(a);
    store_job j = {0}, k = {0}, got;
    assert_true(store_new_id(j.id));
    assert_true(store_new_id(k.id));
    snprintf(j.circuit, sizeof(j.circuit), "p10");
    snprintf(k.circuit, sizeof(k.circuit), "p10");
    j.partitions = 3;
    k.partitions = 1;
    j.submitted_at = k.submitted_at = 1000;
    fr_t w[2];
    fill(w, 2, 5);
    store_partition in[3] = {{.wtns_path = "/spill/j-0.wtns", .spilled = true},
                             {.wtns_path = "/shared/w1.wtns"},
                             {.witness = w, .witness_len = 2}};
    store_partition kin[1] = {{.wtns_path = "/spill/k-0.wtns", .spilled = true}};
    ok(store_add(a, &j, in, NULL, msg, sizeof(msg)));
    ok(store_add(a, &k, kin, NULL, msg, sizeof(msg)));
    store_lease l[4];
    uint32_t n = 0;
    ok(ops->claim(a, "h1", p10, 1, 4, 30, l, &n, msg, sizeof(msg)));
    assert_int_equal(n, 4);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(l[i].input.spilled, l[i].idx == 0);
    store_leases_free(l, n);
    store_partition *parts;
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_true(parts[0].spilled);
    assert_false(parts[1].spilled);
    assert_false(parts[2].spilled);
    store_partitions_free(parts, 3);

    /* Files found in the spill folder: needed while their job has a row
     * (whatever path), or a spilled partition names them (whatever job
     * their name carries); an orphan otherwise. */
    char nobody[STORE_ID_CHARS + 1];
    assert_true(store_new_id(nobody));
    const char *found[3] = {"/spill/j-0.wtns", "/spill/x.wtns", "/spill/y.wtns"};
    const char *owners[3] = {nobody, j.id, nobody};
    bool needed[3];
    ok(ops->spills_needed(a, found, owners, 3, needed, msg, sizeof(msg)));
    assert_true(needed[0]);
    assert_true(needed[1]);
    assert_false(needed[2]);
    /* a client's path is not a spilled witness's */
    const char *client[1] = {"/shared/w1.wtns"}, *client_owner[1] = {nobody};
    ok(ops->spills_needed(a, client, client_owner, 1, needed, msg, sizeof(msg)));
    assert_false(needed[0]);

    /* Not final: nothing to remove. */
    removals r = {0};
    uint32_t gone = 9;
    ok(ops->drop_spills(a, j.id, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    ok(ops->drop_spills(a, NULL, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    assert_int_equal(r.n, 0);
    assert_int_equal(gone, 0);

    bool changed;
    ok(ops->finish(a, j.id, ENGINE_STATE_CANCELLED, "cancelled", &changed, msg, sizeof(msg)));
    ok(ops->finish(a, k.id, ENGINE_STATE_FAILED, "failed", &changed, msg, sizeof(msg)));
    /* The job's own, not the other's; the client's path stays. */
    r = (removals){.keep = NULL};
    ok(ops->drop_spills(a, j.id, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    assert_int_equal(r.n, 1);
    assert_string_equal(r.paths[0], "/spill/j-0.wtns");
    assert_int_equal(gone, 1);
    ok(store_get(a, j.id, &got, &parts, msg, sizeof(msg)));
    assert_null(parts[0].wtns_path);
    assert_false(parts[0].spilled);
    assert_string_equal(parts[1].wtns_path, "/shared/w1.wtns");
    store_partitions_free(parts, 3);
    /* A file that cannot be removed keeps its path, for the next sweep. */
    r = (removals){.keep = "/spill/k-0.wtns"};
    ok(ops->drop_spills(a, NULL, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    assert_int_equal(r.n, 1);
    assert_int_equal(gone, 0);
    r = (removals){.keep = NULL};
    ok(ops->drop_spills(a, NULL, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    assert_int_equal(r.n, 1);
    assert_string_equal(r.paths[0], "/spill/k-0.wtns");
    assert_int_equal(gone, 1);
    r = (removals){.keep = NULL};
    ok(ops->drop_spills(a, NULL, 16, note_removal, &r, &gone, msg, sizeof(msg)));
    assert_int_equal(r.n, 0);
    /* Forgotten, its path is needed only while its job has a row. */
    const char *forgotten[1] = {"/spill/k-0.wtns"}, *unknown[1] = {nobody};
    ok(ops->spills_needed(a, forgotten, unknown, 1, needed, msg, sizeof(msg)));
    assert_false(needed[0]);
    store_close(a);
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
        cmocka_unit_test_setup(test_bn254_proofs, empty),
        cmocka_unit_test_setup(test_migration_race, empty),
        cmocka_unit_test_setup(test_shared, empty),
        cmocka_unit_test_setup(test_lease_inputs, empty),
        cmocka_unit_test_setup(test_migrate_queue_order, empty),
        cmocka_unit_test_setup(test_running_view, empty),
        cmocka_unit_test_setup(test_queue_bound, empty),
        cmocka_unit_test_setup(test_claim_order_and_leases, empty),
        cmocka_unit_test_setup(test_complete, empty),
        cmocka_unit_test_setup(test_complete_claim, empty),
        cmocka_unit_test_setup(test_complete_curve, empty),
        cmocka_unit_test_setup(test_last_proof_race, empty),
        cmocka_unit_test_setup(test_failures, empty),
        cmocka_unit_test_setup(test_cancel_and_notify, empty),
        cmocka_unit_test_setup(test_connection_lost, empty),
        cmocka_unit_test_setup(test_final_drops_inputs, empty),
        cmocka_unit_test_setup(test_spills, empty),
        cmocka_unit_test_setup(test_newer_schema, empty),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
