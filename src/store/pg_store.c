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
 * Parameters go as text, except the binary data (blinding, witnesses,
 * proofs, public inputs), which goes as bytea in binary; results come in
 * binary. One connection, serialized by a mutex; a broken connection is
 * reset before the next operation.
 *
 * One server per database, until hosts claim partitions: the open store
 * holds a session-level advisory lock (OWNER_LOCK), which the server
 * releases when the connection ends, kill -9 of the process included. An
 * open waits for it a few seconds (a restarted server's old connection
 * may take a moment to end), then fails saying the store is in use. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "store/store.h"
#include "util/msg.h"
#include "util/wipe.h"

/* The advisory lock's key, taken while migrating: "cuzk" in ASCII. */
#define MIGRATION_LOCK 0x63757a6bLL
/* The one server's lock, held while the store is open: "cuzs". */
#define OWNER_LOCK 0x63757a73LL
#define OWNER_WAIT_S 10

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
};
#define NUM_MIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

#define JOB_COLUMNS                                                                                \
    "id, COALESCE(idem_key, ''), circuit, priority, partitions, timeout_s, blinding, state,"       \
    " message, submitted_at, finished_at,"                                                         \
    " (SELECT count(*) FROM partitions p WHERE p.job = jobs.id AND p.proof IS NOT NULL)"

static const char SQL_ADD_JOB[] =
    "INSERT INTO jobs (id, idem_key, circuit, priority, partitions, timeout_s, blinding, state,"
    " message, submitted_at) VALUES ($1, $2, $3, $4::bigint, $5::bigint, $6::float8, $7::bytea,"
    " $8::bigint, $9, $10::float8)";
static const char SQL_ADD_PART[] =
    "INSERT INTO partitions (job, idx, seed, wtns_path, witness, state)"
    " VALUES ($1, $2::bigint, $3::bigint, $4, $5::bytea, $6::bigint)";
static const char SQL_FIND_KEY[] = "SELECT id FROM jobs WHERE idem_key = $1";
static const char SQL_PART_DONE[] =
    "UPDATE partitions SET state = $1::bigint, proof = $2::bytea, public = $3::bytea"
    " WHERE job = $4 AND idx = $5::bigint";
static const char SQL_JOB_FINAL[] =
    "UPDATE jobs SET state = $1::bigint, message = $2, finished_at = $3::float8, blinding = NULL"
    " WHERE id = $4";
static const char SQL_DROP_INPUTS[] =
    "UPDATE partitions SET witness = NULL,"
    " state = CASE WHEN proof IS NULL THEN $1::bigint ELSE state END WHERE job = $2";
static const char SQL_LIST[] = "SELECT " JOB_COLUMNS " FROM jobs ORDER BY submitted_at, seq";
static const char SQL_GET_JOB[] = "SELECT " JOB_COLUMNS " FROM jobs WHERE id = $1";
static const char SQL_GET_PARTS[] =
    "SELECT idx, seed, wtns_path, witness, state, proof, public FROM partitions"
    " WHERE job = $1 ORDER BY idx";
static const char SQL_EXPIRED[] =
    "SELECT " JOB_COLUMNS " FROM jobs WHERE state >= $1::bigint AND"
    " (($2::float8 > 0 AND finished_at < $2::float8) OR id NOT IN (SELECT id FROM jobs WHERE"
    " state >= $1::bigint ORDER BY finished_at DESC, seq DESC LIMIT $3::bigint))";
static const char SQL_DEL_JOB[] = "DELETE FROM jobs WHERE id = $1";

typedef struct pg_store {
    store base;
    pthread_mutex_t mu;
    PGconn *conn;
    char conninfo[1024];
    char where[512]; /* the server, as messages name it (no password) */
} pg_store;

static pg_store *impl(store *st)
{
    return (pg_store *)st;
}

/* ----------------------------------------------------------- parameters */

/* A statement's parameters: text unless given as bytes. */
#define MAX_PARAMS 10
typedef struct params {
    int n;
    const char *val[MAX_PARAMS];
    int len[MAX_PARAMS], fmt[MAX_PARAMS];
    char num[MAX_PARAMS][32];
} params;

