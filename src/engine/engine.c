/* The engine's life: configuration, creation (backends, device slots,
 * threads), shutdown, destruction, and its status. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/internal.h"
#include "util/parallel.h"
#include "util/rng.h"

/* ------------------------------------------------------------ helpers */

void engine_timeout_at(struct timespec *ts, double seconds)
{
    uint64_t t = backend_clock_ns() + (uint64_t)(seconds * 1e9);
    ts->tv_sec = (time_t)(t / 1000000000u);
    ts->tv_nsec = (long)(t % 1000000000u);
}

const char *engine_priority_name(engine_priority p)
{
    static const char *const names[ENGINE_PRIORITY_COUNT] = {"critical", "high", "normal", "low"};
    return (unsigned)p < ENGINE_PRIORITY_COUNT ? names[p] : "unknown";
}

bool engine_priority_parse(const char *s, engine_priority *out)
{
    for (int p = 0; s && p < ENGINE_PRIORITY_COUNT; p++) {
        if (!strcmp(s, engine_priority_name((engine_priority)p))) {
            *out = (engine_priority)p;
            return true;
        }
    }
    return false;
}

const char *engine_state_name(engine_state s)
{
    static const char *const names[] = {"queued", "synthesizing", "proving",  "finalizing",
                                        "done",   "failed",       "cancelled"};
    return (unsigned)s <= ENGINE_STATE_CANCELLED ? names[s] : "unknown";
}

bool engine_abc_eval_parse(const char *s, engine_abc_eval *out)
{
    static const char *const names[] = {"auto", "synthesis", "backend"};
    for (int i = 0; s && i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (engine_abc_eval)i;
            return true;
        }
    return false;
}

/* ------------------------------------------------------------- config */

void engine_config_default(engine_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->backend = BACKEND_AUTO;
    cfg->cpu_devices = 1;
    cfg->workers_per_device = 2;
    cfg->verify = true;
    cfg->retries = 2;
    cfg->cpu_fallback = true;
    cfg->keep_finished = 1024;
    cfg->telemetry_interval_ms = 20;
}

static unsigned clampu(unsigned v, unsigned lo, unsigned hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static uint64_t physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : (uint64_t)8 << 30;
}

uint64_t engine_auto_buffer_budget(uint64_t ram, uint64_t budget, uint64_t set_bytes)
{
    /* Two sets: one partition's buffers proving while the next one's are
     * synthesized. With one, synthesis waits for the device (2^27 with
     * a, b, c evaluated on the host, 17.2 GB a set: 5.84 s a partition
     * against 2.92 s with two, docs/PERF.md). At most three eighths of the
     * memory: the parameters' host copy needs the rest. */
    const uint64_t two = 2 * set_bytes, cap = ram / 8 * 3;
    return two > budget && two <= cap ? two : budget;
}

/* Fills in every auto value. */
static void resolve(engine_config *c)
{
    unsigned ncpu = parallel_cpu_count();
    if (!c->cpu_devices)
        c->cpu_devices = 1;
    if (!c->device_threads)
        c->device_threads = ncpu;
    if (!c->workers_per_device)
        c->workers_per_device = 2;
    if (!c->expected_log_rows)
        c->expected_log_rows = ENGINE_EXPECTED_LOG_ROWS;
    if (!c->finalizers)
        c->finalizers = clampu(ncpu / 16, 1, 4);
    if (!c->load_threads)
        c->load_threads = ncpu;
    if (!c->buffer_budget)
        c->buffer_budget = physical_memory() / 4;
    if (!c->resident_budget)
        /* Three quarters: a PoRep-sized circuit holds ~90 GB of host memory
         * while its development parameters are made (before the GPU backend
         * takes the points and the host copy goes), and the partition
         * buffers have their own quarter. */
        c->resident_budget = physical_memory() / 4 * 3;
}

