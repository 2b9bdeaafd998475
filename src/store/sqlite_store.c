/* The job store in SQLite (store/store.h): one file, jobs.sqlite, in the
 * state folder, in WAL mode. All of the store's SQL is in this file.
 *
 * synchronous = NORMAL: in WAL mode a committed transaction survives the
 * death of the process (kill -9), which is what the service promises; a
 * power cut may lose the transactions since the last checkpoint. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"
#include "util/msg.h"
#include "util/wipe.h"

/* The schema's version, in PRAGMA user_version: a new store gets the
 * whole schema (schema) at this version; an older one the migrations
 * from its version up (migrations[v - 1] takes version v to v + 1), each
 * in one transaction with its new version. */
#define SCHEMA_VERSION 2

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS jobs ("
    " id TEXT PRIMARY KEY, idem_key TEXT UNIQUE, circuit TEXT NOT NULL,"
    " priority INTEGER NOT NULL, partitions INTEGER NOT NULL, timeout_s REAL NOT NULL,"
    " blinding BLOB, state INTEGER NOT NULL, message TEXT NOT NULL DEFAULT '',"
    " submitted_at REAL NOT NULL, finished_at REAL NOT NULL DEFAULT 0,"
    " curve INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS partitions ("
    " job TEXT NOT NULL, idx INTEGER NOT NULL, seed INTEGER NOT NULL, wtns_path TEXT,"
    " witness BLOB, state INTEGER NOT NULL, proof BLOB, public BLOB,"
    " PRIMARY KEY (job, idx)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS jobs_final ON jobs (state, finished_at);";

static const char *const migrations[SCHEMA_VERSION - 1] = {
    /* 1 -> 2: a job's curve (curve_id; the jobs before it were all
     * BLS12-381's), which sizes its proofs */
    "ALTER TABLE jobs ADD COLUMN curve INTEGER NOT NULL DEFAULT 0;",
};
_Static_assert(CURVE_BLS12_381 == 0, "a job stored before its curve was is BLS12-381's");

/* The statements, prepared once. */
enum {
    Q_ADD_JOB,
    Q_ADD_PART,
    Q_FIND_KEY,
    Q_JOB_CURVE,
    Q_PART_DONE,
    Q_JOB_FINAL,
    Q_DROP_INPUTS,
    Q_LIST,
    Q_GET_JOB,
    Q_GET_PARTS,
    Q_EXPIRED,
    Q_DEL_JOB,
    Q_DEL_PARTS,
    Q_BEGIN,
    Q_COMMIT,
    Q_ROLLBACK,
    NUM_Q
};

#define JOB_COLUMNS                                                                                \
    "id, COALESCE(idem_key, ''), circuit, priority, partitions, timeout_s, blinding, state,"       \
    " message, submitted_at, finished_at,"                                                         \
    " (SELECT count(*) FROM partitions p WHERE p.job = jobs.id AND p.proof IS NOT NULL),"          \
    " curve"

static const char *const sql[NUM_Q] = {
    [Q_ADD_JOB] = "INSERT INTO jobs (id, idem_key, circuit, priority, partitions, timeout_s,"
                  " blinding, state, message, submitted_at, curve) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    [Q_ADD_PART] = "INSERT INTO partitions (job, idx, seed, wtns_path, witness, state)"
                   " VALUES (?,?,?,?,?,?)",
    [Q_FIND_KEY] = "SELECT id FROM jobs WHERE idem_key = ?",
    [Q_JOB_CURVE] = "SELECT curve FROM jobs WHERE id = ?",
    [Q_PART_DONE] = "UPDATE partitions SET state = ?, proof = ?, public = ?"
                    " WHERE job = ? AND idx = ?",
    [Q_JOB_FINAL] = "UPDATE jobs SET state = ?, message = ?, finished_at = ?, blinding = NULL"
                    " WHERE id = ?",
    [Q_DROP_INPUTS] = "UPDATE partitions SET witness = NULL,"
                      " state = CASE WHEN proof IS NULL THEN ? ELSE state END WHERE job = ?",
    [Q_LIST] = "SELECT " JOB_COLUMNS " FROM jobs ORDER BY submitted_at, rowid",
    [Q_GET_JOB] = "SELECT " JOB_COLUMNS " FROM jobs WHERE id = ?",
    [Q_GET_PARTS] = "SELECT idx, seed, wtns_path, witness, state, proof, public FROM partitions"
                    " WHERE job = ? ORDER BY idx",
    [Q_EXPIRED] = "SELECT " JOB_COLUMNS " FROM jobs WHERE state >= ? AND"
                  " ((? > 0 AND finished_at < ?) OR id NOT IN (SELECT id FROM jobs WHERE"
                  " state >= ? ORDER BY finished_at DESC LIMIT ?))",
    [Q_DEL_JOB] = "DELETE FROM jobs WHERE id = ?",
    [Q_DEL_PARTS] = "DELETE FROM partitions WHERE job = ?",
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
};

typedef struct sqlite_store {
    store base;
    int lock_fd; /* jobs.lock, flock'd: one server per folder */
    pthread_mutex_t mu;
    sqlite3 *db;
    sqlite3_stmt *q[NUM_Q];
    char path[4096];
} sqlite_store;

static sqlite_store *impl(store *st)
{
    return (sqlite_store *)st;
}

/* The database's last error into msg; the status for it. */
static cuzk_status db_error(sqlite_store *s, const char *what, char *msg, size_t msg_len)
{
    msg_set(msg, msg_len, "job store %s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
    return CUZK_ERR_IO;
}

/* A statement ready for use: reset, bindings cleared. */
static sqlite3_stmt *stmt(sqlite_store *s, int which)
{
    sqlite3_stmt *q = s->q[which];
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return q;
}

/* Runs a statement that returns no rows. */
static bool run(sqlite3_stmt *q)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_DONE;
}

static void bind_text(sqlite3_stmt *q, int i, const char *text)
{
    if (text && *text)
        sqlite3_bind_text(q, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, i);
}

static void copy_text(char *out, size_t cap, sqlite3_stmt *q, int col)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(out, cap, "%s", t ? (const char *)t : "");
}

