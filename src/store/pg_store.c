/* The job store in PostgreSQL (store/store.h), through libpq. All of the
 * PostgreSQL SQL is in this file.
 *
 * Schema: versioned migrations (`migrations` below), recorded in the
 * table cuzk_schema, one row per applied version. At open each missing
 * version is applied in its own transaction, under a transaction-level
 * advisory lock (pg_advisory_xact_lock), so that several hosts opening
 * one empty database at once apply each migration exactly once: the
 * others wait on the lock, then find the version recorded.
 *
 * The statements run through pg_conn.h (libpq, prepared statements,
 * pipelines, reconnection, the notification listener), on one
 * connection serialized by the store's mutex.
 *
 * Several hosts share one database (store/store.h, docs/CLUSTER.md):
 * partitions carry a lease (host, lease_until on the database's clock, so
 * that hosts' clocks need not agree), claimed with FOR UPDATE SKIP LOCKED;
 * a job's row is locked (FOR UPDATE) by every write that may make it
 * final, so that two hosts writing its last two proofs at once see each
 * other's and exactly one of them makes it done. Changes a waiter may
 * care about raise NOTIFY cuzk; a listener thread on a second connection
 * counts them (events, wait). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_conn.h"
#include "store/store.h"
#include "util/msg.h"
#include "util/wipe.h"

/* The advisory lock's key, taken while migrating: "cuzk" in ASCII; and
 * the one an add takes to count the queue against its bound ("cuzq"). */
#define MIGRATION_LOCK 0x63757a6bLL
#define QUEUE_LOCK 0x63757a71LL
/* The database's clock, in Unix seconds: leases are compared on one clock. */
#define NOW_S "extract(epoch from clock_timestamp())"
/* The notification channel. */
#define CHANNEL "cuzk"
/* A host's record is removed after this long without a heartbeat. */
#define HOST_FORGET_S 86400

/* Version i + 1 is migrations[i]. Append; never edit an applied one. */
static const char *const migrations[] = {
    "CREATE TABLE jobs ("
    " seq BIGSERIAL UNIQUE, id TEXT PRIMARY KEY, idem_key TEXT UNIQUE, circuit TEXT NOT NULL,"
    " priority BIGINT NOT NULL, partitions BIGINT NOT NULL, timeout_s DOUBLE PRECISION NOT NULL,"
    " blinding BYTEA, state BIGINT NOT NULL, message TEXT NOT NULL DEFAULT '',"
    " submitted_at DOUBLE PRECISION NOT NULL, finished_at DOUBLE PRECISION NOT NULL DEFAULT 0);"
    "CREATE TABLE partitions ("
    " job TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, idx BIGINT NOT NULL,"
    " seed BIGINT NOT NULL, wtns_path TEXT, witness BYTEA, state BIGINT NOT NULL,"
    " proof BYTEA, public BYTEA, PRIMARY KEY (job, idx));"
    "CREATE INDEX jobs_final ON jobs (state, finished_at);",
    /* 2: several hosts: leases on partitions, and the hosts' heartbeats */
    "ALTER TABLE partitions ADD COLUMN host TEXT, ADD COLUMN lease_until DOUBLE PRECISION,"
    " ADD COLUMN failures BIGINT NOT NULL DEFAULT 0, ADD COLUMN last_error TEXT;"
    "CREATE INDEX partitions_open ON partitions (job) WHERE proof IS NULL;"
    "CREATE INDEX partitions_leased ON partitions (host) WHERE proof IS NULL;"
    "CREATE INDEX jobs_open ON jobs (priority, seq) WHERE state < 4;"
    "CREATE TABLE hosts (host TEXT PRIMARY KEY, circuits TEXT NOT NULL DEFAULT '',"
    " started_at DOUBLE PRECISION NOT NULL, beat_at DOUBLE PRECISION NOT NULL,"
    " draining BOOLEAN NOT NULL DEFAULT false);",
    /* 3: the queue's order on the partitions themselves (their job's
     * priority, submission order and circuit, copied at the insert and
     * never changed), indexed over open partitions (no proof, not
     * cancelled: a final job's are), so that a claim walks the queue in
     * order and stops at what it takes instead of sorting every open
     * partition of every open job */
    "ALTER TABLE partitions ADD COLUMN priority BIGINT NOT NULL DEFAULT 0,"
    " ADD COLUMN seq BIGINT NOT NULL DEFAULT 0, ADD COLUMN circuit TEXT NOT NULL DEFAULT '';"
    "UPDATE partitions p SET priority = j.priority, seq = j.seq, circuit = j.circuit"
    " FROM jobs j WHERE j.id = p.job;"
    "CREATE INDEX partitions_queue ON partitions (priority, seq, idx)"
    " WHERE proof IS NULL AND state < 4;"
    /* and how often each partition was claimed (a job's attempts) */
    "ALTER TABLE partitions ADD COLUMN claims BIGINT NOT NULL DEFAULT 0;",
    /* 4: a job's curve (curve_id; the jobs before it were all
     * BLS12-381's), which sizes its proofs */
    "ALTER TABLE jobs ADD COLUMN curve BIGINT NOT NULL DEFAULT 0;",
    /* 5: streamed witnesses kept as files in the shared spill folder,
     * referenced by wtns_path: spilled tells them from the paths clients
     * named (those are never removed), and the index finds them once
     * their job is final, to remove them, and by path, to forget them */
    ("ALTER TABLE partitions ADD COLUMN spilled BOOLEAN NOT NULL DEFAULT false;"
     "CREATE INDEX partitions_spilled ON partitions (wtns_path) WHERE spilled;"),
};
_Static_assert(CURVE_BLS12_381 == 0, "a job stored before its curve was is BLS12-381's");
#define NUM_MIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

/* A job's row and, over its partitions, the proved, those leased now
 * (running on a host), and their claims (attempts): "SELECT " JOB_COLUMNS
 * " FROM " JOB_FROM. */
#define JOB_COLUMNS                                                                                \
    "id, COALESCE(idem_key, ''), circuit, priority, partitions, timeout_s, blinding, state,"       \
    " message, submitted_at, finished_at, c.proved, c.running, c.claims, curve"
#define JOB_FROM                                                                                   \
    "jobs LEFT JOIN LATERAL (SELECT count(p.proof) AS proved, count(*) FILTER (WHERE"              \
    " p.proof IS NULL AND p.lease_until >= " NOW_S ") AS running,"                                 \
    " COALESCE(sum(p.claims), 0)::bigint AS claims FROM partitions p WHERE p.job = jobs.id) c"     \
    " ON true"

static const char SQL_ADD_JOB[] =
    "INSERT INTO jobs (id, idem_key, circuit, priority, partitions, timeout_s, blinding, state,"
    " message, submitted_at, curve) VALUES ($1, $2, $3, $4::bigint, $5::bigint, $6::float8,"
    " $7::bytea, $8::bigint, $9, $10::float8, $11::bigint)";