static void p_text(params *p, const char *text) /* NULL or "": SQL NULL */
{
    p->val[p->n] = text && *text ? text : NULL;
    p->len[p->n] = 0;
    p->fmt[p->n++] = 0;
}

static void p_str(params *p, const char *text) /* NULL or "": '' */
{
    p_text(p, text);
    if (!p->val[p->n - 1])
        p->val[p->n - 1] = "";
}

static void p_i64(params *p, int64_t v)
{
    snprintf(p->num[p->n], sizeof(p->num[0]), "%" PRId64, v);
    p_text(p, p->num[p->n]);
}

static void p_f64(params *p, double v)
{
    snprintf(p->num[p->n], sizeof(p->num[0]), "%.17g", v);
    p_text(p, p->num[p->n]);
}

static void p_bytes(params *p, const void *b, uint64_t len) /* NULL: SQL NULL */
{
    p->val[p->n] = b ? (const char *)b : NULL;
    p->len[p->n] = (int)len;
    p->fmt[p->n++] = 1;
}

/* ------------------------------------------------------------ running */

/* The error of a result (or of the connection) into msg; the status. */
static cuzk_status pg_error(pg_store *s, const char *what, const PGresult *r, char *msg,
                            size_t msg_len)
{
    const char *e = r ? PQresultErrorMessage(r) : "";
    if (!s->conn)
        e = "another cuzk serve took the store while the connection was down; restart this one";
    else if (!e || !*e)
        e = PQerrorMessage(s->conn);
    size_t n = strlen(e);
    while (n && (e[n - 1] == '\n' || e[n - 1] == ' '))
        n--;
    msg_set(msg, msg_len, "job store %s: %s: %.*s", s->where, what, (int)n, e);
    return CUZK_ERR_IO;
}

static bool take_owner_lock(pg_store *s);

/* A connection that has broken is reset before it is used, and takes the
 * owner's lock again. When another server took it meanwhile, the
 * connection is dropped (NULL): every operation fails from then on. */
static void ensure(pg_store *s)
{
    if (!s->conn || PQstatus(s->conn) == CONNECTION_OK)
        return;
    PQreset(s->conn);
    if (PQstatus(s->conn) == CONNECTION_OK && !take_owner_lock(s)) {
        PQfinish(s->conn);
        s->conn = NULL;
    }
}

/* Runs sql; results in binary. The caller PQclear's. */
static PGresult *exec(pg_store *s, const char *sql, const params *p)
{
    return PQexecParams(s->conn, sql, p ? p->n : 0, NULL, p ? p->val : NULL, p ? p->len : NULL,
                        p ? p->fmt : NULL, 1);
}

/* Runs a statement whose rows, if any, are not wanted. */
static bool run(pg_store *s, const char *sql, const params *p)
{
    /* without parameters: the simple protocol, which takes several
     * statements (a migration) */
    PGresult *r = p ? exec(s, sql, p) : PQexec(s->conn, sql);
    ExecStatusType t = PQresultStatus(r);
    bool ok = t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
    PQclear(r);
    return ok;
}

/* Whether the last statement failed on a unique index. */
static bool unique_violation(const PGresult *r)
{
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return code && strcmp(code, "23505") == 0;
}

/* -------------------------------------------------------- binary columns */

static uint64_t be(const char *b, int len)
{
    uint64_t v = 0;
    for (int i = 0; i < len; i++)
        v = v << 8 | (uint8_t)b[i];
    return v;
}