/* The row of a JOB_COLUMNS query. */
static void read_job(sqlite3_stmt *q, store_job *j)
{
    memset(j, 0, sizeof(*j));
    copy_text(j->id, sizeof(j->id), q, 0);
    copy_text(j->key, sizeof(j->key), q, 1);
    copy_text(j->circuit, sizeof(j->circuit), q, 2);
    j->priority = (engine_priority)sqlite3_column_int(q, 3);
    j->partitions = (uint32_t)sqlite3_column_int64(q, 4);
    j->timeout_s = sqlite3_column_double(q, 5);
    if (sqlite3_column_bytes(q, 6) == 2 * (int)sizeof(fr_t)) {
        const uint8_t *b = sqlite3_column_blob(q, 6);
        j->has_blinding = true;
        memcpy(&j->r, b, sizeof(fr_t));
        memcpy(&j->s, b + sizeof(fr_t), sizeof(fr_t));
    }
    j->state = (engine_state)sqlite3_column_int(q, 7);
    copy_text(j->message, sizeof(j->message), q, 8);
    j->submitted_at = sqlite3_column_double(q, 9);
    j->finished_at = sqlite3_column_double(q, 10);
    j->partitions_done = (uint32_t)sqlite3_column_int64(q, 11);
    j->curve = (curve_id)sqlite3_column_int(q, 12);
}

/* ----------------------------------------------------------- operations */