static const char SQL_ADD_PART[] =
    "INSERT INTO partitions (job, idx, seed, wtns_path, witness, state, priority, seq, circuit,"
    " spilled) SELECT $1, $2::bigint, $3::bigint, $4, $5::bytea, $6::bigint, j.priority, j.seq,"
    " j.circuit, $7::boolean FROM jobs j WHERE j.id = $1";
static const char SQL_FIND_KEY[] = "SELECT id FROM jobs WHERE idem_key = $1";
static const char SQL_JOB_CURVE[] = "SELECT curve FROM jobs WHERE id = $1";
static const char SQL_PART_DONE[] =
    "UPDATE partitions SET state = $1::bigint, proof = $2::bytea, public = $3::bytea"
    " WHERE job = $4 AND idx = $5::bigint";
static const char SQL_JOB_FINAL[] =
    "UPDATE jobs SET state = $1::bigint, message = $2, finished_at = $3::float8, blinding = NULL"
    " WHERE id = $4";
static const char SQL_DROP_INPUTS[] =
    "UPDATE partitions SET witness = NULL, lease_until = NULL,"
    " state = CASE WHEN proof IS NULL THEN $1::bigint ELSE state END WHERE job = $2";
static const char SQL_LIST[] =
    "SELECT " JOB_COLUMNS " FROM " JOB_FROM " ORDER BY submitted_at, seq";
static const char SQL_GET_JOB[] = "SELECT " JOB_COLUMNS " FROM " JOB_FROM " WHERE id = $1";
/* running: leased now, not proved; host: the lease's, or the proof's
 * writer */
static const char SQL_GET_PARTS[] =
    "SELECT idx, seed, wtns_path, witness, state, proof, public,"
    " proof IS NULL AND lease_until >= " NOW_S " AS running,"
    " CASE WHEN proof IS NOT NULL OR lease_until >= " NOW_S " THEN host END, spilled"
    " FROM partitions WHERE job = $1 ORDER BY idx";
static const char SQL_EXPIRED[] =
    "SELECT " JOB_COLUMNS " FROM " JOB_FROM " WHERE state >= $1::bigint AND"
    " (($2::float8 > 0 AND finished_at < $2::float8) OR id NOT IN (SELECT id FROM jobs WHERE"
    " state >= $1::bigint ORDER BY finished_at DESC, seq DESC LIMIT $3::bigint))";
static const char SQL_DEL_JOB[] = "DELETE FROM jobs WHERE id = $1";
static const char SQL_NOTIFY[] = "SELECT pg_notify('" CHANNEL "', $1)";
static const char SQL_QUEUE_LOCK[] = "SELECT pg_advisory_xact_lock($1::bigint)";
/* open partitions: the partial index partitions_queue's */
/* The listener's (pg_conn_listen). */
static const char SQL_LISTEN[] = "LISTEN " CHANNEL;
static const char SQL_QUEUED[] =
    "SELECT count(*) FROM partitions WHERE proof IS NULL AND state < 4";
/* States written as numbers in SQL (an index's predicate, MADE_FINAL). */
_Static_assert(ENGINE_STATE_DONE == 4 && ENGINE_STATE_CANCELLED == 6,
               "the SQL's state numbers follow engine_state");

typedef struct pg_store {
    store base;
    pthread_mutex_t mu; /* serializes the operations on pg's connection */
    pg_conn pg;
    uint64_t max_queued; /* partitions; 0: unbounded (bound_queue) */
} pg_store;

static pg_store *impl(store *st)
{
    return (pg_store *)st;
}

/* NOTIFY on CHANNEL, delivered when the transaction commits (payload: a
 * job's id, or empty). */
static bool notify(pg_store *s, const char *payload)
{
    pg_params p = {0};
    p_str(&p, payload);
    return pg_run(&s->pg, SQL_NOTIFY, &p);
}

/* A final job's inputs are not needed any more; partitions without a
 * proof end cancelled (as the SQLite store does). */
static bool drop_inputs(pg_store *s, const char *id)
{
    pg_params q = {0};
    p_i64(&q, ENGINE_STATE_CANCELLED);
    p_text(&q, id);
    return pg_run(&s->pg, SQL_DROP_INPUTS, &q);
}

/* The row of a JOB_COLUMNS query. */
static void read_job(const PGresult *r, int row, store_job *j)
{
    memset(j, 0, sizeof(*j));
    col_text(j->id, sizeof(j->id), r, row, 0);
    col_text(j->key, sizeof(j->key), r, row, 1);
    col_text(j->circuit, sizeof(j->circuit), r, row, 2);
    j->priority = (engine_priority)col_int(r, row, 3);
    j->partitions = (uint32_t)col_int(r, row, 4);
    j->timeout_s = col_f64(r, row, 5);
    if (PQgetlength(r, row, 6) == 2 * (int)sizeof(fr_t)) {
        const char *b = PQgetvalue(r, row, 6);
        j->has_blinding = true;
        memcpy(&j->r, b, sizeof(fr_t));
        memcpy(&j->s, b + sizeof(fr_t), sizeof(fr_t));
    }
    j->state = (engine_state)col_int(r, row, 7);
    col_text(j->message, sizeof(j->message), r, row, 8);
    j->submitted_at = col_f64(r, row, 9);
    j->finished_at = col_f64(r, row, 10);
    j->partitions_done = (uint32_t)col_int(r, row, 11);
    j->partitions_running = (uint32_t)col_int(r, row, 12);
    j->attempts = (uint32_t)col_int(r, row, 13);
    j->curve = (curve_id)col_int(r, row, 14);
}

/* ----------------------------------------------------------- operations */

