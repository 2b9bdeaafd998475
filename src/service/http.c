/* HTTP transport on libmicrohttpd: one daemon per listening socket, a
 * thread per connection, bodies gathered within their limits, bearer
 * tokens on TCP, and whole requests handed to the routes. */
#define _POSIX_C_SOURCE 200809L
#include "service/http.h"

#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "backend/backend.h"
#include "service/auth.h"
#include "service/service.h"
#include "util/wipe.h"

#define MAX_LISTENERS 2

typedef struct daemon_ctx {
    http_server *server;
    struct MHD_Daemon *mhd;
    bool tcp;
    int fd;
} daemon_ctx;

/* One connection, from accept to close, for the header deadline and the
 * count of connections that have not authenticated yet. */
typedef struct conn_rec {
    struct conn_rec *prev, *next;
    int fd;
    bool tcp;
    bool admitted; /* past its first request's headers (and token, on TCP) */
    bool cut;      /* shut down for missing the header deadline */
    uint64_t start_ns;
} conn_rec;

struct http_server {
    daemon_ctx daemons[MAX_LISTENERS];
    size_t num_daemons;
    http_limits limits;
    char *token;
    http_handler handler;
    struct service *svc;
    atomic_int active; /* requests started and not yet completed */
    pthread_mutex_t conn_mu;
    conn_rec *conns; /* every open connection */
    unsigned max_unadmitted;
    pthread_t watchdog;
    bool watchdog_running;
    pthread_mutex_t stop_mu;
    pthread_cond_t stop_cv;
    bool stopping;
};

/* One request's state between the handler's calls. */
typedef struct request_state {
    uint8_t *body;
    size_t len, cap;
    uint64_t limit;
    bool too_big;  /* the body passed its limit: the rest is dropped, 413 at the end */
    bool answered; /* a response went out before the body */
    uint64_t start_ns;
} request_state;

/* ----------------------------------------------------------- helpers */

const char *http_query(const http_request *rq, const char *key)
{
    if (!rq->conn) {
        for (const char *const *a = rq->args; a && a[0]; a += 2)
            if (!strcmp(a[0], key))
                return a[1];
        return NULL;
    }
    return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
}

typedef struct unknown_arg {
    const char *const *allowed;
    const char *found;
} unknown_arg;

static enum MHD_Result find_unknown(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    (void)kind;
    (void)value;
    unknown_arg *u = cls;
    for (const char *const *a = u->allowed; *a; a++)
        if (!strcmp(*a, key))
            return MHD_YES;
    u->found = key;
    return MHD_NO;
}

const char *http_query_unknown(const http_request *rq, const char *const *allowed)
{
    unknown_arg u = {.allowed = allowed};
    if (!rq->conn) {
        for (const char *const *a = rq->args; a && a[0] && !u.found; a += 2)
            find_unknown(&u, MHD_GET_ARGUMENT_KIND, a[0], a[1]);
        return u.found;
    }
    MHD_get_connection_values(rq->conn, MHD_GET_ARGUMENT_KIND, find_unknown, &u);
    return u.found;
}

void http_error(http_response *rs, unsigned status, const char *field, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    json_t *o = json_object();
    json_object_set_new(o, "error", json_string(text));
    if (field)
        json_object_set_new(o, "field", json_string(field));
    free(rs->body);
    rs->body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    rs->len = rs->body ? strlen(rs->body) : 0;
    rs->status = status;
    rs->content_type = "application/json";
}

