/* The PostgreSQL store's connection (store/pg_conn.h): libpq, prepared
 * statements, pipelines, reconnection and the notification listener.
 * No SQL of the store's is here: every statement comes from pg_store.c. */
#define _POSIX_C_SOURCE 200809L
#include "store/pg_conn.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/msg.h"

/* How often the listener looks for the database again once its
 * connection is lost. */
#define RELISTEN_S 1

/* libpq's notices (a NOTICE raised by a statement) are not the service's
 * log: dropped, rather than printed on stderr. */
static void drop_notice(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

/* ------------------------------------------------------------ running */

/* The error of a result (or of the connection) into msg; the status. */
cuzk_status pg_error(pg_conn *pg, const char *what, const PGresult *r, char *msg, size_t msg_len)
{
    const char *e = r ? PQresultErrorMessage(r) : "";
    if (!e || !*e)
        e = PQerrorMessage(pg->conn);
    size_t n = strlen(e);
    while (n && (e[n - 1] == '\n' || e[n - 1] == ' '))
        n--;
    msg_set(msg, msg_len, "job store %s: %s: %.*s", pg->where, what, (int)n, e);
    return CUZK_ERR_IO;
}

/* A fresh connection (PQreset): the old one's prepared statements are
 * gone with it. */
static void reset(pg_conn *pg)
{
    PQreset(pg->conn);
    pg->num_prepared = 0;
}

/* A connection that has broken (the server restarted, the network) is
 * reset before it is used. */
void pg_ensure(pg_conn *pg)
{
    if (PQstatus(pg->conn) != CONNECTION_OK)
        reset(pg);
}

/* A statement that failed because the connection broke while no
 * transaction was open (the server restarted since the last use): the
 * connection is reset, and the statement (the first of a transaction, or
 * one on its own, or a whole pipelined transaction: none of them harmful
 * twice) runs again once. */
static bool again(pg_conn *pg, const PGresult *r, bool idle)
{
    if (!idle || (r && PQresultStatus(r) != PGRES_FATAL_ERROR) ||
        PQstatus(pg->conn) == CONNECTION_OK)
        return false;
    reset(pg);
    return PQstatus(pg->conn) == CONNECTION_OK;
}

/* ---------------------------------------------------- prepared statements
 * Every statement with the extended protocol is prepared on the
 * connection at its first use and named by its slot ("cuzk_<slot>"),
 * so that it is parsed and planned once per connection, not at every
 * call. Statements are known by their text's address (each is a static
 * string). A prepared statement outlives the transaction that prepared
 * it, even one rolled back. */

static void prepared_name(char out[16], size_t slot)
{
    snprintf(out, 16, "cuzk_%zu", slot);
}

/* The slot of sql when it is prepared on this connection; -1 if not. */
static int prepared_slot(const pg_conn *pg, const char *sql)
{
    for (size_t i = 0; i < pg->num_prepared; i++)
        if (pg->prepared[i] == sql)
            return (int)i;
    return -1;
}

/* The slot sql is to be prepared in; -1 when all are taken (it then
 * runs unprepared). */
static int next_slot(const pg_conn *pg)
{
    return pg->num_prepared < PG_MAX_PREPARED ? (int)pg->num_prepared : -1;
}

static bool prepared_ok(const PGresult *r)
{
    return PQresultStatus(r) == PGRES_COMMAND_OK;
}

static PGresult *exec_once(pg_conn *pg, const char *sql, const pg_params *p)
{
    int n = p ? p->n : 0;
    const char *const *val = p ? p->val : NULL;
    const int *len = p ? p->len : NULL, *fmt = p ? p->fmt : NULL;
    char name[16];
    int slot = prepared_slot(pg, sql);
    if (slot < 0 && (slot = next_slot(pg)) >= 0) {
        prepared_name(name, (size_t)slot);
        PGresult *r = PQprepare(pg->conn, name, sql, 0, NULL);
        bool ok = prepared_ok(r);
        PQclear(r);
        if (ok)
            pg->prepared[pg->num_prepared++] = sql;
        else
            slot = -1; /* unprepared: its error, if any, is the statement's */
    }
    if (slot < 0)
        return PQexecParams(pg->conn, sql, n, NULL, val, len, fmt, 1);
    prepared_name(name, (size_t)slot);
    return PQexecPrepared(pg->conn, name, n, val, len, fmt, 1);
}

/* Runs sql; results in binary. The caller PQclear's. */
PGresult *pg_exec(pg_conn *pg, const char *sql, const pg_params *p)
{
    bool idle = PQtransactionStatus(pg->conn) == PQTRANS_IDLE;
    PGresult *r = exec_once(pg, sql, p);
    if (again(pg, r, idle)) {
        PQclear(r);
        r = exec_once(pg, sql, p);
    }
    return r;
}

/* ------------------------------------------------------------ pipelines
 * (store/pg_conn.h says what one is) */

/* Sends the steps and the Sync; false when the connection would not take
 * them. prep[i]: the slot step i is prepared in by this pipeline (-1:
 * none). */
static bool pipe_send(pg_conn *pg, const pg_step *steps, size_t n, int *prep)
{
    bool ok = PQenterPipelineMode(pg->conn) == 1;
    size_t preparing = 0;
    for (size_t i = 0; ok && i < n; i++) {
        const pg_params *p = steps[i].p;
        char name[16];
        int slot = prepared_slot(pg, steps[i].sql);
        prep[i] = -1;
        if (slot < 0 && pg->num_prepared + preparing < PG_MAX_PREPARED) {
            slot = (int)(pg->num_prepared + preparing++);
            prep[i] = slot;
            prepared_name(name, (size_t)slot);
            ok = PQsendPrepare(pg->conn, name, steps[i].sql, 0, NULL) == 1;
        }
        if (!ok)
            break;
        if (slot < 0) {
            ok = PQsendQueryParams(pg->conn, steps[i].sql, p ? p->n : 0, NULL, p ? p->val : NULL,
                                   p ? p->len : NULL, p ? p->fmt : NULL, 1) == 1;
        } else {
            prepared_name(name, (size_t)slot);
            ok = PQsendQueryPrepared(pg->conn, name, p ? p->n : 0, p ? p->val : NULL,
                                     p ? p->len : NULL, p ? p->fmt : NULL, 1) == 1;
        }
    }
    return ok && PQpipelineSync(pg->conn) == 1;
}

/* The next result of the pipeline, and the NULL that closes it; NULL
 * when none comes (the connection broke). */
static PGresult *pipe_next(pg_conn *pg)
{
    PGresult *r = PQgetResult(pg->conn);
    if (r && PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
        PGresult *extra;
        while ((extra = PQgetResult(pg->conn)))
            PQclear(extra); /* none expected: one result per statement */
    }
    return r;
}

/* Reads what the server answered: a prepare's, then the statement's, per
 * step; then the Sync. Whether every statement succeeded. */
static bool pipe_read(pg_conn *pg, pg_step *steps, size_t n, const int *prep)
{
    bool ok = true, broken = false;
    for (size_t i = 0; i < n && !broken; i++) {
        if (prep[i] >= 0) {
            PGresult *r = pipe_next(pg);
            broken = !r;
            if (r && prepared_ok(r) && (size_t)prep[i] == pg->num_prepared)
                pg->prepared[pg->num_prepared++] = steps[i].sql;
            else if (r)
                ok = false;
            if (r && !prepared_ok(r) && !steps[i].r)
                steps[i].r = r; /* the step's error */
            else
                PQclear(r);
            if (broken)
                break;
        }
        PGresult *r = pipe_next(pg);
        broken = !r;
        if (r && !steps[i].r)
            steps[i].r = r;
        else
            PQclear(r);
        ExecStatusType t = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        ok = ok && (t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK);
    }
    PGresult *sync = broken ? NULL : PQgetResult(pg->conn);
    bool synced = sync && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
    PQclear(sync);
    if (!synced || PQexitPipelineMode(pg->conn) != 1) {
        /* Lost in the middle: the server rolls the transaction back when
         * the connection goes; a connection that is left in pipeline
         * mode is of no more use. */
        ok = false;
        if (PQstatus(pg->conn) == CONNECTION_OK)
            reset(pg);
    }
    return ok;
}

void pg_pipe_clear(pg_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        PQclear(steps[i].r);
        steps[i].r = NULL;
    }
}