static void close_store(store *st)
{
    pg_store *s = impl(st);
    pg_conn_close(&s->pg);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static bool find_key_locked(pg_store *s, const char *key, char id[STORE_ID_CHARS + 1])
{
    pg_params p = {0};
    p_text(&p, key);
    PGresult *r = pg_exec(&s->pg, SQL_FIND_KEY, &p);
    bool found = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (found)
        col_text(id, STORE_ID_CHARS + 1, r, 0, 0);
    PQclear(r);
    return found;
}

static bool find_key(store *st, const char *key, char id[STORE_ID_CHARS + 1])
{
    pg_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool found = find_key_locked(s, key, id);
    pthread_mutex_unlock(&s->mu);
    return found;
}

/* Inserts the job's rows; *dup when its key is another job's. */
static bool add_rows(pg_store *s, const store_job *j, const store_partition *parts, bool *dup,
                     PGresult **err)
{
    pg_params p = {0};
    p_text(&p, j->id);
    p_text(&p, j->key);
    p_text(&p, j->circuit);
    p_i64(&p, (int64_t)j->priority);
    p_i64(&p, j->partitions);
    p_f64(&p, j->timeout_s);
    fr_t rs[2] = {j->r, j->s};
    p_bytes(&p, j->has_blinding ? rs : NULL, sizeof(rs));
    p_i64(&p, (int64_t)j->state);
    p_str(&p, j->message);
    p_f64(&p, j->submitted_at);
    p_i64(&p, (int64_t)j->curve);
    PGresult *r = pg_exec(&s->pg, SQL_ADD_JOB, &p);
    cuzk_wipe(rs, sizeof(rs));
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    *dup = !ok && pg_unique_violation(r);
    for (uint32_t i = 0; ok && i < j->partitions; i++) {
        PQclear(r);
        const store_partition *part = &parts[i];
        pg_params q = {0};
        p_text(&q, j->id);
        p_i64(&q, i);
        p_i64(&q, (int64_t)part->seed);
        p_text(&q, part->wtns_path);
        p_bytes(&q, part->witness, part->witness_len * sizeof(fr_t));
        p_i64(&q, ENGINE_STATE_QUEUED);
        p_text(&q, part->spilled ? "true" : "false");
        r = pg_exec(&s->pg, SQL_ADD_PART, &q);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    }
    if (ok) {
        PQclear(r);
        r = NULL;
    }
    *err = r; /* the failure's result, for its message */
    return ok;
}

/* In an add's transaction: whether the queue has room for n partitions
 * more under its bound (STORE_QUEUE_FULL, saying so, when not). The lock
 * holds until the add commits: adds on every host count one after the
 * other. */
static cuzk_status room_for(pg_store *s, uint32_t n, char *msg, size_t msg_len)
{
    pg_params lock = {0};
    p_i64(&lock, QUEUE_LOCK);
    if (!pg_run(&s->pg, SQL_QUEUE_LOCK, &lock))
        return pg_error(&s->pg, "cannot count the queue", NULL, msg, msg_len);
    PGresult *r = pg_exec(&s->pg, SQL_QUEUED, NULL);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        cuzk_status rc = pg_error(&s->pg, "cannot count the queue", r, msg, msg_len);
        PQclear(r);
        return rc;
    }
    uint64_t queued = (uint64_t)col_int(r, 0, 0);
    PQclear(r);
    if (queued + n <= s->max_queued)
        return CUZK_OK;
    msg_set(msg, msg_len,
            "the shared queue is full: %" PRIu64 " partitions are queued or running on the"
            " hosts, this job has %u more, and the bound (server.cluster_max_queued) is %" PRIu64,
            queued, n, s->max_queued);
    return STORE_QUEUE_FULL;
}

static void bound_queue(store *st, uint64_t max)
{
    pg_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    s->max_queued = max;
    pthread_mutex_unlock(&s->mu);
}

