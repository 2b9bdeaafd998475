/* The service's life: listening sockets, the HTTP daemons, the log, and a
 * clean exit that leaves no socket file behind. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "service/auth.h"
#include "service/internal.h"
#include "service/listen.h"
#include "util/wipe.h"

/* The longest a stop waits for requests in progress. */
#define SERVICE_DRAIN_S 5.0

void service_log(service *s, const char *fmt, ...)
{
    if (!s || !s->log)
        return;
    char raw[1024], line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    service_log_escape(line, sizeof(line), raw);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[32];
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    pthread_mutex_lock(&s->log_mu);
    fprintf(s->log, "%s.%03ldZ cuzk serve: %s\n", when, ts.tv_nsec / 1000000, line);
    fflush(s->log);
    pthread_mutex_unlock(&s->log_mu);
}

void service_log_escape(char *out, size_t cap, const char *text)
{
    /* Names, paths and URLs in a line come from clients: a newline in one
     * would start a forged line, a control sequence would drive the
     * reader's terminal. Every byte that is not printable ASCII is written
     * as \xHH, and a backslash as \\, so the line says exactly what came. */
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 <= cap; p++) {
        if (*p == '\\') {
            out[n++] = '\\';
            out[n++] = '\\';
        } else if (*p >= 0x20 && *p < 0x7f) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    if (cap)
        out[n < cap ? n : cap - 1] = 0;
}

static void log_line(void *ctx, const char *line)
{
    service_log(ctx, "%s", line);
}

static double wall_minus_mono(void)
{
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t mono = backend_clock_ns();
    return (double)rt.tv_sec + (double)rt.tv_nsec * 1e-9 - (double)mono * 1e-9;
}

/* What service_create set up. */
static void release(service *s)
{
    cluster_stop(s->cluster);
    durable_close(s->jobs);
    pthread_mutex_destroy(&s->submit_mu);
    confine_dir_close(&s->witness_dir);
    confine_dir_close(&s->circuit_dir);
    confine_dir_close(&s->spill_dir);
    ledger_destroy(&s->queued);
    for (size_t i = 0; i < s->num_circuit_fds; i++)
        close(s->circuit_fds[i]);
    free(s->circuit_fds);
    pthread_mutex_destroy(&s->circuit_fds_mu);
    pthread_mutex_destroy(&s->log_mu);
    free(s);
}