static enum MHD_Result send_response(struct MHD_Connection *conn, http_response *rs)
{
    struct MHD_Response *r;
    if (rs->body)
        r = MHD_create_response_from_buffer(rs->len, rs->body, MHD_RESPMEM_MUST_FREE);
    else
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r) {
        free(rs->body);
        rs->body = NULL;
        return MHD_NO;
    }
    rs->body = NULL; /* MHD frees it with the response */
    if (rs->content_type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rs->content_type);
    if (rs->location[0])
        MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, rs->location);
    if (rs->retry_after_s) {
        char seconds[16];
        snprintf(seconds, sizeof(seconds), "%u", rs->retry_after_s);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    if (rs->status == MHD_HTTP_UNAUTHORIZED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    enum MHD_Result ret = MHD_queue_response(conn, rs->status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result answer_error(struct MHD_Connection *conn, unsigned status, const char *field,
                                    const char *text)
{
    http_response rs = {0};
    http_error(&rs, status, field, "%s", text);
    return send_response(conn, &rs);
}

static bool is_octet_stream(const char *ct)
{
    return ct && !strncasecmp(ct, "application/octet-stream", 24);
}

/* ------------------------------------------------------------ handler */

typedef struct header_count {
    const char *name;
    unsigned n;
} header_count;

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    (void)kind;
    (void)value;
    header_count *c = cls;
    c->n += !strcasecmp(key, c->name);
    return MHD_YES;
}

/* The connection's first request has its headers (and, on TCP with a
 * token, the right one): it no longer counts against the unauthenticated
 * ones, and the header deadline is off. */
static void admit(http_server *s, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    conn_rec *c = ci ? ci->socket_context : NULL;
    if (!c)
        return;
    pthread_mutex_lock(&s->conn_mu);
    c->admitted = true;
    pthread_mutex_unlock(&s->conn_mu);
}

static enum MHD_Result on_first_call(daemon_ctx *d, struct MHD_Connection *conn, request_state *st)
{
    http_server *s = d->server;
    /* Two of these headers are two claims, of which a proxy in front may
     * have checked one and this server would read the other (libmicrohttpd
     * hands out the first): such a request is refused, whatever the values
     * (RFC 9112 6.3 for Content-Length). */
    static const char *const single[] = {
        MHD_HTTP_HEADER_AUTHORIZATION, MHD_HTTP_HEADER_CONTENT_LENGTH, MHD_HTTP_HEADER_CONTENT_TYPE,
        MHD_HTTP_HEADER_TRANSFER_ENCODING, "Idempotency-Key"};
    for (size_t i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
        header_count c = {.name = single[i]};
        MHD_get_connection_values(conn, MHD_HEADER_KIND, count_header, &c);
        if (c.n > 1) {
            st->answered = true;
            char text[160];
            snprintf(text, sizeof(text), "the request has %u '%s' headers; one at most is allowed",
                     c.n, single[i]);
            return answer_error(conn, MHD_HTTP_BAD_REQUEST, NULL, text);
        }
    }
    if (d->tcp && s->token) {
        const char *auth =
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
        if (!auth_check_bearer(auth, s->token)) {
            st->answered = true;
            return answer_error(conn, MHD_HTTP_UNAUTHORIZED, NULL,
                                auth ? "the bearer token is wrong"
                                     : "this endpoint needs 'Authorization: Bearer <token>'");
        }
    }
    admit(s, conn);
    const char *ct = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    st->limit = is_octet_stream(ct) ? s->limits.max_body_bytes : s->limits.max_json_bytes;
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        if (!errno && !*end && n > st->limit) {
            /* Refused before any of it is read; MHD closes the connection. */
            st->answered = true;
            char text[200];
            snprintf(text, sizeof(text),
                     "the body of %llu bytes is larger than the limit of %llu bytes", n,
                     (unsigned long long)st->limit);
            return answer_error(conn, MHD_HTTP_CONTENT_TOO_LARGE, NULL, text);
        }
    }
    return MHD_YES;
}

static void take_upload(request_state *st, const char *data, size_t n)
{
    if (st->too_big || st->len + n > st->limit) {
        st->too_big = true;
        return;
    }
    if (st->len + n > st->cap) {
        size_t cap = st->cap ? st->cap : 4096;
        while (cap < st->len + n)
            cap *= 2;
        if (cap > st->limit)
            cap = (size_t)st->limit;
        uint8_t *grown = realloc(st->body, cap);
        if (!grown) {
            st->too_big = true; /* answered as too large: it is, for this machine now */
            return;
        }
        st->body = grown;
        st->cap = cap;
    }
    memcpy(st->body + st->len, data, n);
    st->len += n;
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload_data,
                                 size_t *upload_data_size, void **con_cls)
{
    (void)version;
    daemon_ctx *d = cls;
    request_state *st = *con_cls;
    if (!st) {
        if (!(st = calloc(1, sizeof(*st))))
            return MHD_NO;
        st->start_ns = backend_clock_ns();
        *con_cls = st;
        atomic_fetch_add(&d->server->active, 1);
        return on_first_call(d, conn, st);
    }
    if (st->answered) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size) {
        take_upload(st, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    st->answered = true;
    if (st->too_big) {
        char text[160];
        snprintf(text, sizeof(text), "the body is larger than the limit of %llu bytes",
                 (unsigned long long)st->limit);
        return answer_error(conn, MHD_HTTP_CONTENT_TOO_LARGE, NULL, text);
    }
    http_request rq = {
        .method = method,
        .path = url,
        .content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type"),
        .idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key"),
        .body = st->body,
        .body_len = st->len,
        .conn = conn,
        .tcp = d->tcp,
    };
    http_response rs = {0};
    d->server->handler(d->server->svc, &rq, &rs);
    if (!rs.status)
        http_error(&rs, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, "no response");
    unsigned status = rs.status;
    enum MHD_Result ret = send_response(conn, &rs);
    service_log(d->server->svc, "%s %s -> %u (%.1f ms)", method, url, status,
                (double)(backend_clock_ns() - st->start_ns) * 1e-6);
    return ret;
}

/* Called for every request that started, whether it finished or the client
 * went away: the one place a request's memory is freed. */
static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    (void)conn;
    daemon_ctx *d = cls;
    request_state *st = *con_cls;
    if (why != MHD_REQUEST_TERMINATED_COMPLETED_OK && st && !st->answered)
        service_log(d->server->svc, "a request ended before it was answered (code %d)", (int)why);
    if (st) {
        free(st->body);
        free(st);
        atomic_fetch_sub(&d->server->active, 1);
    }
    *con_cls = NULL;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof(text), fmt, ap);
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = 0;
    service_log(cls, "http: %s", text);
}

