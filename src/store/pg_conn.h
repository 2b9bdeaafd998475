#ifndef CUZK_STORE_PG_CONN_H
#define CUZK_STORE_PG_CONN_H

/* The PostgreSQL store's connection to its server, through libpq: the
 * store (pg_store.c) holds every SQL statement and the logic; this holds
 * how they are run.
 *
 * Parameters go as text, except the binary data (blinding, witnesses,
 * proofs, public inputs), which goes as bytea in binary; results come in
 * binary. One connection, used under the store's mutex (its caller
 * serializes); a broken connection is reset, and a statement that found
 * it broken outside a transaction runs again once (so a server restart
 * costs no request an error). Every statement is prepared on the
 * connection at its first use, known by its text's address (each is a
 * static string of the store's). A notification listener on a second
 * connection counts the notifications the store raises (pg_conn_listen,
 * pg_conn_events, pg_conn_wait). */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include <libpq-fe.h>

#include "cuzk/status.h"

/* Statements prepared on one connection at most (the rest run
 * unprepared), statements in one pipeline at most, and parameters of one
 * statement at most. */
#define PG_MAX_PREPARED 64
#define PG_MAX_STEPS 8
#define PG_MAX_PARAMS 11

typedef struct pg_conn {
    PGconn *conn;
    const char *prepared[PG_MAX_PREPARED]; /* statements prepared on conn, by slot */
    size_t num_prepared;
    char conninfo[1024];
    char where[512]; /* the server, as messages name it (no password) */

    /* The listener: its own connection, on which listen_sql ran. */
    const char *listen_sql;
    pthread_mutex_t ev_mu;
    pthread_cond_t ev_cv;
    uint64_t events; /* notifications (and reconnections: some may be lost) */
    bool stop;
    pthread_t listener;
    bool listening;
} pg_conn;

/* Connects to conninfo (a postgresql:// URL or libpq's key=value
 * settings); pg is zeroed before. Whatever it returns, pg_conn_close
 * releases it. */
cuzk_status pg_conn_open(pg_conn *pg, const char *conninfo, char *msg, size_t msg_len);
/* Stops the listener (when started) and closes the connection. */
void pg_conn_close(pg_conn *pg);

/* Starts the listener: a thread with its own connection that runs
 * listen_sql (a LISTEN; a static string) and counts what is notified,
 * made again whenever it is lost. */
cuzk_status pg_conn_listen(pg_conn *pg, const char *listen_sql, char *msg, size_t msg_len);
/* The notifications seen so far (a counter), and a wait of up to
 * timeout_s for one after `seen`: false on timeout. */
uint64_t pg_conn_events(pg_conn *pg);
bool pg_conn_wait(pg_conn *pg, uint64_t seen, double timeout_s);

/* ----------------------------------------------------------- parameters */

/* A statement's parameters: text unless given as bytes. */
typedef struct pg_params {
    int n;
    const char *val[PG_MAX_PARAMS];
    int len[PG_MAX_PARAMS], fmt[PG_MAX_PARAMS];
    char num[PG_MAX_PARAMS][32];
} pg_params;

static inline void p_text(pg_params *p, const char *text) /* NULL or "": SQL NULL */
{
    p->val[p->n] = text && *text ? text : NULL;
    p->len[p->n] = 0;
    p->fmt[p->n++] = 0;
}

static inline void p_str(pg_params *p, const char *text) /* NULL or "": '' */
{
    p_text(p, text);
    if (!p->val[p->n - 1])
        p->val[p->n - 1] = "";
}

static inline void p_i64(pg_params *p, int64_t v)
{
    snprintf(p->num[p->n], sizeof(p->num[0]), "%" PRId64, v);
    p_text(p, p->num[p->n]);
}

static inline void p_f64(pg_params *p, double v)
{
    snprintf(p->num[p->n], sizeof(p->num[0]), "%.17g", v);
    p_text(p, p->num[p->n]);
}

static inline void p_bytes(pg_params *p, const void *b, uint64_t len) /* NULL: SQL NULL */
{
    p->val[p->n] = b ? (const char *)b : NULL;
    p->len[p->n] = (int)len;
    p->fmt[p->n++] = 1;
}

