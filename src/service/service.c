/* The service's life: listening sockets, the HTTP daemons, the log, and a
 * clean exit that leaves no socket file behind. */
#define _XOPEN_SOURCE 700 /* realpath */
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
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
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

static double wall_minus_mono(void)
{
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t mono = backend_clock_ns();
    return (double)rt.tv_sec + (double)rt.tv_nsec * 1e-9 - (double)mono * 1e-9;
}

/* server.witness_dir as the folder it names after links and "..", which
 * must exist. */
static cuzk_status resolve_witness_dir(service *s, const char *dir, char *msg, size_t msg_len)
{
    struct stat sb;
    if (!(s->witness_dir = realpath(dir, NULL)) || stat(s->witness_dir, &sb) != 0) {
        backend_msg(msg, msg_len, "[server] witness_dir %s: %s", dir, strerror(errno));
        return CUZK_ERR_IO;
    }
    if (!S_ISDIR(sb.st_mode)) {
        backend_msg(msg, msg_len, "[server] witness_dir %s is not a folder", dir);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

cuzk_status service_start(service **out, const service_opts *o, char *msg, size_t msg_len)
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

    http_listener ls[2];
    char labels[2][4200];
    size_t n = 0, num_labels = 0;
    char token[1024] = "";
    cuzk_status st = cfg->witness_dir ? resolve_witness_dir(s, cfg->witness_dir, msg, msg_len)
                                      : CUZK_OK;
    if (cfg->tcp_address && cfg->token_file)
        st = auth_load_token(token, sizeof(token), cfg->token_file, msg, msg_len);
    if (st == CUZK_OK && cfg->socket_path) {
        st = listen_unix(&ls[n].fd, cfg->socket_path, cfg->socket_mode, msg, msg_len);
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
    if (st == CUZK_OK) {
        http_limits limits = {.max_connections = cfg->max_connections,
                              .max_header_bytes = cfg->max_header_bytes,
                              .max_json_bytes = cfg->max_json_bytes,
                              .max_body_bytes = cfg->max_body_bytes,
                              .idle_timeout_s = (unsigned)(cfg->idle_timeout_s + 0.5)};
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
        free(s->witness_dir);
        pthread_mutex_destroy(&s->log_mu);
        free(s);
        return st;
    }
    for (size_t i = 0; i < num_labels; i++)
        service_log(s, "listening on %s%s", labels[i],
                    !strncmp(labels[i], "tcp:", 4) && !token_used ? " WITHOUT a token" : "");
    if (s->witness_dir)
        service_log(s, "witness_paths must lie in %s", s->witness_dir);
    else if (cfg->tcp_address)
        service_log(s, "witness_paths refused over TCP (no server.witness_dir)");
    if (s->fixed_blinding)
        service_log(s, "WARNING: server.insecure_fixed_blinding: submissions may fix r and s; "
                       "their proofs reveal the witness to whoever knows them (tests only)");
    *out = s;
    return CUZK_OK;
}

void service_close_submissions(service *s)
{
    if (s)
        atomic_store(&s->closing, true);
}

void service_stop(service *s)
{
    if (!s)
        return;
    atomic_store(&s->closing, true);
    /* Answers already being written (awaits that the engine's shutdown
     * just ended) go out before the connections close. */
    http_server_drain(s->http, SERVICE_DRAIN_S);
    http_server_stop(s->http);
    if (s->socket_path && unlink(s->socket_path) != 0 && errno != ENOENT)
        service_log(s, "cannot remove %s: %s", s->socket_path, strerror(errno));
    service_log(s, "stopped");
    free(s->socket_path);
    free(s->witness_dir);
    pthread_mutex_destroy(&s->log_mu);
    free(s);
}