/* ------------------------------------------------------- connections */

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    daemon_ctx *d = cls;
    http_server *s = d->server;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        conn_rec *c = calloc(1, sizeof(*c));
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = c;
        if (!c)
            return;
        c->fd = ci ? ci->connect_fd : -1;
        c->tcp = d->tcp;
        c->start_ns = backend_clock_ns();
        pthread_mutex_lock(&s->conn_mu);
        c->next = s->conns;
        if (s->conns)
            s->conns->prev = c;
        s->conns = c;
        pthread_mutex_unlock(&s->conn_mu);
        return;
    }
    conn_rec *c = *socket_context;
    if (!c)
        return;
    /* Before libmicrohttpd closes the socket: the watchdog never touches a
     * descriptor number that may belong to something else by then. */
    pthread_mutex_lock(&s->conn_mu);
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    pthread_mutex_unlock(&s->conn_mu);
    free(c);
    *socket_context = NULL;
}

/* A new TCP connection always comes in (libmicrohttpd bounds the total
 * and the connections of one address); when the connections that have not
 * authenticated yet hold their whole share, the oldest of them is cut to
 * make room. So such connections never hold more than their share, the
 * rest of the slots stay for clients that showed their token, and a
 * client arriving now is not turned away by ones that came before it and
 * sent nothing. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    (void)addr;
    (void)addrlen;
    http_server *s = ((daemon_ctx *)cls)->server;
    pthread_mutex_lock(&s->conn_mu);
    unsigned live = 0;
    conn_rec *oldest = NULL;
    for (conn_rec *c = s->conns; c; c = c->next) {
        if (c->tcp && !c->admitted && !c->cut) {
            live++;
            oldest = c; /* the list is newest first */
        }
    }
    if (live >= s->max_unadmitted && oldest && oldest->fd >= 0) {
        shutdown(oldest->fd, SHUT_RDWR);
        oldest->cut = true;
    }
    pthread_mutex_unlock(&s->conn_mu);
    return MHD_YES;
}

/* Cuts the connections whose first request's headers are late. */
static void *watchdog_main(void *arg)
{
    http_server *s = arg;
    uint64_t deadline = (uint64_t)(s->limits.header_timeout_s * 1e9);
    pthread_mutex_lock(&s->stop_mu);
    while (!s->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->stop_cv, &s->stop_mu, &until);
        uint64_t now = backend_clock_ns();
        unsigned cut = 0;
        pthread_mutex_lock(&s->conn_mu);
        for (conn_rec *c = s->conns; c; c = c->next) {
            if (c->admitted || c->cut || c->fd < 0 || now - c->start_ns < deadline)
                continue;
            /* The connection's own thread sees the end of its stream and
             * closes it. */
            shutdown(c->fd, SHUT_RDWR);
            c->cut = true;
            cut++;
        }
        pthread_mutex_unlock(&s->conn_mu);
        if (cut)
            service_log(s->svc, "closed %u connection%s without a request's headers after %.1f s",
                        cut, cut == 1 ? "" : "s", s->limits.header_timeout_s);
    }
    pthread_mutex_unlock(&s->stop_mu);
    return NULL;
}