unsigned engine_primary_provers(const engine *e)
{
    unsigned n = 0;
    for (unsigned s = 0; s < e->num_slots; s++)
        n += e->slots[s].fallback ? 0 : e->cfg.workers_per_device;
    return n;
}

/* Threads one partition of 2^log_rows rows uses well: its witness runs a
 * challenge per thread (the built-in circuit has 2^(log_rows - 19) of
 * them, up to 18) and a, b, c split by rows, so a partition's latency
 * falls with threads up to about there; 16 at PoRep sizes (2^24 and up),
 * where a partition also holds gigabytes of host memory, so that few of
 * them in flight, each on many threads, beat many on one thread each. */
static unsigned synth_threads_wanted(unsigned log_rows)
{
    return log_rows <= 20 ? 1 : log_rows >= 24 ? 16 : 1u << (log_rows - 20);
}

void engine_synth_pool_size(unsigned cpus, unsigned max_workers, unsigned log_rows,
                            unsigned *workers, unsigned *threads)
{
    cpus = cpus ? cpus : 1;
    max_workers = max_workers ? max_workers : 1;
    if (*workers && *threads)
        return;
    if (*threads) {
        *workers = clampu(cpus / *threads, 1, max_workers);
        return;
    }
    if (!*workers)
        *workers = clampu(cpus / synth_threads_wanted(log_rows), 1, max_workers);
    /* the CPUs the workers leave over go to their threads */
    *threads = cpus / *workers ? cpus / *workers : 1;
}

/* The auto sizes that depend on the backend. With a GPU backend the host's
 * cores are free for synthesis, which is the pipeline's CPU-bound stage,
 * so it gets all but the finalizers' and one per prover worker for its host
 * side; the CPU backend proves with every core, so synthesis gets a
 * quarter. Those CPUs are split into workers × threads by the expected
 * circuit size (engine_synth_pool_size). The queue bound lets every
 * synthesis worker run and every prover worker find a partition ready (the
 * buffer budget still bounds the memory). */
static void size_pipeline(engine *e)
{
    engine_config *c = &e->cfg;
    const backend_t *b = e->backends[0];
    const unsigned ncpu = parallel_cpu_count();
    const unsigned provers = engine_primary_provers(e);
    unsigned cpus = ncpu / 4, max_workers = 8;
    if (!b->is_cpu) {
        cpus = ncpu > c->finalizers + provers + 1 ? ncpu - c->finalizers - provers : 1;
        max_workers = 64;
    }
    engine_synth_pool_size(cpus, max_workers, c->expected_log_rows, &c->synth_workers,
                           &c->synth_threads);
    if (!c->queue_bound)
        c->queue_bound = c->synth_workers + provers;
}

/* ------------------------------------------------------------ create */

