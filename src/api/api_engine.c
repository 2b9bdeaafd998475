/* cuzk_engine: the engine with the handle lists the API keeps over it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "groth16/verifier.h"

void cuzk_engine_config_init(cuzk_engine_config *config)
{
    if (!config)
        return;
    memset(config, 0, sizeof(*config));
    config->size = sizeof(*config);
    config->backend = CUZK_BACKEND_AUTO;
    config->verify = 1;
}

cuzk_status cuzk_engine_create(cuzk_engine **engine, const cuzk_engine_config *config)
{
    static const char fn[] = "cuzk_engine_create";
    if (!engine)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "engine (the output) is NULL");
    *engine = NULL;
    cuzk_engine_config c;
    cuzk_engine_config_init(&c);
    cuzk_status st;
    if (config && (st = api_read_versioned(&c, sizeof(c), config, fn, "config")) != CUZK_OK)
        return st;
    engine_config ec;
    engine_config_default(&ec);
    switch (c.backend) {
    case CUZK_BACKEND_AUTO:
        ec.backend = BACKEND_AUTO;
        break;
    case CUZK_BACKEND_CPU:
        ec.backend = BACKEND_CPU;
        break;
    case CUZK_BACKEND_CUDA:
        ec.backend = BACKEND_CUDA;
        break;
    default:
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "config->backend is %d: CUZK_BACKEND_AUTO, _CPU or _CUDA", (int)c.backend);
    }
    ec.device_threads = c.threads;
    ec.load_threads = c.threads;
    ec.synth_workers = c.synth_workers;
    ec.verify = c.verify != 0;
    ec.event_log = c.event_log;
    ec.buffer_budget = c.buffer_budget;
    ec.resident_budget = c.resident_budget;
    /* A job's record lives as long as its handle (cuzk_job_destroy
     * forgets it), never trimmed behind the caller's back. */
    ec.keep_finished = UINT_MAX;
    ec.quiet = true; /* a library does not write to stderr */

    cuzk_engine *h = calloc(1, sizeof(*h));
    if (!h)
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for the engine");
    char msg[512] = "";
    if ((st = engine_create(&h->e, &ec, msg, sizeof(msg))) != CUZK_OK) {
        free(h);
        return api_fail_msg(st, fn, "the engine cannot start", msg);
    }
    pthread_mutex_init(&h->mu, NULL);
    pthread_mutex_init(&h->zkey_mu, NULL);
    *engine = h;
    return api_ok();
}

void cuzk_engine_destroy(cuzk_engine *engine)
{
    if (!engine)
        return;
    engine_destroy(engine->e);
    while (engine->jobs) {
        cuzk_job *j = engine->jobs;
        engine->jobs = j->next;
        api_job_free(j);
    }
    while (engine->circuits) {
        cuzk_circuit *c = engine->circuits;
        engine->circuits = c->next;
        groth16_pvk_free(&c->pvk);
        free(c);
    }
    while (engine->retired) {
        api_name *n = engine->retired;
        engine->retired = n->next;
        free(n);
    }
    while (engine->zkeys) {
        api_zkey_entry *z = engine->zkeys;
        engine->zkeys = z->next;
        free(z->path);
        free(z);
    }
    pthread_mutex_destroy(&engine->mu);
    pthread_mutex_destroy(&engine->zkey_mu);
    free(engine);
}

cuzk_status cuzk_engine_stats_get(cuzk_engine *engine, cuzk_engine_stats *stats)
{
    static const char fn[] = "cuzk_engine_stats_get";
    if (!engine)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "engine is NULL");
    if (!stats)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "stats (the output) is NULL");
    size_t want = stats->size;
    if (want < sizeof(size_t))
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "stats->size is %zu: set it to sizeof(cuzk_engine_stats)", want);
    cuzk_engine_stats s;
    memset(&s, 0, sizeof(s));
    engine_stats es;
    engine_get_stats(engine->e, &es, NULL, 0);
    engine_circuit_info *ci = calloc(es.num_circuits ? es.num_circuits : 1, sizeof(*ci));
    if (!ci)
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for the circuit list");
    size_t cap = es.num_circuits;
    engine_get_stats(engine->e, &es, ci, cap);
    for (size_t i = 0; i < cap && i < es.num_circuits; i++) {
        if (ci[i].resident) {
            s.resident_circuits++;
            s.resident_bytes += ci[i].resident_bytes;
        }
    }
    free(ci);
    snprintf(s.backend, sizeof(s.backend), "%s", es.backend);
    s.devices = es.devices;
    for (int st = ENGINE_STATE_QUEUED; st < ENGINE_STATE_DONE; st++)
        s.jobs_unfinished += es.jobs[st];
    s.partitions_proved = es.partitions_proved;
    pthread_mutex_lock(&engine->mu);
    for (cuzk_circuit *c = engine->circuits; c; c = c->next)
        s.circuits += !c->released;
    pthread_mutex_unlock(&engine->mu);
    /* The caller's struct may be older (smaller) or newer (larger) than
     * this one: fill what both know, zero the rest. */
    s.size = want;
    if (want > sizeof(s)) {
        memset((char *)stats + sizeof(s), 0, want - sizeof(s));
        want = sizeof(s);
    }
    memcpy(stats, &s, want);
    return api_ok();
}