static cuzk_status add(store *st, const store_job *j, const store_partition *parts,
                       char existing[STORE_ID_CHARS + 1], char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    char other[STORE_ID_CHARS + 1];
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool dup = false;
    PGresult *err = NULL;
    if (!pg_run(&s->pg, "BEGIN", NULL)) {
        rc = pg_error(&s->pg, "cannot begin a transaction", NULL, msg, msg_len);
    } else if (j->key[0] && find_key_locked(s, j->key, other)) {
        dup = true;
        pg_run(&s->pg, "ROLLBACK", NULL);
    } else if (s->max_queued && (rc = room_for(s, j->partitions, msg, msg_len)) != CUZK_OK) {
        pg_run(&s->pg, "ROLLBACK", NULL);
    } else if (!add_rows(s, j, parts, &dup, &err) || !notify(s, j->id) ||
               !pg_run(&s->pg, "COMMIT", NULL)) {
        if (!dup)
            rc = pg_error(&s->pg, "cannot add a job", err, msg, msg_len);
        PQclear(err);
        pg_run(&s->pg, "ROLLBACK", NULL);
        /* Another host took the key between the look and the insert. */
        if (dup && !find_key_locked(s, j->key, other))
            rc = pg_error(&s->pg, "cannot add a job", NULL, msg, msg_len);
    }
    if (rc == CUZK_OK && dup) {
        if (existing)
            memcpy(existing, other, sizeof(other));
        msg_set(msg, msg_len, "the idempotency key is held by another job");
        rc = CUZK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* One update in the open transaction: true when applied (or skipped: an
 * unknown job's); false for a proof refused (*refused, msg says why) or
 * a database error. */
static bool apply(pg_store *s, const store_update *u, bool *refused, char *msg, size_t msg_len)
{
    pg_params p = {0};
    if (u->kind == STORE_PARTITION_DONE) {
        pg_params c = {0};
        p_text(&c, u->id);
        PGresult *r = pg_exec(&s->pg, SQL_JOB_CURVE, &c);
        bool ok = PQresultStatus(r) == PGRES_TUPLES_OK, known = ok && PQntuples(r) == 1;
        curve_id curve = known ? (curve_id)col_int(r, 0, 0) : CURVE_BLS12_381;
        PQclear(r);
        if (!known)
            return ok; /* expired, or never added: skipped */
        if (store_proof_check(u, curve, msg, msg_len) != CUZK_OK) {
            *refused = true;
            return false;
        }
        p_i64(&p, ENGINE_STATE_DONE);
        p_bytes(&p, u->proof, u->proof_len);
        p_bytes(&p, u->num_pub ? (const void *)u->pub : "", u->num_pub * sizeof(fr_t));
        p_text(&p, u->id);
        p_i64(&p, u->idx);
        return pg_run(&s->pg, SQL_PART_DONE, &p);
    }
    p_i64(&p, (int64_t)u->state);
    p_str(&p, u->message);
    p_f64(&p, u->at);
    p_text(&p, u->id);
    if (!pg_run(&s->pg, SQL_JOB_FINAL, &p))
        return false;
    return drop_inputs(s, u->id) && notify(s, u->id);
}

static cuzk_status write_updates(store *st, const store_update *u, size_t n, char *msg,
                                 size_t msg_len)
{
    pg_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_run(&s->pg, "BEGIN", NULL), refused = false;
    for (size_t i = 0; ok && i < n; i++)
        ok = apply(s, &u[i], &refused, msg, msg_len);
    if (refused) {
        rc = CUZK_ERR_INVALID_ARGUMENT; /* msg says which proof; nothing is written */
        pg_run(&s->pg, "ROLLBACK", NULL);
    } else if (!ok || !pg_run(&s->pg, "COMMIT", NULL)) {
        rc = pg_error(&s->pg, "cannot write", NULL, msg, msg_len);
        pg_run(&s->pg, "ROLLBACK", NULL);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* Calls fn for each row of a JOB_COLUMNS query. */
static cuzk_status each_job(pg_store *s, const char *sql, const pg_params *p, store_job_fn fn,
                            void *ctx, char *msg, size_t msg_len)
{
    PGresult *r = pg_exec(&s->pg, sql, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        cuzk_status rc = pg_error(&s->pg, "cannot read", r, msg, msg_len);
        PQclear(r);
        return rc;
    }
    store_job j;
    for (int row = 0; row < PQntuples(r); row++) {
        read_job(r, row, &j);
        bool more = fn(ctx, &j);
        cuzk_wipe(&j, sizeof(j));
        if (!more)
            break;
    }
    PQclear(r);
    return CUZK_OK;
}

static cuzk_status list(store *st, store_job_fn fn, void *ctx, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    cuzk_status rc = each_job(s, SQL_LIST, NULL, fn, ctx, msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cuzk_status read_parts(pg_store *s, const store_job *j, store_partition **out, char *msg,
                              size_t msg_len)
{
    pg_params p = {0};
    p_text(&p, j->id);
    PGresult *r = pg_exec(&s->pg, SQL_GET_PARTS, &p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        cuzk_status rc = pg_error(&s->pg, "cannot read partitions", r, msg, msg_len);
        PQclear(r);
        return rc;
    }
    store_partition *parts = calloc(j->partitions ? j->partitions : 1, sizeof(*parts));
    cuzk_status st = parts ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
    for (int row = 0; st == CUZK_OK && row < PQntuples(r); row++) {
        int64_t idx = col_int(r, row, 0);
        if (idx < 0 || idx >= j->partitions)
            continue;
        store_partition *part = &parts[idx];
        part->seed = (uint64_t)col_int(r, row, 1);
        part->state = (engine_state)col_int(r, row, 4);
        if (PQgetlength(r, row, 7) == 1 && PQgetvalue(r, row, 7)[0])
            part->state = ENGINE_STATE_PROVING; /* on a host now */
        if (!PQgetisnull(r, row, 8) && !(part->host = strdup(PQgetvalue(r, row, 8))))
            st = CUZK_ERR_OUT_OF_MEMORY;
        uint64_t wlen = 0, plen = 0;
        if ((!PQgetisnull(r, row, 2) && !(part->wtns_path = strdup(PQgetvalue(r, row, 2)))) ||
            !col_copy((void **)&part->witness, &wlen, r, row, 3) ||
            !col_copy((void **)&part->pub, &plen, r, row, 6))
            st = CUZK_ERR_OUT_OF_MEMORY;
        part->witness_len = wlen / sizeof(fr_t);
        part->num_pub = plen / sizeof(fr_t);
        part->spilled = col_bool(r, row, 9);
        store_partition_proof(part, j->curve, PQgetvalue(r, row, 5),
                              (size_t)PQgetlength(r, row, 5));
    }
    PQclear(r);
    return store_partitions_give(parts, j->partitions, st, out);
}

static cuzk_status get(store *st, const char *id, store_job *job, store_partition **parts,
                       char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    pg_params p = {0};
    p_text(&p, id);
    PGresult *r = pg_exec(&s->pg, SQL_GET_JOB, &p);
    cuzk_status ret = CUZK_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        ret = pg_error(&s->pg, "cannot read a job", r, msg, msg_len);
    else if (PQntuples(r) == 0) {
        msg_set(msg, msg_len, "no job %s", id);
        ret = CUZK_ERR_INVALID_ARGUMENT;
    } else {
        read_job(r, 0, job);
        ret = store_row_check(job, msg, msg_len);
    }
    PQclear(r);
    if (ret == CUZK_OK && parts)
        ret = read_parts(s, job, parts, msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    return ret;
}

static cuzk_status expire(store *st, double before, uint64_t keep, store_job_fn fn, void *ctx,
                          char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    store_jobs x = {0};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    pg_params p = {0};
    p_i64(&p, ENGINE_STATE_DONE);
    p_f64(&p, before);
    p_i64(&p, keep > INT64_MAX ? INT64_MAX : (int64_t)keep);
    bool ok = pg_run(&s->pg, "BEGIN", NULL);
    cuzk_status rc = ok ? each_job(s, SQL_EXPIRED, &p, store_jobs_add, &x, msg, msg_len)
                        : pg_error(&s->pg, "cannot begin a transaction", NULL, msg, msg_len);
    ok = ok && rc == CUZK_OK;
    for (size_t i = 0; ok && i < x.n; i++) {
        pg_params d = {0};
        p_text(&d, x.jobs[i].id); /* its partitions go with it */
        ok = pg_run(&s->pg, SQL_DEL_JOB, &d);
    }
    if (rc == CUZK_OK && (!ok || !pg_run(&s->pg, "COMMIT", NULL)))
        rc = pg_error(&s->pg, "cannot expire jobs", NULL, msg, msg_len);
    if (rc != CUZK_OK)
        pg_run(&s->pg, "ROLLBACK", NULL);
    pthread_mutex_unlock(&s->mu);
    store_jobs_hand(&x, rc == CUZK_OK ? fn : NULL, ctx);
    return rc;
}

/* -------------------------------------------------------------- cluster */

/* Claims, heartbeats and releases commit without waiting for the WAL's
 * flush: one lost in a database crash costs a partition proved twice
 * (allowed), never a proof or a final state, whose writes do wait. The
 * first step of their pipelines (SET LOCAL's effect, without its warning
 * outside BEGIN: a pipeline's implicit transaction is one until its
 * Sync). */
static const char SQL_LAZY[] = "SELECT set_config('synchronous_commit', 'off', true)";
/* A lease's row: the job's (JOB_COLUMNS' order, partitions_done not
 * counted), then the partition's index and input (LEASE_IDX on). */
#define LEASE_COLUMNS                                                                              \
    "j.id, COALESCE(j.idem_key, ''), j.circuit, j.priority, j.partitions, j.timeout_s,"            \
    " j.blinding, j.state, j.message, j.submitted_at, j.finished_at, 0::bigint, 0::bigint,"        \
    " 0::bigint,"                                                                                  \
    " p.idx, p.seed, p.wtns_path, p.witness, j.curve, p.spilled"
#define LEASE_IDX 14
static const char SQL_CLAIM[] =
    "WITH c AS (SELECT p.job, p.idx FROM partitions p"
    " WHERE p.proof IS NULL AND p.state < 4 AND p.circuit = ANY($1::text[])"
    " AND (p.lease_until IS NULL OR p.lease_until < " NOW_S ")"
    " ORDER BY p.priority, p.seq, p.idx LIMIT $2::bigint FOR UPDATE OF p SKIP LOCKED)"
    " UPDATE partitions p SET host = $3, lease_until = " NOW_S " + $4::float8,"
    " claims = p.claims + 1 FROM c, jobs j"
    " WHERE p.job = c.job AND p.idx = c.idx AND j.id = p.job RETURNING " LEASE_COLUMNS;
static const char SQL_BEAT_HOST[] =
    "INSERT INTO hosts (host, circuits, started_at, beat_at, draining)"
    " VALUES ($1, $2, " NOW_S ", " NOW_S ", $3::boolean) ON CONFLICT (host) DO UPDATE"
    " SET circuits = $2, beat_at = " NOW_S ", draining = $3::boolean";
static const char SQL_RENEW[] = "UPDATE partitions SET lease_until = " NOW_S " + $2::float8"
                                " WHERE host = $1 AND proof IS NULL AND lease_until IS NOT NULL";
static const char SQL_FORGET_HOSTS[] = "DELETE FROM hosts WHERE beat_at < " NOW_S " - $1::float8";
static const char SQL_LOCK_JOB[] = "SELECT state, curve FROM jobs WHERE id = $1 FOR UPDATE";
/* After SQL_LOCK_JOB, in its own statement: it sees what committed
 * before the lock was granted (a new snapshot per statement). $7: the
 * curve whose proofs have the proof's size (-1: none's), which must be
 * the job's: a proof of another size is not written (proof_refused). */
static const char SQL_PROVED[] =
    "UPDATE partitions SET state = $1::bigint, proof = $2::bytea, public = $3::bytea,"
    " host = $4, lease_until = NULL WHERE job = $5 AND idx = $6::bigint AND proof IS NULL"
    " AND EXISTS (SELECT 1 FROM jobs WHERE id = $5 AND state < $1::bigint"
    " AND curve = $7::bigint)";
/* A job becomes final (d), its inputs go (x; partitions without a proof
 * end cancelled, as the SQLite store's do), waiters are told: one
 * statement. Its row: the job's id, when this made it final. */
#define MADE_FINAL(update)                                                                         \
    "WITH d AS (" update " RETURNING id),"                                                         \
    " x AS (UPDATE partitions SET witness = NULL, lease_until = NULL,"                             \
    " state = CASE WHEN proof IS NULL THEN 6 ELSE state END WHERE job IN (SELECT id FROM d))"      \
    " SELECT d.id, pg_notify('" CHANNEL "', d.id) FROM d"
static const char SQL_JOB_DONE[] = MADE_FINAL(
    "UPDATE jobs SET state = $1::bigint, message = '', finished_at = " NOW_S ", blinding = NULL"
    " WHERE id = $2 AND state < $1::bigint AND NOT EXISTS"
    " (SELECT 1 FROM partitions p WHERE p.job = $2 AND p.proof IS NULL)");
static const char SQL_PART_FAILED[] =
    "UPDATE partitions SET failures = failures + 1, last_error = $1, lease_until = NULL"
    " WHERE job = $2 AND idx = $3::bigint AND proof IS NULL RETURNING failures";
static const char SQL_JOB_END[] = MADE_FINAL(
    "UPDATE jobs SET state = $1::bigint, message = $2, finished_at = " NOW_S ", blinding = NULL"
    " WHERE id = $3 AND state < $4::bigint");
static const char SQL_RELEASE[] = "UPDATE partitions SET lease_until = NULL"
                                  " WHERE job = $1 AND idx = $2::bigint AND host = $3"
                                  " AND proof IS NULL";
static const char SQL_RELEASE_ALL[] =
    "UPDATE partitions SET lease_until = NULL WHERE host = $1 AND proof IS NULL";
static const char SQL_LEAVE[] = "DELETE FROM hosts WHERE host = $1";
static const char SQL_HOSTS[] =
    "SELECT h.host, " NOW_S " - h.beat_at, h.draining,"
    " (SELECT count(*) FROM partitions p WHERE p.host = h.host AND p.proof IS NULL"
    " AND p.lease_until >= " NOW_S ") FROM hosts h ORDER BY h.host";
static const char SQL_QUEUE[] =
    "SELECT j.priority,"
    " count(*) FILTER (WHERE p.lease_until IS NULL OR p.lease_until < " NOW_S "),"
    " count(*) FILTER (WHERE p.lease_until >= " NOW_S ")"
    " FROM partitions p JOIN jobs j ON j.id = p.job"
    " WHERE j.state < $1::bigint AND p.proof IS NULL GROUP BY j.priority";
static const char SQL_FINALS[] =
    "SELECT id FROM jobs WHERE id = ANY($1::text[]) AND state < $2::bigint";
static const char SQL_IDS[] = "SELECT id FROM jobs ORDER BY submitted_at, seq";
/* The spilled witness files of a final job ($1), or of any final jobs
 * (at most $1), then their paths forgotten once the files are gone. */
static const char SQL_JOB_SPILLS[] =
    "SELECT p.wtns_path FROM partitions p JOIN jobs j ON j.id = p.job"
    " WHERE p.job = $1 AND p.spilled AND j.state >= $2::bigint";
static const char SQL_FINAL_SPILLS[] =
    "SELECT p.wtns_path FROM partitions p JOIN jobs j ON j.id = p.job"
    " WHERE p.spilled AND j.state >= $2::bigint LIMIT $1::bigint";
static const char SQL_FORGET_SPILLS[] = "UPDATE partitions SET wtns_path = NULL, spilled = false"
                                        " WHERE spilled AND wtns_path = ANY($1::text[])";
/* Of the files ($1) found in the spill folder and the jobs their names
 * carry ($2), the positions (1 on) of those still needed: their job has
 * a row, or a spilled partition names the file (partitions_spilled). */
static const char SQL_SPILLS_NEEDED[] =
    "SELECT f.i FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS f(path, job, i)"
    " WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.id = f.job)"
    " OR EXISTS (SELECT 1 FROM partitions p WHERE p.spilled AND p.wtns_path = f.path)";

/* Ends a transaction: COMMIT when ok, else ROLLBACK and the error. */
static cuzk_status end_tx(pg_store *s, bool ok, const char *what, char *msg, size_t msg_len)
{
    if (ok && pg_run(&s->pg, "COMMIT", NULL))
        return CUZK_OK;
    cuzk_status rc = pg_error(&s->pg, what, NULL, msg, msg_len);
    pg_run(&s->pg, "ROLLBACK", NULL);
    return rc;
}

/* A claim's parameters (SQL_CLAIM); NULL when out of memory, else the
 * circuits' array literal they point into, to free after the claim. */
static char *claim_params(pg_params *p, const char *host, const char *const *circuits,
                          size_t num_circuits, uint32_t max, double lease_s)
{
    char *names = pg_text_array(circuits, num_circuits);
    if (!names)
        return NULL;
    p_text(p, names);
    p_i64(p, max);
    p_text(p, host);
    p_f64(p, lease_s);
    return names;
}

/* The leases of a SQL_CLAIM's rows, up to max, into out: *n. */
static void read_leases(const PGresult *r, uint32_t max, store_lease *out, uint32_t *n)
{
    for (int row = 0; row < PQntuples(r) && *n < max; row++) {
        store_lease *l = &out[*n];
        memset(l, 0, sizeof(*l));
        read_job(r, row, &l->job);
        l->job.curve = (curve_id)col_int(r, row, LEASE_IDX + 4);
        int64_t idx = col_int(r, row, LEASE_IDX);
        char why[256];
        /* A row the service could not have written: its lease runs out
         * unused (as a job unreadable at its get would). */
        if (store_row_check(&l->job, why, sizeof(why)) != CUZK_OK || idx < 0 ||
            idx >= l->job.partitions)
            continue;
        memcpy(l->id, l->job.id, sizeof(l->id));
        l->idx = (uint32_t)idx;
        store_partition *in = &l->input;
        in->seed = (uint64_t)col_int(r, row, LEASE_IDX + 1);
        in->state = ENGINE_STATE_QUEUED;
        uint64_t wlen = 0;
        if ((!PQgetisnull(r, row, LEASE_IDX + 2) &&
             !(in->wtns_path = strdup(PQgetvalue(r, row, LEASE_IDX + 2)))) ||
            !col_copy((void **)&in->witness, &wlen, r, row, LEASE_IDX + 3)) {
            store_leases_free(l, 1); /* out of memory: its lease runs out */
            continue;
        }
        in->witness_len = wlen / sizeof(fr_t);
        in->spilled = col_bool(r, row, LEASE_IDX + 5);
        (*n)++;
    }
}

static cuzk_status claim(store *st, const char *host, const char *const *circuits,
                         size_t num_circuits, uint32_t max, double lease_s, store_lease *out,
                         uint32_t *n, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    *n = 0;
    if (!max || !num_circuits)
        return CUZK_OK;
    pg_params p = {0};
    char *names = claim_params(&p, host, circuits, num_circuits, max, lease_s);
    if (!names)
        return CUZK_ERR_OUT_OF_MEMORY;
    pg_step steps[] = {{SQL_LAZY, NULL, NULL}, {SQL_CLAIM, &p, NULL}};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 2);
    cuzk_status rc = pg_pipe_status(&s->pg, ok, steps, 2, "cannot claim partitions", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    if (ok)
        read_leases(steps[1].r, max, out, n);
    pg_pipe_clear(steps, 2);
    free(names);
    return rc;
}

static cuzk_status beat(store *st, const char *host, const char *circuits, bool draining,
                        double lease_s, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pg_params h = {0}, l = {0}, f = {0};
    p_text(&h, host);
    p_str(&h, circuits);
    p_text(&h, draining ? "true" : "false");
    p_text(&l, host);
    p_f64(&l, lease_s);
    p_f64(&f, HOST_FORGET_S);
    pg_step steps[] = {{SQL_LAZY, NULL, NULL},
                       {SQL_BEAT_HOST, &h, NULL},
                       {SQL_RENEW, &l, NULL},
                       {SQL_FORGET_HOSTS, &f, NULL}};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 4);
    cuzk_status rc =
        pg_pipe_status(&s->pg, ok, steps, 4, "cannot record the heartbeat", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    pg_pipe_clear(steps, 4);
    return rc;
}

/* The curve whose proofs are len bytes long; -1 when no curve's are. */
static int64_t curve_of_proof_len(size_t len)
{
    if (len == curve_proof_bytes(CURVE_BLS12_381))
        return CURVE_BLS12_381;
    if (len == curve_proof_bytes(CURVE_BN254))
        return CURVE_BN254;
    return -1;
}

/* Whether the proof of u, written by proof_steps, was left out because
 * its size is not its job's curve's (SQL_PROVED's condition): lock, the
 * SQL_LOCK_JOB step's result, has the job's state and curve; msg says
 * why. A job gone or final is no refusal (the proof is not wanted). */
static bool proof_refused(const PGresult *lock, const store_update *u, char *msg, size_t msg_len)
{
    if (!lock || PQresultStatus(lock) != PGRES_TUPLES_OK || PQntuples(lock) != 1 ||
        engine_state_is_terminal(col_int(lock, 0, 0)))
        return false;
    return store_proof_check(u, (curve_id)col_int(lock, 0, 1), msg, msg_len) != CUZK_OK;
}

/* Locks a job's row for the transaction: *final whether it is final or
 * gone. false: the statement failed. */
static bool lock_job(pg_store *s, const char *id, bool *final)
{
    pg_params p = {0};
    p_text(&p, id);
    PGresult *r = pg_exec(&s->pg, SQL_LOCK_JOB, &p);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    *final = !ok || PQntuples(r) == 0 || engine_state_is_terminal(col_int(r, 0, 0));
    PQclear(r);
    return ok;
}

/* Runs a statement returning at most a row: *got whether it did. */
static bool run_row(pg_store *s, const char *sql, const pg_params *p, bool *got, int64_t *first)
{
    PGresult *r = pg_exec(&s->pg, sql, p);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    *got = ok && PQntuples(r) > 0;
    if (*got && first)
        *first = col_int(r, 0, 0);
    PQclear(r);
    return ok;
}

/* A proof's write, three statements (l, p, d: their parameters): the
 * job's row locked (the writers of one job's proofs one after the
 * other), the proof written unless the partition has one or the job is
 * final, and the job made done when no partition is left without a
 * proof (a row when it was). */
static void proof_steps(pg_step *steps, pg_params *l, pg_params *p, pg_params *d, const char *host,
                        const store_update *u)
{
    p_text(l, u->id);
    p_i64(p, ENGINE_STATE_DONE);
    p_bytes(p, u->proof, u->proof_len);
    p_bytes(p, u->num_pub ? (const void *)u->pub : "", u->num_pub * sizeof(fr_t));
    p_text(p, host);
    p_text(p, u->id);
    p_i64(p, u->idx);
    p_i64(p, curve_of_proof_len(u->proof_len));
    p_i64(d, ENGINE_STATE_DONE);
    p_text(d, u->id);
    steps[0] = (pg_step){SQL_LOCK_JOB, l, NULL};
    steps[1] = (pg_step){SQL_PROVED, p, NULL};
    steps[2] = (pg_step){SQL_JOB_DONE, d, NULL};
}

/* One transaction, one round trip (proof_steps). */
static cuzk_status complete(store *st, const char *host, const store_update *u, bool *finished,
                            char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pg_params l = {0}, p = {0}, d = {0};
    pg_step steps[3];
    proof_steps(steps, &l, &p, &d, host, u);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 3);
    cuzk_status rc =
        pg_pipe_status(&s->pg, ok, steps, 3, "cannot write a partition's proof", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    *finished = ok && PQntuples(steps[2].r) > 0;
    if (ok && proof_refused(steps[0].r, u, msg, msg_len))
        rc = CUZK_ERR_INVALID_ARGUMENT;
    pg_pipe_clear(steps, 3);
    return rc;
}

/* proof_steps then SQL_CLAIM: one transaction, one round trip, one
 * flush. The claim never waits on a lock (SKIP LOCKED), so holding the
 * job's row meanwhile orders nothing new. */
static cuzk_status complete_claim(store *st, const char *host, const store_update *u,
                                  bool *finished, const char *const *circuits, size_t num_circuits,
                                  uint32_t max, double lease_s, store_lease *out, uint32_t *n,
                                  char *msg, size_t msg_len)
{
    *n = 0;
    if (!max || !num_circuits)
        return complete(st, host, u, finished, msg, msg_len);
    pg_store *s = impl(st);
    pg_params l = {0}, p = {0}, d = {0}, c = {0};
    char *names = claim_params(&c, host, circuits, num_circuits, max, lease_s);
    if (!names)
        return CUZK_ERR_OUT_OF_MEMORY;
    pg_step steps[4];
    proof_steps(steps, &l, &p, &d, host, u);
    steps[3] = (pg_step){SQL_CLAIM, &c, NULL};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 4);
    cuzk_status rc = pg_pipe_status(&s->pg, ok, steps, 4,
                                    "cannot write a partition's proof and claim", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    *finished = ok && PQntuples(steps[2].r) > 0;
    /* A refused proof is not written; the claim stands (its leases are
     * the host's to prove). */
    if (ok && proof_refused(steps[0].r, u, msg, msg_len))
        rc = CUZK_ERR_INVALID_ARGUMENT;
    if (ok)
        read_leases(steps[3].r, max, out, n);
    pg_pipe_clear(steps, 4);
    free(names);
    return rc;
}

/* Makes a job final in a transaction that holds its row: *changed. */
static bool end_job(pg_store *s, const char *id, engine_state state, const char *message,
                    bool *changed)
{
    pg_params p = {0};
    p_i64(&p, (int64_t)state);
    p_str(&p, message);
    p_text(&p, id);
    p_i64(&p, ENGINE_STATE_DONE);
    return run_row(s, SQL_JOB_END, &p, changed, NULL);
}

static cuzk_status fail_partition(store *st, const char *id, uint32_t idx, const char *reason,
                                  uint32_t limit, bool *failed, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    *failed = false;
    pg_params p = {0};
    p_str(&p, reason);
    p_text(&p, id);
    p_i64(&p, idx);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool final = false, got = false;
    int64_t failures = 0;
    bool ok = pg_run(&s->pg, "BEGIN", NULL) && lock_job(s, id, &final);
    if (ok && !final)
        ok = run_row(s, SQL_PART_FAILED, &p, &got, &failures);
    if (ok && got && failures >= (int64_t)limit) {
        char why[512];
        snprintf(why, sizeof(why), "partition %u failed %" PRId64 " times, the last: %s", idx,
                 failures, reason);
        ok = end_job(s, id, ENGINE_STATE_FAILED, why, failed);
    } else if (ok && got) {
        ok = notify(s, ""); /* claimable again */
    }
    cuzk_status rc = end_tx(s, ok, "cannot record a partition's failure", msg, msg_len);
    if (rc != CUZK_OK)
        *failed = false;
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cuzk_status release(store *st, const char *host, const char *id, uint32_t idx, char *msg,
                           size_t msg_len)
{
    pg_store *s = impl(st);
    pg_params p = {0}, e = {0};
    if (idx == UINT32_MAX) {
        p_text(&p, host);
    } else {
        p_text(&p, id);
        p_i64(&p, idx);
        p_text(&p, host);
    }
    p_str(&e, "");
    pg_step steps[] = {{SQL_LAZY, NULL, NULL},
                       {idx == UINT32_MAX ? SQL_RELEASE_ALL : SQL_RELEASE, &p, NULL},
                       {SQL_NOTIFY, &e, NULL}};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 3);
    cuzk_status rc = pg_pipe_status(&s->pg, ok, steps, 3, "cannot release a lease", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    pg_pipe_clear(steps, 3);
    return rc;
}

/* A cancel: the job's row locked, then made final unless it is. */
static cuzk_status finish(store *st, const char *id, engine_state state, const char *message,
                          bool *changed, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pg_params l = {0}, p = {0};
    p_text(&l, id);
    p_i64(&p, (int64_t)state);
    p_str(&p, message);
    p_text(&p, id);
    p_i64(&p, ENGINE_STATE_DONE);
    pg_step steps[] = {{SQL_LOCK_JOB, &l, NULL}, {SQL_JOB_END, &p, NULL}};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 2);
    cuzk_status rc = pg_pipe_status(&s->pg, ok, steps, 2, "cannot make a job final", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    *changed = ok && PQntuples(steps[1].r) > 0;
    pg_pipe_clear(steps, 2);
    return rc;
}

static cuzk_status leave(store *st, const char *host, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pg_params p = {0}, e = {0};
    p_text(&p, host);
    p_str(&e, "");
    pg_step steps[] = {{SQL_RELEASE_ALL, &p, NULL}, {SQL_LEAVE, &p, NULL}, {SQL_NOTIFY, &e, NULL}};
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    bool ok = pg_pipeline(&s->pg, steps, 3);
    cuzk_status rc =
        pg_pipe_status(&s->pg, ok, steps, 3, "cannot remove the host's record", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    pg_pipe_clear(steps, 3);
    return rc;
}

static cuzk_status info(store *st, store_cluster_info *out, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    memset(out, 0, sizeof(*out));
    pg_params q = {0};
    p_i64(&q, ENGINE_STATE_DONE);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    cuzk_status rc = CUZK_OK;
    PGresult *h = pg_query(&s->pg, SQL_HOSTS, NULL, "cannot read the hosts", msg, msg_len);
    PGresult *r = h ? pg_query(&s->pg, SQL_QUEUE, &q, "cannot read the queue", msg, msg_len) : NULL;
    pthread_mutex_unlock(&s->mu);
    if (!h || !r)
        rc = CUZK_ERR_IO;
    int nh = h ? PQntuples(h) : 0;
    if (rc == CUZK_OK && nh && !(out->hosts = calloc((size_t)nh, sizeof(*out->hosts))))
        rc = CUZK_ERR_OUT_OF_MEMORY;
    for (int i = 0; rc == CUZK_OK && i < nh; i++) {
        store_host *x = &out->hosts[out->num_hosts++];
        col_text(x->host, sizeof(x->host), h, i, 0);
        x->beat_age_s = col_f64(h, i, 1);
        x->draining = PQgetlength(h, i, 2) == 1 && PQgetvalue(h, i, 2)[0];
        x->leases = (uint64_t)col_int(h, i, 3);
    }
    for (int i = 0; rc == CUZK_OK && i < PQntuples(r); i++) {
        int64_t prio = col_int(r, i, 0);
        if (prio < 0 || prio >= ENGINE_PRIORITY_COUNT)
            continue;
        out->waiting[prio] = (uint64_t)col_int(r, i, 1);
        out->leased[prio] = (uint64_t)col_int(r, i, 2);
    }
    PQclear(h);
    PQclear(r);
    if (rc != CUZK_OK)
        store_cluster_info_free(out);
    return rc;
}

static cuzk_status finals(store *st, const char (*ids)[STORE_ID_CHARS + 1], size_t n, bool *final,
                          char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    const char **v = malloc((n ? n : 1) * sizeof(*v));
    if (!v)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        v[i] = ids[i];
        final[i] = true; /* unless found unfinished */
    }
    char *list = pg_text_array(v, n);
    free(v);
    if (!list)
        return CUZK_ERR_OUT_OF_MEMORY;
    pg_params p = {0};
    p_text(&p, list);
    p_i64(&p, ENGINE_STATE_DONE);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    PGresult *r = pg_query(&s->pg, SQL_FINALS, &p, "cannot read jobs' states", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    free(list);
    for (int row = 0; r && row < PQntuples(r); row++) {
        char id[STORE_ID_CHARS + 1];
        col_text(id, sizeof(id), r, row, 0);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(ids[i], id))
                final[i] = false;
    }
    cuzk_status rc = r ? CUZK_OK : CUZK_ERR_IO;
    if (!r)
        for (size_t i = 0; i < n; i++)
            final[i] = false; /* unknown: nothing is stopped on a guess */
    PQclear(r);
    return rc;
}

static cuzk_status ids(store *st, char (**out)[STORE_ID_CHARS + 1], size_t *n, char *msg,
                       size_t msg_len)
{
    pg_store *s = impl(st);
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    PGresult *r = pg_query(&s->pg, SQL_IDS, NULL, "cannot list jobs", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    if (!r)
        return CUZK_ERR_IO;
    int rows = PQntuples(r);
    *out = malloc((size_t)(rows ? rows : 1) * sizeof(**out));
    for (int i = 0; *out && i < rows; i++)
        col_text((*out)[(*n)++], STORE_ID_CHARS + 1, r, i, 0);
    PQclear(r);
    return *out ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
}

static cuzk_status drop_spills(store *st, const char *id, uint32_t max,
                               bool (*remove)(void *ctx, const char *path), void *ctx,
                               uint32_t *gone, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    *gone = 0;
    pg_params p = {0};
    if (id)
        p_text(&p, id);
    else
        p_i64(&p, max);
    p_i64(&p, ENGINE_STATE_DONE);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    PGresult *r = pg_query(&s->pg, id ? SQL_JOB_SPILLS : SQL_FINAL_SPILLS, &p,
                           "cannot read the spilled witnesses of final jobs", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    if (!r)
        return CUZK_ERR_IO;
    int rows = PQntuples(r);
    const char **paths = malloc((size_t)(rows ? rows : 1) * sizeof(*paths));
    if (!paths) {
        PQclear(r);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    /* A file is removed before its path is forgotten: a host that dies
     * in between leaves a path to a missing file, which the next drop
     * finds gone; the other order would leave a file nothing names. */
    for (int row = 0; row < rows; row++)
        if (!PQgetisnull(r, row, 0) && remove(ctx, PQgetvalue(r, row, 0)))
            paths[(*gone)++] = PQgetvalue(r, row, 0);
    cuzk_status rc = CUZK_OK;
    char *list = *gone ? pg_text_array(paths, *gone) : NULL;
    if (*gone && !list)
        rc = CUZK_ERR_OUT_OF_MEMORY;
    if (list) {
        pg_params f = {0};
        p_text(&f, list);
        pthread_mutex_lock(&s->mu);
        pg_ensure(&s->pg);
        if (!pg_run(&s->pg, SQL_FORGET_SPILLS, &f))
            rc = pg_error(&s->pg, "cannot forget removed spilled witnesses", NULL, msg, msg_len);
        pthread_mutex_unlock(&s->mu);
    }
    free(list);
    free(paths);
    PQclear(r);
    return rc;
}

static cuzk_status spills_needed(store *st, const char *const *paths, const char *const *jobs,
                                 size_t n, bool *needed, char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    /* Needed unless the store says otherwise: a file is never taken for
     * an orphan on a failure. */
    for (size_t i = 0; i < n; i++)
        needed[i] = true;
    if (!n)
        return CUZK_OK;
    char *path_list = pg_text_array(paths, n), *job_list = pg_text_array(jobs, n);
    if (!path_list || !job_list) {
        free(path_list);
        free(job_list);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    pg_params p = {0};
    p_text(&p, path_list);
    p_text(&p, job_list);
    pthread_mutex_lock(&s->mu);
    pg_ensure(&s->pg);
    PGresult *r = pg_query(&s->pg, SQL_SPILLS_NEEDED, &p,
                           "cannot look up the files found in the spill folder", msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    free(path_list);
    free(job_list);
    if (!r)
        return CUZK_ERR_IO;
    for (size_t i = 0; i < n; i++)
        needed[i] = false;
    int rows = PQntuples(r);
    for (int row = 0; row < rows; row++) {
        int64_t at = col_int(r, row, 0);
        if (at >= 1 && (uint64_t)at <= n)
            needed[at - 1] = true;
    }
    PQclear(r);
    return CUZK_OK;
}

static uint64_t events(store *st)
{
    return pg_conn_events(&impl(st)->pg);
}

static bool wait_event(store *st, uint64_t seen, double timeout_s)
{
    return pg_conn_wait(&impl(st)->pg, seen, timeout_s);
}

static const store_cluster_ops pg_cluster_ops = {
    .claim = claim,
    .beat = beat,
    .complete = complete,
    .complete_claim = complete_claim,
    .fail_partition = fail_partition,
    .release = release,
    .finish = finish,
    .leave = leave,
    .info = info,
    .events = events,
    .wait = wait_event,
    .finals = finals,
    .bound_queue = bound_queue,
    .ids = ids,
    .drop_spills = drop_spills,
    .spills_needed = spills_needed,
};

static const store_ops pg_ops = {
    .close = close_store,
    .add = add,
    .find_key = find_key,
    .write = write_updates,
    .list = list,
    .get = get,
    .expire = expire,
    .cluster = &pg_cluster_ops,
};

/* ----------------------------------------------------------------- open */

/* Applies the migration to `version` unless cuzk_schema has it, in one
 * transaction, under the advisory lock. */
static cuzk_status migrate_one(pg_store *s, int version, char *msg, size_t msg_len)
{
    pg_params lock = {0}, p = {0};
    p_i64(&lock, MIGRATION_LOCK);
    p_i64(&p, version);
    PGresult *r = NULL;
    bool ok =
        pg_run(&s->pg, "BEGIN", NULL) &&
        pg_run(&s->pg, "SELECT pg_advisory_xact_lock($1::bigint)", &lock) && /* until COMMIT */
        pg_run(&s->pg,
               "CREATE TABLE IF NOT EXISTS cuzk_schema (version INTEGER PRIMARY KEY,"
               " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
               NULL);
    if (ok) {
        r = pg_exec(&s->pg, "SELECT max(version) FROM cuzk_schema", NULL);
        ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    }
    int64_t have = ok ? col_int(r, 0, 0) : 0;
    PQclear(r);
    if (ok && have > (int64_t)NUM_MIGRATIONS) {
        pg_run(&s->pg, "ROLLBACK", NULL);
        msg_set(msg, msg_len, "job store %s has schema version %" PRId64 "; this cuzk knows %zu",
                s->pg.where, have, NUM_MIGRATIONS);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (ok && have < version)
        ok = pg_run(&s->pg, migrations[version - 1], NULL) &&
             pg_run(&s->pg, "INSERT INTO cuzk_schema (version) VALUES ($1::integer)", &p);
    if (!ok || !pg_run(&s->pg, "COMMIT", NULL)) {
        cuzk_status rc = pg_error(&s->pg, "cannot apply the schema", NULL, msg, msg_len);
        pg_run(&s->pg, "ROLLBACK", NULL);
        return rc;
    }
    return CUZK_OK;
}

cuzk_status store_open_postgres(store **out, const char *conninfo, char *msg, size_t msg_len)
{
    *out = NULL;
    pg_store *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->base.ops = &pg_ops;
    pthread_mutex_init(&s->mu, NULL);
    cuzk_status rc = pg_conn_open(&s->pg, conninfo, msg, msg_len);
    for (int v = 1; rc == CUZK_OK && v <= (int)NUM_MIGRATIONS; v++)
        rc = migrate_one(s, v, msg, msg_len);
    if (rc == CUZK_OK)
        rc = pg_conn_listen(&s->pg, SQL_LISTEN, msg, msg_len);
    if (rc != CUZK_OK) {
        close_store(&s->base);
        return rc;
    }
    *out = &s->base;
    return CUZK_OK;
}