/* Runs steps as one transaction in one round trip (see above); each
 * step's result in steps[i].r (NULL for those not run); whether all
 * succeeded. A transaction lost to a broken connection before it was
 * sent runs once more on a fresh one. The caller pg_pipe_clear's. */
bool pg_pipeline(pg_conn *pg, pg_step *steps, size_t n)
{
    int prep[PG_MAX_STEPS];
    if (n > PG_MAX_STEPS)
        return false;
    for (int attempt = 0; attempt < 2; attempt++) {
        bool idle = PQtransactionStatus(pg->conn) == PQTRANS_IDLE;
        bool sent = pipe_send(pg, steps, n, prep);
        if (sent && pipe_read(pg, steps, n, prep))
            return true;
        if (!sent && PQpipelineStatus(pg->conn) != PQ_PIPELINE_OFF)
            PQexitPipelineMode(pg->conn); /* refused while commands are queued */
        PGresult *first = steps[0].r;
        if (attempt || !idle || !again(pg, first, idle))
            return false;
        pg_pipe_clear(steps, n);
    }
    return false;
}

/* Runs a statement whose rows, if any, are not wanted. */
bool pg_run(pg_conn *pg, const char *sql, const pg_params *p)
{
    /* without parameters: the simple protocol, which takes several
     * statements (a migration) */
    bool idle = PQtransactionStatus(pg->conn) == PQTRANS_IDLE;
    PGresult *r = p ? pg_exec(pg, sql, p) : PQexec(pg->conn, sql);
    if (!p && again(pg, r, idle)) {
        PQclear(r);
        r = PQexec(pg->conn, sql);
    }
    ExecStatusType t = PQresultStatus(r);
    bool ok = t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
    PQclear(r);
    return ok;
}