/* ----------------------------------------------------------- life */

cuzk_status http_server_start(http_server **out, const http_listener *listeners, size_t n,
                              const http_limits *limits, const char *token, http_handler handler,
                              struct service *svc, char *msg, size_t msg_len)
{
    *out = NULL;
    http_server *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->limits = *limits;
    s->handler = handler;
    s->svc = svc;
    atomic_init(&s->active, 0);
    pthread_mutex_init(&s->conn_mu, NULL);
    pthread_mutex_init(&s->stop_mu, NULL);
    pthread_cond_init(&s->stop_cv, NULL);
    s->max_unadmitted = limits->max_unauthenticated ? limits->max_unauthenticated
                                                    : (limits->max_connections + 1) / 2;
    if (token && !(s->token = strdup(token))) {
        http_server_stop(s);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < n && i < MAX_LISTENERS; i++) {
        daemon_ctx *d = &s->daemons[s->num_daemons];
        d->server = s;
        d->tcp = listeners[i].tcp;
        d->fd = listeners[i].fd;
        /* MHD's per-connection pool holds the request line and headers: a
         * request whose headers do not fit is answered 431 by MHD. */
        /* The per-address bound and the admission policy are for TCP; the
         * Unix socket's clients are local users the file system let in. */
        unsigned per_address = d->tcp ? limits->max_per_address : 0;
        d->mhd = MHD_start_daemon(
            MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC |
                MHD_USE_ERROR_LOG,
            0, d->tcp ? on_accept : NULL, d, on_access, d, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, svc,
            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)d->fd, MHD_OPTION_CONNECTION_LIMIT,
            (unsigned)limits->max_connections, MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)limits->idle_timeout_s,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)limits->max_header_bytes,
            MHD_OPTION_NOTIFY_COMPLETED, on_completed, d, MHD_OPTION_NOTIFY_CONNECTION,
            on_connection, d, MHD_OPTION_END);
        if (!d->mhd) {
            backend_msg(msg, msg_len, "cannot start the HTTP server on %s", listeners[i].label);
            close(d->fd);
            for (size_t k = i + 1; k < n; k++)
                close(listeners[k].fd);
            http_server_stop(s);
            return CUZK_ERR_INTERNAL;
        }
        s->num_daemons++;
    }
    if (limits->header_timeout_s > 0) {
        if (pthread_create(&s->watchdog, NULL, watchdog_main, s) != 0) {
            backend_msg(msg, msg_len, "cannot start the header deadline's thread");
            http_server_stop(s);
            return CUZK_ERR_INTERNAL;
        }
        s->watchdog_running = true;
    }
    *out = s;
    return CUZK_OK;
}

void http_server_drain(http_server *s, double max_s)
{
    if (!s)
        return;
    uint64_t until = backend_clock_ns() + (uint64_t)(max_s * 1e9);
    while (atomic_load(&s->active) > 0 && backend_clock_ns() < until) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void http_server_stop(http_server *s)
{
    if (!s)
        return;
    if (s->watchdog_running) {
        pthread_mutex_lock(&s->stop_mu);
        s->stopping = true;
        pthread_cond_signal(&s->stop_cv);
        pthread_mutex_unlock(&s->stop_mu);
        pthread_join(s->watchdog, NULL);
    }
    for (size_t i = 0; i < s->num_daemons; i++) {
        /* Quiesce first so the listening socket comes back to us to close:
         * MHD does not close a socket it was given. */
        MHD_socket fd = MHD_quiesce_daemon(s->daemons[i].mhd);
        MHD_stop_daemon(s->daemons[i].mhd);
        if (fd != MHD_INVALID_SOCKET)
            close(fd);
    }
    if (s->token)
        cuzk_wipe(s->token, strlen(s->token));
    free(s->token);
    pthread_cond_destroy(&s->stop_cv);
    pthread_mutex_destroy(&s->stop_mu);
    pthread_mutex_destroy(&s->conn_mu);
    free(s);
}