static void close_store(store *st)
{
    sqlite_store *s = impl(st);
    for (int i = 0; i < NUM_Q; i++)
        sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* and the lock with it */
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static bool find_key_locked(sqlite_store *s, const char *key, char id[STORE_ID_CHARS + 1])
{
    sqlite3_stmt *q = stmt(s, Q_FIND_KEY);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    bool found = sqlite3_step(q) == SQLITE_ROW;
    if (found)
        copy_text(id, STORE_ID_CHARS + 1, q, 0);
    sqlite3_reset(q);
    return found;
}

static bool find_key(store *st, const char *key, char id[STORE_ID_CHARS + 1])
{
    sqlite_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    bool found = find_key_locked(s, key, id);
    pthread_mutex_unlock(&s->mu);
    return found;
}

static bool add_rows(sqlite_store *s, const store_job *j, const store_partition *parts)
{
    sqlite3_stmt *q = stmt(s, Q_ADD_JOB);
    sqlite3_bind_text(q, 1, j->id, -1, SQLITE_TRANSIENT);
    bind_text(q, 2, j->key);
    sqlite3_bind_text(q, 3, j->circuit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 4, (int)j->priority);
    sqlite3_bind_int64(q, 5, j->partitions);
    sqlite3_bind_double(q, 6, j->timeout_s);
    fr_t rs[2] = {j->r, j->s};
    if (j->has_blinding)
        sqlite3_bind_blob(q, 7, rs, sizeof(rs), SQLITE_TRANSIENT);
    cuzk_wipe(rs, sizeof(rs));
    sqlite3_bind_int(q, 8, (int)j->state);
    sqlite3_bind_text(q, 9, j->message, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(q, 10, j->submitted_at);
    sqlite3_bind_int(q, 11, (int)j->curve);
    bool ok = run(q);
    sqlite3_clear_bindings(q); /* the blinding's copy */
    for (uint32_t i = 0; ok && i < j->partitions; i++) {
        const store_partition *p = &parts[i];
        q = stmt(s, Q_ADD_PART);
        sqlite3_bind_text(q, 1, j->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 2, i);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)p->seed);
        bind_text(q, 4, p->wtns_path);
        if (p->witness)
            sqlite3_bind_blob64(q, 5, p->witness, p->witness_len * sizeof(fr_t), SQLITE_STATIC);
        sqlite3_bind_int(q, 6, ENGINE_STATE_QUEUED);
        ok = run(q);
        sqlite3_clear_bindings(q);
    }
    return ok;
}