static cuzk_status make_backends(engine *e, char *msg, size_t msg_len)
{
    const engine_config *c = &e->cfg;
    backend_cpu_opts cpu = {.devices = c->cpu_devices, .threads = c->device_threads};
    if (c->backend_override) {
        e->backends[0] = c->backend_override;
    } else {
        cuzk_status st = backend_create(&e->backends[0], c->backend, &cpu, e->backend_note,
                                        sizeof(e->backend_note), msg, msg_len);
        if (st != CUZK_OK)
            return st;
        e->owns_backend[0] = true;
        if (e->backend_note[0] && !c->quiet)
            fprintf(stderr, "cuzk: %s\n", e->backend_note);
    }
    e->num_backends = 1;
    backend_t *b = e->backends[0];
    if (b->num_devices == 0 || b->num_devices > ENGINE_MAX_SLOTS - 1) {
        engine_msg(msg, msg_len, "backend %s has %u devices; 1 to %u are supported", b->name,
                   b->num_devices, ENGINE_MAX_SLOTS - 1);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (unsigned d = 0; d < b->num_devices; d++)
        e->slots[e->num_slots++] = (slot){.backend = 0, .device = d};
    /* A backend that is not the CPU gets the CPU as its fallback: a
     * partition that failed there may be retried here. */
    if (c->cpu_fallback && !b->is_cpu) {
        backend_cpu_opts one = {.devices = 1, .threads = c->device_threads};
        cuzk_status st = backend_cpu_create(&e->backends[1], &one);
        if (st != CUZK_OK) {
            engine_msg(msg, msg_len, "cannot create the CPU fallback backend: %s",
                       cuzk_status_str(st));
            return st;
        }
        e->owns_backend[1] = true;
        e->num_backends = 2;
        e->slots[e->num_slots++] = (slot){.backend = 1, .device = 0, .fallback = true};
    }
    return CUZK_OK;
}

static cuzk_status start_workers(engine *e, char *msg, size_t msg_len)
{
    const engine_config *c = &e->cfg;
    unsigned n = c->synth_workers + e->num_slots * c->workers_per_device + c->finalizers + 1;
    e->workers = calloc(n, sizeof(worker));
    if (!e->workers)
        return CUZK_ERR_OUT_OF_MEMORY;
    unsigned k = 0;
    for (unsigned i = 0; i < c->synth_workers; i++, k++) {
        e->workers[k] = (worker){.e = e, .kind = WORKER_SYNTH};
        snprintf(e->workers[k].name, sizeof(e->workers[k].name), "synth-%u", i);
    }
    for (unsigned s = 0; s < e->num_slots; s++) {
        for (unsigned i = 0; i < c->workers_per_device; i++, k++) {
            e->workers[k] = (worker){.e = e, .kind = WORKER_PROVER, .slot = s};
            if (e->slots[s].fallback)
                snprintf(e->workers[k].name, sizeof(e->workers[k].name), "cpu-w%u", i);
            else
                snprintf(e->workers[k].name, sizeof(e->workers[k].name), "dev%u-w%u", s, i);
        }
    }
    for (unsigned i = 0; i < c->finalizers; i++, k++) {
        e->workers[k] = (worker){.e = e, .kind = WORKER_FINAL};
        snprintf(e->workers[k].name, sizeof(e->workers[k].name), "final-%u", i);
    }
    e->workers[k] = (worker){.e = e, .kind = WORKER_WATCHDOG};
    snprintf(e->workers[k].name, sizeof(e->workers[k].name), "watchdog");
    e->num_workers = n;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&e->workers[i].tid, NULL, worker_main, &e->workers[i]) != 0) {
            engine_msg(msg, msg_len, "cannot start thread %s", e->workers[i].name);
            return CUZK_ERR_INTERNAL;
        }
        e->workers[i].started = true;
    }
    return CUZK_OK;
}

