/* The cluster in the service's status (JSON) and metrics (Prometheus
 * text): this host's claimer, and the hosts and queue the store knows. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/internal.h"

/* The store's view; false (and why in msg) when it cannot be read now. */
static bool read_info(service *s, store_cluster_info *info, char *msg, size_t msg_len)
{
    store *st = durable_store(s->jobs);
    return store_cluster(st)->info(st, info, msg, msg_len) == CUZK_OK;
}

/* A host is alive while its heartbeat is younger than a lease: after
 * that, its leases are claimable. */
static bool alive(const cluster_view *v, const store_host *h)
{
    return h->beat_age_s < v->lease_s;
}

json_t *view_cluster(service *s)
{
    if (!s->cluster)
        return NULL;
    cluster_view v;
    cluster_snapshot(s->cluster, &v);
    json_t *o = json_object();
    json_object_set_new(o, "host", json_string(v.host));
    json_object_set_new(o, "store_up", json_boolean(v.store_up));
    json_object_set_new(o, "store_down_s", json_real(v.store_down_s));
    if (!v.store_up)
        json_object_set_new(o, "store_error", json_string(v.store_error));
    json_object_set_new(o, "draining", json_boolean(v.draining));
    json_object_set_new(o, "lease_s", json_real(v.lease_s));
    json_object_set_new(o, "in_flight", json_integer(v.in_flight));
    json_object_set_new(o, "results_pending", json_integer(v.pending));
    json_object_set_new(o, "partitions",
                        json_pack("{s:I, s:I, s:I, s:I}", "claimed", (json_int_t)v.claimed,
                                  "proved", (json_int_t)v.proved, "failed", (json_int_t)v.failed,
                                  "released", (json_int_t)v.released));
    store_cluster_info info;
    char msg[512] = "";
    if (!read_info(s, &info, msg, sizeof(msg))) {
        json_object_set_new(o, "store_error", json_string(msg));
        return o;
    }
    json_t *hosts = json_array();
    for (size_t i = 0; i < info.num_hosts; i++) {
        const store_host *h = &info.hosts[i];
        json_array_append_new(hosts,
                              json_pack("{s:s, s:b, s:f, s:I, s:b}", "host", h->host, "alive",
                                        (int)alive(&v, h), "beat_age_s", h->beat_age_s, "leases",
                                        (json_int_t)h->leases, "draining", (int)h->draining));
    }
    json_object_set_new(o, "hosts", hosts);
    json_t *q = json_object();
    for (int p = 0; p < ENGINE_PRIORITY_COUNT; p++)
        json_object_set_new(q, engine_priority_name((engine_priority)p),
                            json_pack("{s:I, s:I}", "waiting", (json_int_t)info.waiting[p],
                                      "leased", (json_int_t)info.leased[p]));
    json_object_set_new(o, "queue", q);
    store_cluster_info_free(&info);
    return o;
}

/* Appends printf-formatted text to a growing buffer; false when out of
 * memory (the buffer is freed). */
static bool add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return false;
        if ((size_t)n < *cap - *len) {
            *len += (size_t)n;
            return true;
        }
        size_t cap2 = 2 * *cap + (size_t)n;
        char *grown = realloc(*buf, cap2);
        if (!grown) {
            free(*buf);
            *buf = NULL;
            return false;
        }
        *buf = grown;
        *cap = cap2;
    }
}

char *view_cluster_metrics(service *s, char *text)
{
    if (!s->cluster || !text)
        return text;
    size_t len = strlen(text), cap = len + 4096;
    char *buf = realloc(text, cap);
    if (!buf) {
        free(text);
        return NULL;
    }
    cluster_view v;
    cluster_snapshot(s->cluster, &v);
    bool ok = add(&buf, &len, &cap,
                  "# HELP cuzk_cluster_store_up Whether this host's last exchange with the shared "
                  "job store worked.\n# TYPE cuzk_cluster_store_up gauge\n"
                  "cuzk_cluster_store_up %d\n"
                  "# HELP cuzk_cluster_store_down_seconds For how long the store has not "
                  "answered (0 when up).\n# TYPE cuzk_cluster_store_down_seconds gauge\n"
                  "cuzk_cluster_store_down_seconds %.3f\n"
                  "# HELP cuzk_cluster_in_flight Partitions claimed by this host, not yet "
                  "written.\n# TYPE cuzk_cluster_in_flight gauge\n"
                  "cuzk_cluster_in_flight %u\n"
                  "# HELP cuzk_cluster_results_pending Results waiting to be written to the "
                  "store.\n# TYPE cuzk_cluster_results_pending gauge\n"
                  "cuzk_cluster_results_pending %u\n"
                  "# HELP cuzk_cluster_partitions_total Partitions by what this host did with "
                  "them.\n# TYPE cuzk_cluster_partitions_total counter\n"
                  "cuzk_cluster_partitions_total{outcome=\"claimed\"} %llu\n"
                  "cuzk_cluster_partitions_total{outcome=\"proved\"} %llu\n"
                  "cuzk_cluster_partitions_total{outcome=\"failed\"} %llu\n"
                  "cuzk_cluster_partitions_total{outcome=\"released\"} %llu\n",
                  v.store_up, v.store_down_s, v.in_flight, v.pending, (unsigned long long)v.claimed,
                  (unsigned long long)v.proved, (unsigned long long)v.failed,
                  (unsigned long long)v.released);
    store_cluster_info info;
    if (ok && read_info(s, &info, NULL, 0)) {
        size_t up = 0;
        for (size_t i = 0; i < info.num_hosts; i++)
            up += alive(&v, &info.hosts[i]);
        ok = add(&buf, &len, &cap,
                 "# HELP cuzk_cluster_hosts_alive Hosts whose heartbeat is younger than a "
                 "lease.\n# TYPE cuzk_cluster_hosts_alive gauge\ncuzk_cluster_hosts_alive %zu\n"
                 "# HELP cuzk_cluster_host_leases Partitions each host holds on a live lease.\n"
                 "# TYPE cuzk_cluster_host_leases gauge\n",
                 up);
        for (size_t i = 0; ok && i < info.num_hosts; i++)
            ok = add(&buf, &len, &cap, "cuzk_cluster_host_leases{host=\"%s\"} %llu\n",
                     info.hosts[i].host, (unsigned long long)info.hosts[i].leases);
        ok = ok && add(&buf, &len, &cap,
                       "# HELP cuzk_cluster_queue_partitions Unproved partitions of unfinished "
                       "jobs in the store.\n# TYPE cuzk_cluster_queue_partitions gauge\n");
        for (int p = 0; ok && p < ENGINE_PRIORITY_COUNT; p++) {
            const char *name = engine_priority_name((engine_priority)p);
            ok = add(&buf, &len, &cap,
                     "cuzk_cluster_queue_partitions{priority=\"%s\",state=\"waiting\"} %llu\n"
                     "cuzk_cluster_queue_partitions{priority=\"%s\",state=\"leased\"} %llu\n",
                     name, (unsigned long long)info.waiting[p], name,
                     (unsigned long long)info.leased[p]);
        }
        store_cluster_info_free(&info);
    }
    return ok ? buf : NULL;
}