/* Whether the last statement failed on a unique index. */
bool pg_unique_violation(const PGresult *r)
{
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return code && strcmp(code, "23505") == 0;
}

/* ------------------------------------------------------------- helpers */

/* Strings as a text[] literal: {"a","b"}, quotes and backslashes escaped.
 * NULL when out of memory (malloc'd). */
char *pg_text_array(const char *const *v, size_t n)
{
    size_t cap = 3;
    for (size_t i = 0; i < n; i++)
        cap += 2 * strlen(v[i]) + 3;
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    *o++ = '{';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *o++ = ',';
        *o++ = '"';
        for (const char *c = v[i]; *c; c++) {
            if (*c == '"' || *c == '\\')
                *o++ = '\\';
            *o++ = *c;
        }
        *o++ = '"';
    }
    *o++ = '}';
    *o = 0;
    return out;
}

/* Runs a statement returning rows: NULL (and msg said) on failure. */
PGresult *pg_query(pg_conn *pg, const char *sql, const pg_params *p, const char *what, char *msg,
                   size_t msg_len)
{
    PGresult *r = pg_exec(pg, sql, p);
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        return r;
    pg_error(pg, what, r, msg, msg_len);
    PQclear(r);
    return NULL;
}

/* Ends a pipelined transaction's call: CUZK_OK when it committed, else
 * the error of the step that failed (or of the connection). */
cuzk_status pg_pipe_status(pg_conn *pg, bool ok, pg_step *steps, size_t n, const char *what,
                           char *msg, size_t msg_len)
{
    if (ok)
        return CUZK_OK;
    const PGresult *err = NULL;
    for (size_t i = 0; i < n && !err; i++)
        if (steps[i].r && PQresultStatus(steps[i].r) == PGRES_FATAL_ERROR)
            err = steps[i].r;
    return pg_error(pg, what, err, msg, msg_len);
}

/* ------------------------------------------------------------- listener */

static void bump(pg_conn *pg)
{
    pthread_mutex_lock(&pg->ev_mu);
    pg->events++;
    pthread_cond_broadcast(&pg->ev_cv);
    pthread_mutex_unlock(&pg->ev_mu);
}

uint64_t pg_conn_events(pg_conn *pg)
{
    pthread_mutex_lock(&pg->ev_mu);
    uint64_t n = pg->events;
    pthread_mutex_unlock(&pg->ev_mu);
    return n;
}

