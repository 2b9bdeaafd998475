/* Jobs, circuits and the engine's status as JSON objects. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "service/internal.h"

#ifndef CUZK_VERSION
#define CUZK_VERSION "unknown"
#endif
#ifndef CUZK_GIT_COMMIT
#define CUZK_GIT_COMMIT "unknown"
#endif

double view_unix_time(const service *s, uint64_t mono_ns)
{
    return s->wall_minus_mono + (double)mono_ns * 1e-9;
}

static json_t *hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *t = malloc(2 * n + 1);
    if (!t)
        return json_null();
    for (size_t i = 0; i < n; i++) {
        t[2 * i] = digits[p[i] >> 4];
        t[2 * i + 1] = digits[p[i] & 15];
    }
    t[2 * n] = 0;
    json_t *j = json_stringn(t, 2 * n);
    free(t);
    return j;
}

json_t *view_job(const service *s, const job_times *t, const engine_job_info *info,
                 const engine_state *parts, uint32_t num_parts, const uint8_t *proof,
                 size_t proof_len)
{
    (void)s;
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(t->id));
    json_object_set_new(o, "circuit", json_string(info->circuit));
    json_object_set_new(o, "curve", json_string(curve_id_snarkjs_name(t->curve)));
    json_object_set_new(o, "priority", json_string(engine_priority_name(info->priority)));
    json_object_set_new(o, "state", json_string(engine_state_name(info->state)));
    json_object_set_new(o, "partitions", json_integer(info->partitions));
    json_object_set_new(o, "partitions_done", json_integer(info->partitions_done));
    json_object_set_new(o, "attempts", json_integer(info->attempts));
    json_object_set_new(o, "submitted_at", json_real(t->submitted_at));
    json_object_set_new(o, "finished_at",
                        t->finished_at > 0 ? json_real(t->finished_at) : json_null());
    double end = t->finished_at > 0 ? t->finished_at : durable_now();
    json_object_set_new(o, "elapsed_s",
                        json_real(end > t->submitted_at ? end - t->submitted_at : 0.0));
    json_object_set_new(o, "message", json_string(info->message));
    if (parts) {
        json_t *a = json_array();
        for (uint32_t i = 0; i < num_parts; i++)
            json_array_append_new(a, json_string(engine_state_name(parts[i])));
        json_object_set_new(o, "partition_states", a);
    }
    if (proof)
        json_object_set_new(o, "proof", hex(proof, proof_len));
    return o;
}

json_t *view_circuit(const engine_circuit_info *ci)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(ci->name));
    json_object_set_new(o, "kind", json_string(ci->kind == CIRCUIT_ZKEY ? "zkey" : "builtin"));
    json_object_set_new(o, "curve", json_string(curve_id_snarkjs_name(ci->curve)));
    json_object_set_new(o, "proof_bytes", json_integer((json_int_t)ci->proof_bytes));
    json_object_set_new(o, "resident", json_boolean(ci->resident));
    json_object_set_new(o, "loading", json_boolean(ci->loading));
    json_object_set_new(o, "jobs", json_integer(ci->refs));
    json_object_set_new(o, "resident_bytes", json_integer((json_int_t)ci->resident_bytes));
    json_object_set_new(o, "partition_buffer_bytes", json_integer((json_int_t)ci->set_bytes));
    json_object_set_new(o, "buffer_sets", json_integer(ci->sets));
    json_object_set_new(o, "buffer_sets_free", json_integer(ci->sets_free));
    json_object_set_new(o, "loads", json_integer(ci->loads));
    return o;
}

#define I(v) json_integer((json_int_t)(v))

json_t *view_status(service *s)
{
    engine_stats st;
    engine_get_stats(s->engine, &st, NULL, 0);
    size_t cap = st.num_circuits + 8;
    engine_circuit_info *ci = calloc(cap, sizeof(*ci));
    if (!ci)
        return NULL;
    engine_get_stats(s->engine, &st, ci, cap);
    size_t nc = st.num_circuits < cap ? st.num_circuits : cap;

    json_t *o = json_object();
    json_object_set_new(o, "version", json_string(CUZK_VERSION));
    json_object_set_new(o, "commit", json_string(CUZK_GIT_COMMIT));
    json_object_set_new(o, "uptime_s",
                        json_real((double)(backend_clock_ns() - s->started_ns) * 1e-9));
    json_object_set_new(o, "accepting_jobs", json_boolean(!atomic_load(&s->closing)));
    json_object_set_new(o, "backend",
                        json_pack("{s:s, s:s, s:i, s:i, s:b}", "name", st.backend, "note",
                                  st.backend_note, "devices", (int)st.devices, "workers_per_device",
                                  (int)st.workers_per_device, "cpu_fallback",
                                  (int)st.cpu_fallback));
    json_object_set_new(o, "workers",
                        json_pack("{s:i, s:i, s:i}", "synthesis", (int)st.synth_workers, "provers",
                                  (int)((st.devices + st.cpu_fallback) * st.workers_per_device),
                                  "finalizers", (int)st.finalizers));
    json_t *jobs = json_object();
    for (int i = 0; i <= ENGINE_STATE_CANCELLED; i++)
        json_object_set_new(jobs, engine_state_name((engine_state)i), I(st.jobs[i]));
    json_object_set_new(o, "jobs", jobs);
    json_t *q = json_object();
    json_object_set_new(q, "queued", I(st.partitions_queued));
    json_object_set_new(q, "synthesizing", I(st.synthesizing));
    json_object_set_new(q, "prove", I(st.prove_queue));
    json_object_set_new(q, "proving", I(st.proving));
    json_object_set_new(q, "finalize", I(st.finalize_queue));
    json_object_set_new(q, "bound", I(st.queue_bound));
    json_object_set_new(o, "queues", q);
    json_t *m = json_object();
    json_object_set_new(m, "buffer_budget", I(st.buffer_budget));
    json_object_set_new(m, "buffer_allocated", I(st.buffer_allocated));
    json_object_set_new(m, "buffer_in_use", I(st.buffer_in_use));
    json_object_set_new(m, "buffer_peak", I(st.buffer_peak));
    json_object_set_new(m, "resident_budget", I(st.resident_budget));
    json_object_set_new(m, "resident_bytes", I(st.resident_bytes));
    json_object_set_new(o, "memory", m);
    json_t *c = json_object();
    json_object_set_new(c, "partitions_proved", I(st.partitions_proved));
    json_object_set_new(c, "retries", I(st.retries));
    json_object_set_new(c, "verify_failures", I(st.verify_failures));
    json_object_set_new(c, "workers_restarted", I(st.workers_restarted));
    json_object_set_new(o, "counters", c);
    json_t *circuits = json_array();
    for (size_t i = 0; i < nc; i++)
        json_array_append_new(circuits, view_circuit(&ci[i]));
    json_object_set_new(o, "circuits", circuits);
    free(ci);
    json_t *cl = view_cluster(s);
    if (cl)
        json_object_set_new(o, "cluster", cl);
    return o;
}
