#define _POSIX_C_SOURCE 200809L
#include "engine/events.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"

#ifndef CUZK_VERSION
#define CUZK_VERSION "unknown"
#endif

#define EVENT_LINE_MAX 1024
#define EVENT_STREAM_BUFFER (1u << 20)

struct event_log {
    pthread_mutex_t mu;
    FILE *f;
    char *buf; /* the stream's buffer */
};

/* s as a JSON string body (quotes not included), cut to fit cap. */
static void json_escape(char *out, size_t cap, const char *s)
{
    size_t o = 0;
    for (; s && *s && o + 7 < cap; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            out[o++] = '\\';
            out[o++] = (char)ch;
        } else if (ch < 0x20) {
            o += (size_t)snprintf(out + o, cap - o, "\\u%04x", ch);
        } else {
            out[o++] = (char)ch;
        }
    }
    out[o] = 0;
}

static void write_line(event_log *log, const char *line, int len)
{
    if (len <= 0)
        return;
    if (len >= EVENT_LINE_MAX)
        len = EVENT_LINE_MAX - 1; /* cannot happen with the escaped fields' caps */
    pthread_mutex_lock(&log->mu);
    fwrite(line, 1, (size_t)len, log->f);
    pthread_mutex_unlock(&log->mu);
}

cuzk_status event_log_open(event_log **out, const char *path, char *msg, size_t msg_len)
{
    *out = NULL;
    event_log *log = calloc(1, sizeof(*log));
    if (!log)
        return CUZK_ERR_OUT_OF_MEMORY;
    log->f = fopen(path, "w");
    if (!log->f) {
        backend_msg(msg, msg_len, "cannot create the event log %s: %s", path, strerror(errno));
        free(log);
        return CUZK_ERR_IO;
    }
    log->buf = malloc(EVENT_STREAM_BUFFER);
    if (log->buf)
        setvbuf(log->f, log->buf, _IOFBF, EVENT_STREAM_BUFFER);
    pthread_mutex_init(&log->mu, NULL);
    char host[256] = "unknown", h[300], line[EVENT_LINE_MAX];
    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "unknown");
    host[sizeof(host) - 1] = 0;
    json_escape(h, sizeof(h), host);
    int n = snprintf(line, sizeof(line),
                     "{\"type\":\"meta\",\"clock\":\"monotonic\",\"t0_ns\":%llu,\"pid\":%d,"
                     "\"host\":\"%s\",\"version\":\"%s\"}\n",
                     (unsigned long long)backend_clock_ns(), (int)getpid(), h, CUZK_VERSION);
    write_line(log, line, n);
    event_log_flush(log);
    *out = log;
    return CUZK_OK;
}

void event_log_flush(event_log *log)
{
    if (!log)
        return;
    pthread_mutex_lock(&log->mu);
    fflush(log->f);
    pthread_mutex_unlock(&log->mu);
}

void event_log_close(event_log *log)
{
    if (!log)
        return;
    fclose(log->f);
    free(log->buf);
    pthread_mutex_destroy(&log->mu);
    free(log);
}

void event_span(event_log *log, const event_span_rec *s)
{
    if (!log)
        return;
    char circuit[130], worker[66], what[130], copy[200] = "", line[EVENT_LINE_MAX];
    json_escape(circuit, sizeof(circuit), s->circuit);
    json_escape(worker, sizeof(worker), s->worker);
    if (s->dir) {
        json_escape(what, sizeof(what), s->what);
        snprintf(copy, sizeof(copy), ",\"dir\":\"%s\",\"stream\":%d,\"what\":\"%s\"", s->dir,
                 s->stream, what);
    }
    int n = snprintf(line, sizeof(line),
                     "{\"type\":\"span\",\"name\":\"%s\",\"cat\":\"%s\",\"job\":%llu,"
                     "\"partition\":%u,\"circuit\":\"%s\",\"worker\":\"%s\",\"device\":%d,"
                     "\"start_ns\":%llu,\"end_ns\":%llu,\"bytes\":%llu%s}\n",
                     s->name, s->cat, (unsigned long long)s->job, s->partition, circuit, worker,
                     s->device, (unsigned long long)s->start_ns, (unsigned long long)s->end_ns,
                     (unsigned long long)s->bytes, copy);
    write_line(log, line, n);
}

void event_job(event_log *log, uint64_t job, const char *label, const char *circuit,
               const char *state, uint64_t ts_ns, uint32_t partitions, const char *priority,
               const char *message)
{
    if (!log)
        return;
    char c[130], m[600], l[128] = "", line[EVENT_LINE_MAX];
    json_escape(c, sizeof(c), circuit);
    json_escape(m, sizeof(m), message ? message : "");
    if (label && *label) {
        char escaped[100];
        json_escape(escaped, sizeof(escaped), label);
        snprintf(l, sizeof(l), ",\"label\":\"%s\"", escaped);
    }
    int n = snprintf(line, sizeof(line),
                     "{\"type\":\"job\",\"job\":%llu%s,\"circuit\":\"%s\",\"state\":\"%s\","
                     "\"ts_ns\":%llu,\"partitions\":%u,\"priority\":\"%s\",\"message\":\"%s\"}\n",
                     (unsigned long long)job, l, c, state, (unsigned long long)ts_ns, partitions,
                     priority, m);
    write_line(log, line, n);
}

void event_counter(event_log *log, const char *name, int device, uint64_t ts_ns, double value)
{
    if (!log)
        return;
    char line[EVENT_LINE_MAX];
    int n = snprintf(line, sizeof(line),
                     "{\"type\":\"counter\",\"name\":\"%s\",\"device\":%d,\"ts_ns\":%llu,"
                     "\"value\":%.17g}\n",
                     name, device, (unsigned long long)ts_ns, value);
    write_line(log, line, n);
}

void event_telemetry(event_log *log, bool on, const char *source, unsigned devices,
                     unsigned interval_ms, const char *reason)
{
    if (!log)
        return;
    char src[66], why[600], line[EVENT_LINE_MAX];
    json_escape(src, sizeof(src), source);
    json_escape(why, sizeof(why), reason ? reason : "");
    int n = snprintf(line, sizeof(line),
                     "{\"type\":\"telemetry\",\"state\":\"%s\",\"source\":\"%s\","
                     "\"devices\":%u,\"interval_ms\":%u,\"reason\":\"%s\"}\n",
                     on ? "on" : "off", src, devices, interval_ms, why);
    write_line(log, line, n);
}