cuzk_status engine_create(engine_t **out, const engine_config *cfg, char *msg, size_t msg_len)
{
    *out = NULL;
    engine *e = calloc(1, sizeof(*e));
    if (!e)
        return CUZK_ERR_OUT_OF_MEMORY;
    if (cfg)
        e->cfg = *cfg;
    else
        engine_config_default(&e->cfg);
    e->buffer_budget_auto = e->cfg.buffer_budget == 0;
    e->physical_memory = physical_memory();
    resolve(&e->cfg);
    e->next_id = 1;
    pthread_mutex_init(&e->mu, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_t *cvs[] = {&e->synth_cv, &e->prove_cv, &e->final_cv, &e->done_cv, &e->watch_cv};
    for (size_t i = 0; i < sizeof(cvs) / sizeof(cvs[0]); i++)
        pthread_cond_init(cvs[i], &attr);
    pthread_condattr_destroy(&attr);

    cuzk_status st = CUZK_OK;
    rng_t probe;
    if (rng_seed_secure(&probe) != CUZK_OK) {
        engine_msg(msg, msg_len, "no system randomness for the blinding factors");
        st = CUZK_ERR_RANDOM;
    }
    rng_wipe(&probe);
    if (st == CUZK_OK && ENGINE_FAULTS_COMPILED) {
        /* A test hook: never read where it is not compiled in (faults.h). */
        const char *spec = getenv("CUZK_FAULTS");
        st = faults_parse(spec, &e->faults, msg, msg_len);
        if (st == CUZK_OK && e->faults)
            fprintf(stderr, "cuzk: injecting faults: CUZK_FAULTS=%s\n", spec);
    }
    if (st == CUZK_OK && e->cfg.event_log) {
        if (!(e->event_path = strdup(e->cfg.event_log)))
            st = CUZK_ERR_OUT_OF_MEMORY;
        else
            st = event_log_open(&e->log, e->event_path, msg, msg_len);
        e->cfg.event_log = e->event_path;
    }
    if (st == CUZK_OK)
        st = make_backends(e, msg, msg_len);
    if (st == CUZK_OK)
        size_pipeline(e);
    if (st == CUZK_OK)
        engine_telemetry_start(e);
    if (st == CUZK_OK)
        st = start_workers(e, msg, msg_len);
    if (st != CUZK_OK) {
        engine_destroy(e);
        return st;
    }
    *out = e;
    return CUZK_OK;
}

/* ----------------------------------------------------- shutdown, destroy */

static bool all_finished(const engine *e)
{
    for (size_t i = 0; i < e->num_jobs; i++)
        if (!engine_state_is_terminal(e->jobs[i]->state))
            return false;
    return true;
}

void engine_shutdown(engine_t *e, bool drain)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    if (e->shut) {
        pthread_mutex_unlock(&e->mu);
        return;
    }
    e->closing = true;
    if (!drain)
        for (size_t i = 0; i < e->num_jobs; i++)
            job_stop(e, e->jobs[i], ENGINE_STATE_CANCELLED, "engine shut down");
    while (!all_finished(e))
        pthread_cond_wait(&e->done_cv, &e->mu);
    e->exiting = true;
    pthread_cond_t *cvs[] = {&e->synth_cv, &e->prove_cv, &e->final_cv, &e->done_cv, &e->watch_cv};
    for (size_t i = 0; i < sizeof(cvs) / sizeof(cvs[0]); i++)
        pthread_cond_broadcast(cvs[i]);
    pthread_mutex_unlock(&e->mu);
    /* The watchdog first (the last worker): it restarts dead threads, and
     * after it has gone none is started again. Then every thread, the dead
     * ones not yet restarted too (ended, never joined). */
    worker *watchdog = e->num_workers ? &e->workers[e->num_workers - 1] : NULL;
    if (watchdog && watchdog->started)
        pthread_join(watchdog->tid, NULL);
    for (unsigned i = 0; i + 1 < e->num_workers; i++)
        if (e->workers[i].started)
            pthread_join(e->workers[i].tid, NULL);
    engine_telemetry_stop(e);
    pthread_mutex_lock(&e->mu);
    e->shut = true;
    pthread_mutex_unlock(&e->mu);
    event_log_flush(e->log);
}