static cuzk_status add(store *st, const store_job *j, const store_partition *parts,
                       char existing[STORE_ID_CHARS + 1], char *msg, size_t msg_len)
{
    sqlite_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    if (!run(stmt(s, Q_BEGIN))) {
        rc = db_error(s, "cannot begin a transaction", msg, msg_len);
    } else if (j->key[0] && find_key_locked(s, j->key, existing ? existing : (char[33]){0})) {
        run(stmt(s, Q_ROLLBACK));
        msg_set(msg, msg_len, "the idempotency key is held by another job");
        rc = CUZK_ERR_INVALID_ARGUMENT;
    } else if (!add_rows(s, j, parts) || !run(stmt(s, Q_COMMIT))) {
        rc = db_error(s, "cannot add a job", msg, msg_len);
        run(stmt(s, Q_ROLLBACK));
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* The curve of job id as stored: *known false when there is no such job. */
static bool job_curve(sqlite_store *s, const char *id, bool *known, curve_id *curve)
{
    sqlite3_stmt *q = stmt(s, Q_JOB_CURVE);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    *known = rc == SQLITE_ROW;
    if (*known)
        *curve = (curve_id)sqlite3_column_int(q, 0);
    sqlite3_reset(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

/* One update in the open transaction: true when applied (or skipped: an
 * unknown job's); false for a proof refused (*refused, msg says why) or
 * a database error. */
static bool apply(sqlite_store *s, const store_update *u, bool *refused, char *msg, size_t msg_len)
{
    sqlite3_stmt *q;
    if (u->kind == STORE_PARTITION_DONE) {
        bool known = false;
        curve_id curve = CURVE_BLS12_381;
        if (!job_curve(s, u->id, &known, &curve))
            return false;
        if (!known)
            return true; /* expired, or never added: skipped */
        if (store_proof_check(u, curve, msg, msg_len) != CUZK_OK) {
            *refused = true;
            return false;
        }
        q = stmt(s, Q_PART_DONE);
        sqlite3_bind_int(q, 1, ENGINE_STATE_DONE);
        sqlite3_bind_blob(q, 2, u->proof, (int)u->proof_len, SQLITE_STATIC);
        if (u->num_pub)
            sqlite3_bind_blob64(q, 3, u->pub, u->num_pub * sizeof(fr_t), SQLITE_STATIC);
        else
            sqlite3_bind_zeroblob(q, 3, 0);
        sqlite3_bind_text(q, 4, u->id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 5, u->idx);
        return run(q);
    }
    q = stmt(s, Q_JOB_FINAL);
    sqlite3_bind_int(q, 1, (int)u->state);
    sqlite3_bind_text(q, 2, u->message ? u->message : "", -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 3, u->at);
    sqlite3_bind_text(q, 4, u->id, -1, SQLITE_STATIC);
    if (!run(q))
        return false;
    /* Witnesses are not needed once the job is final; partitions without
     * a proof end as the job did (cancelled, for a failed or cancelled
     * job's unproved ones). */
    q = stmt(s, Q_DROP_INPUTS);
    sqlite3_bind_int(q, 1, ENGINE_STATE_CANCELLED);
    sqlite3_bind_text(q, 2, u->id, -1, SQLITE_STATIC);
    return run(q);
}

static cuzk_status write_updates(store *st, const store_update *u, size_t n, char *msg,
                                 size_t msg_len)
{
    sqlite_store *s = impl(st);
    cuzk_status rc = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    bool ok = run(stmt(s, Q_BEGIN)), refused = false;
    for (size_t i = 0; ok && i < n; i++)
        ok = apply(s, &u[i], &refused, msg, msg_len);
    if (refused) {
        rc = CUZK_ERR_INVALID_ARGUMENT; /* msg says which proof; nothing is written */
        run(stmt(s, Q_ROLLBACK));
    } else if (!ok || !run(stmt(s, Q_COMMIT))) {
        rc = db_error(s, "cannot write", msg, msg_len);
        run(stmt(s, Q_ROLLBACK));
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* Calls fn for each row of a JOB_COLUMNS query. */
static cuzk_status each_job(sqlite_store *s, sqlite3_stmt *q, store_job_fn fn, void *ctx, char *msg,
                            size_t msg_len)
{
    int rc;
    store_job j;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        read_job(q, &j);
        bool more = fn(ctx, &j);
        cuzk_wipe(&j, sizeof(j));
        if (!more) {
            rc = SQLITE_DONE;
            break;
        }
    }
    cuzk_status st = rc == SQLITE_DONE ? CUZK_OK : db_error(s, "cannot read", msg, msg_len);
    sqlite3_reset(q);
    return st;
}

static cuzk_status list(store *st, store_job_fn fn, void *ctx, char *msg, size_t msg_len)
{
    sqlite_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    cuzk_status rc = each_job(s, stmt(s, Q_LIST), fn, ctx, msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* A copy of a blob column (NULL when empty); false when out of memory. */
static bool blob_copy(void **out, uint64_t *len, sqlite3_stmt *q, int col)
{
    *out = NULL;
    *len = (uint64_t)sqlite3_column_bytes(q, col);
    if (!*len)
        return true;
    if (!(*out = malloc(*len)))
        return false;
    memcpy(*out, sqlite3_column_blob(q, col), *len);
    return true;
}

static cuzk_status read_parts(sqlite_store *s, const store_job *j, store_partition **out, char *msg,
                              size_t msg_len)
{
    store_partition *parts = calloc(j->partitions ? j->partitions : 1, sizeof(*parts));
    if (!parts)
        return CUZK_ERR_OUT_OF_MEMORY;
    sqlite3_stmt *q = stmt(s, Q_GET_PARTS);
    sqlite3_bind_text(q, 1, j->id, -1, SQLITE_TRANSIENT);
    cuzk_status st = CUZK_OK;
    int rc;
    while (st == CUZK_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 idx = sqlite3_column_int64(q, 0);
        if (idx < 0 || idx >= j->partitions)
            continue;
        store_partition *p = &parts[idx];
        p->seed = (uint64_t)sqlite3_column_int64(q, 1);
        p->state = (engine_state)sqlite3_column_int(q, 4);
        const unsigned char *path = sqlite3_column_text(q, 2);
        uint64_t wlen = 0, plen = 0;
        if ((path && !(p->wtns_path = strdup((const char *)path))) ||
            !blob_copy((void **)&p->witness, &wlen, q, 3) ||
            !blob_copy((void **)&p->pub, &plen, q, 6))
            st = CUZK_ERR_OUT_OF_MEMORY;
        p->witness_len = wlen / sizeof(fr_t);
        p->num_pub = plen / sizeof(fr_t);
        store_partition_proof(p, j->curve, sqlite3_column_blob(q, 5),
                              (size_t)sqlite3_column_bytes(q, 5));
    }
    if (st == CUZK_OK && rc != SQLITE_DONE)
        st = db_error(s, "cannot read partitions", msg, msg_len);
    sqlite3_reset(q);
    return store_partitions_give(parts, j->partitions, st, out);
}

static cuzk_status get(store *st, const char *id, store_job *job, store_partition **parts,
                       char *msg, size_t msg_len)
{
    sqlite_store *s = impl(st);
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *q = stmt(s, Q_GET_JOB);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    cuzk_status ret = CUZK_OK;
    if (rc == SQLITE_ROW) {
        read_job(q, job);
        ret = store_row_check(job, msg, msg_len);
    } else if (rc == SQLITE_DONE) {
        msg_set(msg, msg_len, "no job %s", id);
        ret = CUZK_ERR_INVALID_ARGUMENT;
    } else
        ret = db_error(s, "cannot read a job", msg, msg_len);
    sqlite3_reset(q);
    if (ret == CUZK_OK && parts)
        ret = read_parts(s, job, parts, msg, msg_len);
    pthread_mutex_unlock(&s->mu);
    return ret;
}

static cuzk_status expire(store *st, double before, uint64_t keep, store_job_fn fn, void *ctx,
                          char *msg, size_t msg_len)
{
    sqlite_store *s = impl(st);
    store_jobs x = {0};
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *q = stmt(s, Q_EXPIRED);
    sqlite3_bind_int(q, 1, ENGINE_STATE_DONE);
    sqlite3_bind_double(q, 2, before);
    sqlite3_bind_double(q, 3, before);
    sqlite3_bind_int(q, 4, ENGINE_STATE_DONE);
    sqlite3_bind_int64(q, 5, keep > INT64_MAX ? INT64_MAX : (sqlite3_int64)keep);
    cuzk_status rc = each_job(s, q, store_jobs_add, &x, msg, msg_len);
    bool ok = rc == CUZK_OK && run(stmt(s, Q_BEGIN));
    for (size_t i = 0; ok && i < x.n; i++) {
        q = stmt(s, Q_DEL_PARTS);
        sqlite3_bind_text(q, 1, x.jobs[i].id, -1, SQLITE_STATIC);
        ok = run(q);
        q = stmt(s, Q_DEL_JOB);
        sqlite3_bind_text(q, 1, x.jobs[i].id, -1, SQLITE_STATIC);
        ok = ok && run(q);
    }
    if (rc == CUZK_OK && (!ok || !run(stmt(s, Q_COMMIT)))) {
        rc = db_error(s, "cannot expire jobs", msg, msg_len);
        run(stmt(s, Q_ROLLBACK));
    }
    pthread_mutex_unlock(&s->mu);
    store_jobs_hand(&x, rc == CUZK_OK ? fn : NULL, ctx);
    return rc;
}

static const store_ops sqlite_ops = {
    .close = close_store,
    .add = add,
    .find_key = find_key,
    .write = write_updates,
    .list = list,
    .get = get,
    .expire = expire,
};

/* ----------------------------------------------------------------- open */

/* dir and its missing parents, made 0700. */
static cuzk_status make_dir(const char *dir, char *msg, size_t msg_len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            msg_set(msg, msg_len, "cannot make the state folder %s: %s", path, strerror(errno));
            return CUZK_ERR_IO;
        }
        *p = '/';
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
        msg_set(msg, msg_len, "cannot make the state folder %s: %s", path, strerror(errno));
        return CUZK_ERR_IO;
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        msg_set(msg, msg_len, "the state folder %s is not a folder", path);
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
}

static cuzk_status prepare(sqlite_store *s, char *msg, size_t msg_len)
{
    char *err = NULL;
    /* WAL first: the schema's own transaction then goes through it. */
    if (sqlite3_exec(s->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", NULL, NULL,
                     &err) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, &err) != SQLITE_OK) {
        msg_set(msg, msg_len, "job store %s: %s", s->path, err ? err : "cannot set up");
        sqlite3_free(err);
        return CUZK_ERR_IO;
    }
    sqlite3_stmt *v;
    int version = -1;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &v, NULL) == SQLITE_OK &&
        sqlite3_step(v) == SQLITE_ROW)
        version = sqlite3_column_int(v, 0);
    sqlite3_finalize(v);
    if (version == 0) {
        /* new: the schema above is the current one */
        char set[64];
        snprintf(set, sizeof(set), "PRAGMA user_version = %d", SCHEMA_VERSION);
        sqlite3_exec(s->db, set, NULL, NULL, NULL);
        version = SCHEMA_VERSION;
    }
    for (; version >= 1 && version < SCHEMA_VERSION; version++) {
        char step[512];
        snprintf(step, sizeof(step), "BEGIN IMMEDIATE; %s PRAGMA user_version = %d; COMMIT;",
                 migrations[version - 1], version + 1);
        if (sqlite3_exec(s->db, step, NULL, NULL, &err) != SQLITE_OK) {
            msg_set(msg, msg_len, "job store %s: cannot migrate from schema version %d: %s",
                    s->path, version, err ? err : sqlite3_errmsg(s->db));
            sqlite3_free(err);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return CUZK_ERR_IO;
        }
    }
    if (version != SCHEMA_VERSION) {
        msg_set(msg, msg_len, "job store %s has schema version %d; this cuzk knows %d", s->path,
                version, SCHEMA_VERSION);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < NUM_Q; i++)
        if (sqlite3_prepare_v3(s->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) !=
            SQLITE_OK)
            return db_error(s, "cannot prepare a statement", msg, msg_len);
    return CUZK_OK;
}

cuzk_status store_open_sqlite(store **out, const char *dir, char *msg, size_t msg_len)
{
    *out = NULL;
    cuzk_status rc = make_dir(dir, msg, msg_len);
    if (rc != CUZK_OK)
        return rc;
    sqlite_store *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->base.ops = &sqlite_ops;
    s->lock_fd = -1;
    pthread_mutex_init(&s->mu, NULL);
    /* Two servers on one store would both resume its unfinished jobs. */
    char lock[4200];
    snprintf(lock, sizeof(lock), "%s/jobs.lock", dir);
    s->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (s->lock_fd < 0 || flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        msg_set(msg, msg_len,
                e == EWOULDBLOCK ? "the state folder %s is in use by another cuzk serve (one "
                                   "server per folder: give this one its own server.state_dir)"
                                 : "cannot lock the state folder %s: %s",
                dir, strerror(e));
        close_store(&s->base);
        return CUZK_ERR_IO;
    }
    snprintf(s->path, sizeof(s->path), "%s/jobs.sqlite", dir);
    /* FULLMUTEX is not needed: s->mu serializes every use. */
    int orc = sqlite3_open_v2(
        s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (orc != SQLITE_OK) {
        msg_set(msg, msg_len, "cannot open the job store %s: %s", s->path,
                s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(orc));
        close_store(&s->base);
        return CUZK_ERR_IO;
    }
    chmod(s->path, 0600);
    sqlite3_busy_timeout(s->db, 5000);
    if ((rc = prepare(s, msg, msg_len)) != CUZK_OK) {
        close_store(&s->base);
        return rc;
    }
    *out = &s->base;
    return CUZK_OK;
}