/* Strings as a text[] literal: {"a","b"}, quotes and backslashes escaped.
 * NULL when out of memory (malloc'd). */
char *pg_text_array(const char *const *v, size_t n);

/* ------------------------------------------------------------- running */

/* A connection that has broken (the server restarted, the network) is
 * reset before it is used: at the start of every operation. */
void pg_ensure(pg_conn *pg);
/* The error of a result (or, r NULL, of the connection) into msg, naming
 * the server and what failed; CUZK_ERR_IO. */
cuzk_status pg_error(pg_conn *pg, const char *what, const PGresult *r, char *msg, size_t msg_len);
/* Runs sql (prepared at its first use); results in binary. The caller
 * PQclear's. */
PGresult *pg_exec(pg_conn *pg, const char *sql, const pg_params *p);
/* Runs a statement whose rows, if any, are not wanted; without p, by the
 * simple protocol, which takes several statements (a migration). */
bool pg_run(pg_conn *pg, const char *sql, const pg_params *p);
/* Runs a statement returning rows: NULL (and msg said) on failure. */
PGresult *pg_query(pg_conn *pg, const char *sql, const pg_params *p, const char *what, char *msg,
                   size_t msg_len);
/* Whether the result failed on a unique index. */
bool pg_unique_violation(const PGresult *r);

/* ------------------------------------------------------------ pipelines
 * A transaction whose statements do not depend on each other's answers
 * on the client goes to the server in one round trip: libpq's pipeline
 * mode, the statements (and the prepares of those not prepared yet)
 * sent at once, then one Sync. Statements up to a Sync without a BEGIN
 * are one implicit transaction: it commits at the Sync when all
 * succeeded, and is rolled back when one failed (the statements after it
 * are not run). */

/* One statement of a pipeline; r: its result (PQclear'd by
 * pg_pipe_clear). */
typedef struct pg_step {
    const char *sql;
    const pg_params *p;
    PGresult *r;
} pg_step;

/* Runs n steps (PG_MAX_STEPS at most) as one transaction in one round
 * trip; each step's result in steps[i].r (NULL for those not run);
 * whether all succeeded. A transaction lost to a broken connection
 * before it was sent runs once more on a fresh one. The caller
 * pg_pipe_clear's. */
bool pg_pipeline(pg_conn *pg, pg_step *steps, size_t n);
void pg_pipe_clear(pg_step *steps, size_t n);
/* Ends a pipelined transaction's call: CUZK_OK when it committed (ok),
 * else the error of the step that failed (or of the connection). */
cuzk_status pg_pipe_status(pg_conn *pg, bool ok, pg_step *steps, size_t n, const char *what,
                           char *msg, size_t msg_len);

/* -------------------------------------------------------- binary columns */

static inline uint64_t pg_big_endian(const char *b, int len)
{
    uint64_t v = 0;
    for (int i = 0; i < len; i++)
        v = v << 8 | (uint8_t)b[i];
    return v;
}

/* An integer column (int4 or int8); 0 when NULL. */
static inline int64_t col_int(const PGresult *r, int row, int col)
{
    int len = PQgetlength(r, row, col);
    if (PQgetisnull(r, row, col) || (len != 4 && len != 8))
        return 0;
    uint64_t v = pg_big_endian(PQgetvalue(r, row, col), len);
    return len == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

static inline double col_f64(const PGresult *r, int row, int col)
{
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 8)
        return 0;
    uint64_t v = pg_big_endian(PQgetvalue(r, row, col), 8);
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

static inline bool col_bool(const PGresult *r, int row, int col)
{
    return PQgetlength(r, row, col) == 1 && PQgetvalue(r, row, col)[0];
}

static inline void col_text(char *out, size_t cap, const PGresult *r, int row, int col)
{
    snprintf(out, cap, "%.*s", PQgetlength(r, row, col), PQgetvalue(r, row, col));
}

/* A copy of a bytea column (NULL when empty); false when out of memory. */
static inline bool col_copy(void **out, uint64_t *len, const PGresult *r, int row, int col)
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

#endif