void engine_destroy(engine_t *e)
{
    if (!e)
        return;
    engine_shutdown(e, false);
    registry_free_all(e);
    jobs_free_all(e);
    wq_free(&e->prove_q);
    wq_free(&e->final_q);
    for (unsigned b = 0; b < ENGINE_MAX_BACKENDS; b++)
        if (e->owns_backend[b] && e->backends[b])
            e->backends[b]->destroy(e->backends[b]);
    event_log_close(e->log);
    faults_free(e->faults);
    free(e->event_path);
    free(e->workers);
    pthread_cond_t *cvs[] = {&e->synth_cv, &e->prove_cv, &e->final_cv, &e->done_cv, &e->watch_cv};
    for (size_t i = 0; i < sizeof(cvs) / sizeof(cvs[0]); i++)
        pthread_cond_destroy(cvs[i]);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

/* ------------------------------------------------------------- status */

/* A circuit's row of engine_circuit_info (engine.mu held). */
static void fill_circuit_info(const circuit *c, engine_circuit_info *ci)
{
    memset(ci, 0, sizeof(*ci));
    snprintf(ci->name, sizeof(ci->name), "%s", c->name);
    ci->kind = c->spec.kind;
    ci->resident = c->state == CIRCUIT_RESIDENT;
    ci->loading = c->state == CIRCUIT_LOADING;
    ci->refs = c->refs;
    ci->resident_bytes = ci->resident ? c->resident_bytes : c->estimate_bytes;
    ci->device_bytes = ci->resident ? c->device_bytes : 0;
    snprintf(ci->placement, sizeof(ci->placement), "%s", ci->resident ? c->placement : "");
    ci->set_bytes = c->set_bytes;
    ci->sets = c->sets;
    ci->sets_free = c->sets_free;
    ci->last_used = c->last_used;
    ci->loads = c->loads;
    ci->num_vars = c->num_vars;
    ci->num_public = c->num_public;
    ci->curve = c->curve;
    ci->proof_bytes = c->proof_bytes;
    ci->domain_n = c->domain_n;
    ci->rows = c->rows;
}

void engine_get_stats(engine_t *e, engine_stats *out, engine_circuit_info *circuits, size_t cap)
{
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&e->mu);
    snprintf(out->backend, sizeof(out->backend), "%s", e->backends[0]->name);
    snprintf(out->backend_note, sizeof(out->backend_note), "%s", e->backend_note);
    out->devices = 0;
    for (unsigned i = 0; i < e->num_slots; i++) {
        if (e->slots[i].fallback)
            out->cpu_fallback = true;
        else
            out->devices++;
    }
    out->workers_per_device = e->cfg.workers_per_device;
    out->synth_workers = e->cfg.synth_workers;
    out->synth_threads = e->cfg.synth_threads;
    out->finalizers = e->cfg.finalizers;
    out->queue_bound = e->cfg.queue_bound;
    for (size_t i = 0; i < e->num_jobs; i++) {
        const job *j = e->jobs[i];
        out->jobs[job_state(j)]++;
        for (uint32_t k = 0; j->parts && k < j->n; k++)
            out->partitions_queued += j->parts[k].state == ENGINE_STATE_QUEUED;
    }
    out->synthesizing = e->synthesizing;
    out->prove_queue = e->prove_q.len;
    out->proving = e->proving;
    out->finalize_queue = e->final_q.len + e->finalizing;
    out->buffer_budget = e->cfg.buffer_budget;
    out->buffer_allocated = e->buf_allocated;
    out->buffer_in_use = e->buf_in_use;
    out->buffer_peak = e->buf_peak;
    out->pool_allocs = e->pool_allocs;
    out->pool_frees = e->pool_frees;
    out->pool_acquires = e->pool_acquires;
    out->pool_releases = e->pool_releases;
    out->resident_budget = e->cfg.resident_budget;
    out->resident_bytes = e->resident_bytes;
    out->partitions_proved = e->partitions_proved;
    out->retries = e->retries;
    out->verify_failures = e->verify_failures;
    out->workers_restarted = e->workers_restarted;
    out->num_circuits = e->num_circuits;
    size_t i = 0;
    for (const circuit *c = e->circuits; c && circuits && i < cap; c = c->next, i++)
        fill_circuit_info(c, &circuits[i]);
    pthread_mutex_unlock(&e->mu);
}

cuzk_status engine_circuit_info_of(engine_t *e, const char *name, engine_circuit_info *out)
{
    pthread_mutex_lock(&e->mu);
    const circuit *c = registry_find(e, name);
    if (c && out)
        fill_circuit_info(c, out);
    pthread_mutex_unlock(&e->mu);
    return c ? CUZK_OK : CUZK_ERR_INVALID_ARGUMENT;
}