cuzk_status service_create(service **out, const service_opts *o, char *msg, size_t msg_len)
{
    *out = NULL;
    const server_config *cfg = o->server;
    service *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->engine = o->engine;
    s->metrics = o->metrics;
    s->log = o->log;
    s->max_wait_s = cfg->max_wait_s;
    s->fixed_blinding = cfg->insecure_fixed_blinding;
    s->started_ns = backend_clock_ns();
    s->wall_minus_mono = wall_minus_mono();
    atomic_init(&s->closing, false);
    pthread_mutex_init(&s->log_mu, NULL);
    pthread_mutex_init(&s->circuit_fds_mu, NULL);
    pthread_mutex_init(&s->submit_mu, NULL);
    s->witness_dir.fd = s->circuit_dir.fd = s->spill_dir.fd = -1;
    s->witness_inline_max = cfg->witness_inline_max;
    ledger_init(&s->queued, cfg->max_queued_jobs, cfg->max_queued_partitions,
                cfg->max_queued_bytes);
    cuzk_status st = CUZK_OK;
    if (cfg->witness_dir)
        st = confine_dir_open(&s->witness_dir, cfg->witness_dir, "witness_dir", msg, msg_len);
    if (st == CUZK_OK && cfg->circuit_dir)
        st = confine_dir_open(&s->circuit_dir, cfg->circuit_dir, "circuit_dir", msg, msg_len);
    if (st == CUZK_OK && cfg->witness_spill_dir)
        st = confine_dir_open(&s->spill_dir, cfg->witness_spill_dir, "witness_spill_dir", msg,
                              msg_len);
    if (st != CUZK_OK) {
        release(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

cuzk_status service_open_store(service *s, const service_opts *o, char *msg, size_t msg_len)
{
    const server_config *cfg = o->server;
    char state_dir[4096];
    store_default_dir(state_dir, sizeof(state_dir));
    durable_opts d = {.state_dir = cfg->state_dir ? cfg->state_dir : state_dir,
                      .store = cfg->store,
                      .engine = s->engine,
                      .queued = &s->queued,
                      .witness_dir = s->witness_dir.path ? &s->witness_dir : NULL,
                      .spill_dir = s->spill_dir.path ? &s->spill_dir : NULL,
                      .keep_finished = o->keep_finished,
                      .keep_finished_s = cfg->keep_finished_s,
                      .log = log_line,
                      .log_ctx = s};
    cuzk_status st = durable_open(&s->jobs, &d, msg, msg_len);
    if (st == CUZK_OK && s->spill_dir.path && !durable_shared(s->jobs))
        service_log(s, "server.witness_spill_dir is not used: the SQLite store keeps streamed "
                       "witnesses in its file");
    else if (st == CUZK_OK && s->spill_dir.path)
        service_log(s, "streamed witnesses over %llu bytes are kept in %s",
                    (unsigned long long)s->witness_inline_max, s->spill_dir.path);
    if (st != CUZK_OK || !durable_shared(s->jobs))
        return st;
    store *shared = durable_store(s->jobs);
    store_cluster(shared)->bound_queue(shared, cfg->cluster_max_queued);
    cluster_opts co = {.st = shared,
                       .engine = s->engine,
                       .host = cfg->cluster_host,
                       .lease_s = cfg->cluster_lease_s,
                       .retries = cfg->cluster_retries,
                       .witness_dir = d.witness_dir,
                       .spill_dir = d.spill_dir,
                       .log = log_line,
                       .log_ctx = s};
    return cluster_start(&s->cluster, &co, msg, msg_len);
}

void service_destroy(service *s)
{
    if (s)
        release(s);
}

cuzk_status service_start(service **out, const service_opts *o, char *msg, size_t msg_len)
{
    *out = NULL;
    const server_config *cfg = o->server;
    service *s;
    cuzk_status st = service_create(&s, o, msg, msg_len);
    if (st != CUZK_OK)
        return st;

    http_listener ls[2];
    char labels[2][4200];
    size_t n = 0, num_labels = 0;
    char token[1024] = "";
    if (cfg->tcp_address && cfg->token_file)
        st = auth_load_token(token, sizeof(token), cfg->token_file, msg, msg_len);
    if (st == CUZK_OK && cfg->socket_path) {
        /* The default socket outside $XDG_RUNTIME_DIR lies in a shared
         * folder (/tmp): in a private folder of its own there. */
        char default_socket[4096];
        config_default_socket(default_socket, sizeof(default_socket));
        const char *run = getenv("XDG_RUNTIME_DIR");
        bool private_folder = !(run && *run) && !strcmp(default_socket, cfg->socket_path);
        st = listen_unix(&ls[n].fd, cfg->socket_path, cfg->socket_mode, private_folder, msg,
                         msg_len);
        if (st == CUZK_OK) {
            if (!(s->socket_path = strdup(cfg->socket_path))) {
                close(ls[n].fd);
                unlink(cfg->socket_path);
                st = CUZK_ERR_OUT_OF_MEMORY;
            } else {
                snprintf(labels[n], sizeof(labels[n]), "unix:%s", cfg->socket_path);
                ls[n].tcp = false;
                ls[n].label = labels[n];
                n++;
            }
        }
    }
    if (st == CUZK_OK && cfg->tcp_address) {
        char bound[300];
        st = listen_tcp(&ls[n].fd, cfg->tcp_address, bound, sizeof(bound), msg, msg_len);
        if (st == CUZK_OK) {
            snprintf(labels[n], sizeof(labels[n]), "tcp:%s", bound);
            ls[n].tcp = true;
            ls[n].label = labels[n];
            n++;
        }
    }
    /* The job store after the sockets (a second server on them is told
     * so first), before any request is taken: recovered jobs are known
     * to the first. */
    if (st == CUZK_OK)
        st = service_open_store(s, o, msg, msg_len);
    if (st == CUZK_OK) {
        http_limits limits = {.max_connections = cfg->max_connections,
                              .max_header_bytes = cfg->max_header_bytes,
                              .max_json_bytes = cfg->max_json_bytes,
                              .max_body_bytes = cfg->max_body_bytes,
                              .idle_timeout_s = (unsigned)(cfg->idle_timeout_s + 0.5),
                              .header_timeout_s = cfg->header_timeout_s,
                              .max_per_address = cfg->max_connections_per_address,
                              .max_unauthenticated = cfg->max_unauthenticated};
        st = http_server_start(&s->http, ls, n, &limits, token[0] ? token : NULL, routes_handle, s,
                               msg, msg_len);
        num_labels = n;
        n = 0; /* the server owns (and on failure closed) the sockets */
    }
    bool token_used = token[0] != 0;
    /* The token is not needed in this copy any more. */
    cuzk_wipe(token, sizeof(token));
    if (st != CUZK_OK) {
        for (size_t i = 0; i < n; i++)
            close(ls[i].fd);
        if (s->socket_path)
            unlink(s->socket_path);
        free(s->socket_path);
        release(s);
        return st;
    }
    for (size_t i = 0; i < num_labels; i++)
        service_log(s, "listening on %s%s", labels[i],
                    !strncmp(labels[i], "tcp:", 4) && !token_used ? " WITHOUT a token" : "");
    if (s->witness_dir.path)
        service_log(s, "witness_paths must lie in %s", s->witness_dir.path);
    else if (cfg->tcp_address)
        service_log(s, "witness_paths refused over TCP (no server.witness_dir)");
    if (s->circuit_dir.path)
        service_log(s, "circuit files registered over the API must lie in %s", s->circuit_dir.path);
    else if (cfg->tcp_address)
        service_log(s, "circuit files refused over TCP (no server.circuit_dir)");
    if (s->fixed_blinding)
        service_log(s, "WARNING: server.insecure_fixed_blinding: submissions may fix r and s; "
                       "their proofs reveal the witness to whoever knows them (tests only)");
    *out = s;
    return CUZK_OK;
}

void service_close_submissions(service *s)
{
    if (s) {
        atomic_store(&s->closing, true);
        durable_closing(s->jobs);
        cluster_drain(s->cluster);
    }
}

void service_stop(service *s)
{
    if (!s)
        return;
    atomic_store(&s->closing, true);
    durable_closing(s->jobs);
    /* Answers already being written (awaits that the engine's shutdown
     * just ended) go out before the connections close. */
    http_server_drain(s->http, SERVICE_DRAIN_S);
    http_server_stop(s->http);
    if (s->socket_path && unlink(s->socket_path) != 0 && errno != ENOENT)
        service_log(s, "cannot remove %s: %s", s->socket_path, strerror(errno));
    service_log(s, "stopped");
    free(s->socket_path);
    release(s);
}