bool pg_conn_wait(pg_conn *pg, uint64_t seen, double timeout_s)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    double whole = (double)(time_t)timeout_s;
    until.tv_sec += (time_t)timeout_s;
    until.tv_nsec += (long)((timeout_s - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&pg->ev_mu);
    while (pg->events == seen && !pg->stop)
        if (pthread_cond_timedwait(&pg->ev_cv, &pg->ev_mu, &until) == ETIMEDOUT)
            break;
    bool got = pg->events != seen;
    pthread_mutex_unlock(&pg->ev_mu);
    return got;
}

static bool stopping(pg_conn *pg)
{
    pthread_mutex_lock(&pg->ev_mu);
    bool stop = pg->stop;
    pthread_mutex_unlock(&pg->ev_mu);
    return stop;
}

/* A connection that has run pg->listen_sql (LISTEN on the store's
 * channel); NULL when the server cannot be reached now. */
static PGconn *listen_conn(pg_conn *pg)
{
    PGconn *c = PQconnectdb(pg->conninfo);
    if (c && PQstatus(c) == CONNECTION_OK) {
        PQsetNoticeProcessor(c, drop_notice, NULL);
        PGresult *r = PQexec(c, pg->listen_sql);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (ok)
            return c;
    }
    PQfinish(c);
    return NULL;
}

/* Counts notifications; a lost connection is made again (and counted as
 * one: what came meanwhile is unknown, so waiters look again). */
static void *listener_main(void *arg)
{
    pg_conn *pg = arg;
    PGconn *c = NULL;
    bool lost = false;
    while (!stopping(pg)) {
        if (!c && !(c = listen_conn(pg))) {
            nanosleep(&(struct timespec){.tv_sec = RELISTEN_S}, NULL);
            continue;
        }
        if (lost) {
            lost = false;
            bump(pg);
        }
        struct pollfd pfd = {.fd = PQsocket(c), .events = POLLIN};
        int got = poll(&pfd, 1, 200); /* short: a close is seen soon */
        if (got < 0 && errno != EINTR)
            got = 0;
        if (got > 0 && !PQconsumeInput(c)) {
            PQfinish(c);
            c = NULL;
            lost = true;
            bump(pg);
            continue;
        }
        bool any = false;
        PGnotify *n;
        while ((n = PQnotifies(c))) {
            any = true;
            PQfreemem(n);
        }
        if (any)
            bump(pg);
    }
    PQfinish(c);
    return NULL;
}

cuzk_status pg_conn_listen(pg_conn *pg, const char *listen_sql, char *msg, size_t msg_len)
{
    pg->listen_sql = listen_sql;
    int e = pthread_create(&pg->listener, NULL, listener_main, pg);
    if (e) {
        msg_set(msg, msg_len, "job store %s: cannot start the notification listener: %s", pg->where,
                strerror(e));
        return CUZK_ERR_IO;
    }
    pg->listening = true;
    return CUZK_OK;
}

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

bool store_is_postgres_url(const char *where)
{
    return where &&
           (strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0);
}

cuzk_status pg_conn_open(pg_conn *pg, const char *conninfo, char *msg, size_t msg_len)
{
    pthread_mutex_init(&pg->ev_mu, NULL);
    pthread_cond_init(&pg->ev_cv, NULL);
    snprintf(pg->conninfo, sizeof(pg->conninfo), "%s", conninfo);
    store_postgres_where(pg->conninfo, pg->where, sizeof(pg->where));
    pg->conn = PQconnectdb(pg->conninfo);
    if (!pg->conn)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status rc = CUZK_OK;
    if (PQstatus(pg->conn) != CONNECTION_OK)
        rc = pg_error(pg, "cannot connect", NULL, msg, msg_len);
    PQsetNoticeProcessor(pg->conn, drop_notice, NULL); /* not on stderr */
    return rc;
}

void pg_conn_close(pg_conn *pg)
{
    if (pg->listening) {
        pthread_mutex_lock(&pg->ev_mu);
        pg->stop = true;
        pthread_mutex_unlock(&pg->ev_mu);
        pthread_join(pg->listener, NULL);
    }
    PQfinish(pg->conn);
    pthread_cond_destroy(&pg->ev_cv);
    pthread_mutex_destroy(&pg->ev_mu);
}