/* An integer column (int4 or int8); 0 when NULL. */
static int64_t col_int(const PGresult *r, int row, int col)
{
    int len = PQgetlength(r, row, col);
    if (PQgetisnull(r, row, col) || (len != 4 && len != 8))
        return 0;
    uint64_t v = be(PQgetvalue(r, row, col), len);
    return len == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

static double col_f64(const PGresult *r, int row, int col)
{
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 8)
        return 0;
    uint64_t v = be(PQgetvalue(r, row, col), 8);
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

static void col_text(char *out, size_t cap, const PGresult *r, int row, int col)
{
    snprintf(out, cap, "%.*s", PQgetlength(r, row, col), PQgetvalue(r, row, col));
}

/* A copy of a bytea column (NULL when empty); false when out of memory. */
static bool col_copy(void **out, uint64_t *len, const PGresult *r, int row, int col)
{
    *out = NULL;
    *len = (uint64_t)PQgetlength(r, row, col);
    if (!*len)
        return true;
    if (!(*out = malloc(*len)))
        return false;
    memcpy(*out, PQgetvalue(r, row, col), *len);
    return true;
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
}

/* ----------------------------------------------------------- operations */

static void close_store(store *st)
{
    pg_store *s = impl(st);
    PQfinish(s->conn);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static bool find_key_locked(pg_store *s, const char *key, char id[STORE_ID_CHARS + 1])
{
    params p = {0};
    p_text(&p, key);
    PGresult *r = exec(s, SQL_FIND_KEY, &p);
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
    ensure(s);
    bool found = find_key_locked(s, key, id);
    pthread_mutex_unlock(&s->mu);
    return found;
}

/* Inserts the job's rows; *dup when its key is another job's. */
static bool add_rows(pg_store *s, const store_job *j, const store_partition *parts, bool *dup,
                     PGresult **err)
{
    params p = {0};
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
    PGresult *r = exec(s, SQL_ADD_JOB, &p);
    cuzk_wipe(rs, sizeof(rs));
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    *dup = !ok && unique_violation(r);
    for (uint32_t i = 0; ok && i < j->partitions; i++) {
        PQclear(r);
        const store_partition *part = &parts[i];
        params q = {0};
        p_text(&q, j->id);
        p_i64(&q, i);
        p_i64(&q, (int64_t)part->seed);
        p_text(&q, part->wtns_path);
        p_bytes(&q, part->witness, part->witness_len * sizeof(fr_t));
        p_i64(&q, ENGINE_STATE_QUEUED);
        r = exec(s, SQL_ADD_PART, &q);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    }
    if (ok) {
        PQclear(r);
        r = NULL;
    }
    *err = r; /* the failure's result, for its message */
    return ok;
}

static cuzk_status add(store *st, const store_job *j, const store_partition *parts,
                       char existing[STORE_ID_CHARS + 1], char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    char other[STORE_ID_CHARS + 1];
    pthread_mutex_lock(&s->mu);
    ensure(s);
    bool dup = false;
    PGresult *err = NULL;
    if (!run(s, "BEGIN", NULL)) {
        rc = pg_error(s, "cannot begin a transaction", NULL, msg, msg_len);
    } else if (j->key[0] && find_key_locked(s, j->key, other)) {
        dup = true;
        run(s, "ROLLBACK", NULL);
    } else if (!add_rows(s, j, parts, &dup, &err) || !run(s, "COMMIT", NULL)) {
        if (!dup)
            rc = pg_error(s, "cannot add a job", err, msg, msg_len);
        PQclear(err);
        run(s, "ROLLBACK", NULL);
        /* Another host took the key between the look and the insert. */
        if (dup && !find_key_locked(s, j->key, other))
            rc = pg_error(s, "cannot add a job", NULL, msg, msg_len);
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

static bool apply(pg_store *s, const store_update *u)
{
    params p = {0};
    if (u->kind == STORE_PARTITION_DONE) {
        p_i64(&p, ENGINE_STATE_DONE);
        p_bytes(&p, u->proof, STORE_PROOF_BYTES);
        p_bytes(&p, u->num_pub ? (const void *)u->pub : "", u->num_pub * sizeof(fr_t));
        p_text(&p, u->id);
        p_i64(&p, u->idx);
        return run(s, SQL_PART_DONE, &p);
    }
    p_i64(&p, (int64_t)u->state);
    p_str(&p, u->message);
    p_f64(&p, u->at);
    p_text(&p, u->id);
    if (!run(s, SQL_JOB_FINAL, &p))
        return false;
    /* Witnesses are not needed once the job is final; partitions without
     * a proof end cancelled (as the SQLite store does). */
    params q = {0};
    p_i64(&q, ENGINE_STATE_CANCELLED);
    p_text(&q, u->id);
    return run(s, SQL_DROP_INPUTS, &q);
}

static cuzk_status write_updates(store *st, const store_update *u, size_t n, char *msg,
                                 size_t msg_len)
{
    pg_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    ensure(s);
    bool ok = run(s, "BEGIN", NULL);
    for (size_t i = 0; ok && i < n; i++)
        ok = apply(s, &u[i]);
    if (!ok || !run(s, "COMMIT", NULL)) {
        rc = pg_error(s, "cannot write", NULL, msg, msg_len);
        run(s, "ROLLBACK", NULL);
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* Calls fn for each row of a JOB_COLUMNS query. */
static cuzk_status each_job(pg_store *s, const char *sql, const params *p, store_job_fn fn,
                            void *ctx, char *msg, size_t msg_len)
{
    PGresult *r = exec(s, sql, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        cuzk_status rc = pg_error(s, "cannot read", r, msg, msg_len);
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
    ensure(s);
    cuzk_status rc = each_job(s, SQL_LIST, NULL, fn, ctx, msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static cuzk_status read_parts(pg_store *s, const store_job *j, store_partition **out, char *msg,
                              size_t msg_len)
{
    params p = {0};
    p_text(&p, j->id);
    PGresult *r = exec(s, SQL_GET_PARTS, &p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        cuzk_status rc = pg_error(s, "cannot read partitions", r, msg, msg_len);
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
        uint64_t wlen = 0, plen = 0;
        if ((!PQgetisnull(r, row, 2) && !(part->wtns_path = strdup(PQgetvalue(r, row, 2)))) ||
            !col_copy((void **)&part->witness, &wlen, r, row, 3) ||
            !col_copy((void **)&part->pub, &plen, r, row, 6))
            st = CUZK_ERR_OUT_OF_MEMORY;
        part->witness_len = wlen / sizeof(fr_t);
        part->num_pub = plen / sizeof(fr_t);
        store_partition_proof(part, PQgetvalue(r, row, 5), (size_t)PQgetlength(r, row, 5));
    }
    PQclear(r);
    return store_partitions_give(parts, j->partitions, st, out);
}

static cuzk_status get(store *st, const char *id, store_job *job, store_partition **parts,
                       char *msg, size_t msg_len)
{
    pg_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    ensure(s);
    params p = {0};
    p_text(&p, id);
    PGresult *r = exec(s, SQL_GET_JOB, &p);
    cuzk_status ret = CUZK_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        ret = pg_error(s, "cannot read a job", r, msg, msg_len);
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
    ensure(s);
    params p = {0};
    p_i64(&p, ENGINE_STATE_DONE);
    p_f64(&p, before);
    p_i64(&p, keep > INT64_MAX ? INT64_MAX : (int64_t)keep);
    bool ok = run(s, "BEGIN", NULL);
    cuzk_status rc = ok ? each_job(s, SQL_EXPIRED, &p, store_jobs_add, &x, msg, msg_len)
                        : pg_error(s, "cannot begin a transaction", NULL, msg, msg_len);
    ok = ok && rc == CUZK_OK;
    for (size_t i = 0; ok && i < x.n; i++) {
        params d = {0};
        p_text(&d, x.jobs[i].id); /* its partitions go with it */
        ok = run(s, SQL_DEL_JOB, &d);
    }
    if (rc == CUZK_OK && (!ok || !run(s, "COMMIT", NULL)))
        rc = pg_error(s, "cannot expire jobs", NULL, msg, msg_len);
    if (rc != CUZK_OK)
        run(s, "ROLLBACK", NULL);
    pthread_mutex_unlock(&s->mu);
    store_jobs_hand(&x, rc == CUZK_OK ? fn : NULL, ctx);
    return rc;
}

static const store_ops pg_ops = {
    .close = close_store,
    .add = add,
    .find_key = find_key,
    .write = write_updates,
    .list = list,
    .get = get,
    .expire = expire,
};

/* ----------------------------------------------------------------- open */

void store_postgres_where(const char *conninfo, char *out, size_t cap)
{
    PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
    size_t n = 0;
    out[0] = 0;
    for (PQconninfoOption *o = opts; o && o->keyword; o++) {
        if (!o->val || !*o->val || strcmp(o->keyword, "password") == 0 || n >= cap)
            continue;
        n += (size_t)snprintf(out + n, cap - n, "%s%s=%s", n ? " " : "", o->keyword, o->val);
    }
    if (!opts)
        snprintf(out, cap, "(settings libpq cannot parse)");
    else if (!out[0])
        snprintf(out, cap, "(libpq's defaults)");
    PQconninfoFree(opts);
}

/* Applies the migration to `version` unless cuzk_schema has it, in one
 * transaction, under the advisory lock. */
static cuzk_status migrate_one(pg_store *s, int version, char *msg, size_t msg_len)
{
    params lock = {0}, p = {0};
    p_i64(&lock, MIGRATION_LOCK);
    p_i64(&p, version);
    PGresult *r = NULL;
    bool ok = run(s, "BEGIN", NULL) &&
              run(s, "SELECT pg_advisory_xact_lock($1::bigint)", &lock) && /* until COMMIT */
              run(s,
                  "CREATE TABLE IF NOT EXISTS cuzk_schema (version INTEGER PRIMARY KEY,"
                  " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                  NULL);
    if (ok) {
        r = exec(s, "SELECT max(version) FROM cuzk_schema", NULL);
        ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    }
    int64_t have = ok ? col_int(r, 0, 0) : 0;
    PQclear(r);
    if (ok && have > (int64_t)NUM_MIGRATIONS) {
        run(s, "ROLLBACK", NULL);
        msg_set(msg, msg_len, "job store %s has schema version %" PRId64 "; this cuzk knows %zu",
                s->where, have, NUM_MIGRATIONS);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (ok && have < version)
        ok = run(s, migrations[version - 1], NULL) &&
             run(s, "INSERT INTO cuzk_schema (version) VALUES ($1::integer)", &p);
    if (!ok || !run(s, "COMMIT", NULL)) {
        cuzk_status rc = pg_error(s, "cannot apply the schema", NULL, msg, msg_len);
        run(s, "ROLLBACK", NULL);
        return rc;
    }
    return CUZK_OK;
}

/* One try at the owner's lock. */
static bool take_owner_lock(pg_store *s)
{
    params p = {0};
    p_i64(&p, OWNER_LOCK);
    PGresult *r = exec(s, "SELECT pg_try_advisory_lock($1::bigint)", &p);
    bool got = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
               PQgetlength(r, 0, 0) == 1 && PQgetvalue(r, 0, 0)[0] == 1;
    PQclear(r);
    return got;
}

/* The owner's lock, waiting up to OWNER_WAIT_S for it. */
static cuzk_status wait_owner_lock(pg_store *s, char *msg, size_t msg_len)
{
    for (int i = 0; i < OWNER_WAIT_S * 10; i++) {
        if (take_owner_lock(s))
            return CUZK_OK;
        if (PQstatus(s->conn) != CONNECTION_OK)
            return pg_error(s, "cannot lock", NULL, msg, msg_len);
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
    }
    msg_set(msg, msg_len,
            "job store %s is in use by another cuzk serve (one server per database until hosts "
            "claim partitions)",
            s->where);
    return CUZK_ERR_IO;
}

static void drop_notice(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

bool store_is_postgres_url(const char *where)
{
    return where &&
           (strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0);
}

cuzk_status store_open_postgres(store **out, const char *conninfo, char *msg, size_t msg_len)
{
    *out = NULL;
    pg_store *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->base.ops = &pg_ops;
    pthread_mutex_init(&s->mu, NULL);
    snprintf(s->conninfo, sizeof(s->conninfo), "%s", conninfo);
    store_postgres_where(s->conninfo, s->where, sizeof(s->where));
    s->conn = PQconnectdb(s->conninfo);
    if (!s->conn) {
        close_store(&s->base);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    cuzk_status rc = CUZK_OK;
    if (PQstatus(s->conn) != CONNECTION_OK)
        rc = pg_error(s, "cannot connect", NULL, msg, msg_len);
    PQsetNoticeProcessor(s->conn, drop_notice, NULL); /* not on stderr */
    for (int v = 1; rc == CUZK_OK && v <= (int)NUM_MIGRATIONS; v++)
        rc = migrate_one(s, v, msg, msg_len);
    if (rc == CUZK_OK)
        rc = wait_owner_lock(s, msg, msg_len);
    if (rc != CUZK_OK) {
        close_store(&s->base);
        return rc;
    }
    *out = &s->base;
    return CUZK_OK;
}
