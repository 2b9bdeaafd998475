/* The CPU backend: the proof plan (groth16/plan.h) executed on the host's
 * cores, from the a, b, c the engine's synthesis stage evaluated, each
 * phase reported to the engine as it ends. The "device" is the CPU: its
 * lock is held for the whole computation, which is all kernel work here. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"

typedef struct cpu_backend {
    backend_t base;
    unsigned threads;
    unsigned devices;
    pthread_mutex_t *locks; /* one per device */
} cpu_backend;

static cuzk_status cpu_prepare(backend_t *b, const backend_circuit_desc *d, void **handle,
                               uint64_t *bytes, char *msg, size_t msg_len)
{
    (void)b;
    *handle = NULL;
    *bytes = 0;
    if (!d || !d->plan) {
        backend_msg(msg, msg_len, "%s: no proof plan", d && d->name ? d->name : "circuit");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuzk_status st = groth16_plan_check(d->plan, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    /* The plan's points stay where the circuit keeps them: nothing to copy. */
    *handle = (void *)d->plan;
    return CUZK_OK;
}

static void cpu_release(backend_t *b, void *handle)
{
    (void)b;
    (void)handle;
}

/* Reports each phase with its own start (the plan's two groups overlap). */
typedef struct phase_clock {
    backend_phase_fn fn;
    void *ctx;
    const groth16_plan *plan;
    uint64_t start[PHASE_COUNT];
} phase_clock;

static void step(void *ctx, proof_phase phase, bool end)
{
    phase_clock *pc = ctx;
    uint64_t t = backend_clock_ns();
    if (!end) {
        pc->start[phase] = t; /* each phase runs on one thread: its own slot */
        return;
    }
    uint64_t bytes = 3 * (uint64_t)pc->plan->domain->n * sizeof(fr_t);
    for (unsigned i = 0; i < pc->plan->num_msms; i++)
        if (pc->plan->msm[i].phase == phase)
            bytes = groth16_msm_bytes(&pc->plan->msm[i]);
    if (pc->fn)
        pc->fn(pc->ctx, phase, "cpu", pc->start[phase], t, bytes);
}

static cuzk_status cpu_prove(backend_t *b, unsigned device, void *handle, const backend_input *in,
                             groth16_sums *out, backend_phase_fn phase, void *phase_ctx, char *msg,
                             size_t msg_len)
{
    cpu_backend *cb = b->impl;
    const groth16_plan *plan = handle;
    if (device >= cb->devices || !plan || !in || !in->w || !in->abc) {
        backend_msg(msg, msg_len, "bad arguments (device %u of %u)", device, cb->devices);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (in->rows > plan->domain->n) {
        backend_msg(msg, msg_len, "a, b, c have %llu rows, the domain %zu",
                    (unsigned long long)in->rows, plan->domain->n);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&cb->locks[device]);
    phase_clock pc = {.fn = phase, .ctx = phase_ctx, .plan = plan};
    proof_phase failed = PHASE_H;
    cuzk_status st =
        groth16_plan_sums(out, plan, in->w, in->abc, in->rows, cb->threads, step, &pc, &failed);
    pthread_mutex_unlock(&cb->locks[device]);
    if (st == CUZK_ERR_UNSATISFIED)
        backend_msg(msg, msg_len,
                    "the witness does not satisfy the constraints (h has degree n - 1)");
    else if (st != CUZK_OK)
        backend_msg(msg, msg_len, "%s: %s", proof_phase_name(failed), cuzk_status_str(st));
    return st;
}

static void cpu_destroy(backend_t *b)
{
    if (!b)
        return;
    cpu_backend *cb = b->impl;
    for (unsigned i = 0; i < cb->devices; i++)
        pthread_mutex_destroy(&cb->locks[i]);
    free(cb->locks);
    free(cb);
}

cuzk_status backend_cpu_create(backend_t **out, const backend_cpu_opts *opts)
{
    *out = NULL;
    cpu_backend *cb = calloc(1, sizeof(*cb));
    if (!cb)
        return CUZK_ERR_OUT_OF_MEMORY;
    cb->devices = opts && opts->devices ? opts->devices : 1;
    cb->threads = opts ? opts->threads : 0; /* 0 stays "all CPUs" for the routines */
    cb->locks = calloc(cb->devices, sizeof(pthread_mutex_t));
    if (!cb->locks) {
        free(cb);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < cb->devices; i++)
        pthread_mutex_init(&cb->locks[i], NULL);
    cb->base = (backend_t){
        .name = "cpu",
        .is_cpu = true,
        .num_devices = cb->devices,
        .impl = cb,
        .prepare = cpu_prepare,
        .release = cpu_release,
        .prove = cpu_prove,
        .destroy = cpu_destroy,
    };
    *out = &cb->base;
    return CUZK_OK;
}
