/* The CPU backend: the proof plan (groth16/plan.h) of either curve executed
 * on the host's cores, from the a, b, c the engine's synthesis stage evaluated, or
 * evaluated here from the witness (backend.h: abc NULL), each phase
 * reported to the engine as it ends. The "device" is the CPU: its lock is
 * held for the whole computation, which is all kernel work here. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "groth16/prover.h"
#include "r1cs/r1cs.h"

typedef struct cpu_backend {
    backend_t base;
    unsigned threads;
    unsigned devices;
    pthread_mutex_t *locks; /* one per device */
} cpu_backend;

/* One circuit: its plan and, for evaluating a, b, c, its constraint
 * system; both borrowed. */
typedef struct cpu_circuit {
    const groth16_plan *plan;
    const r1cs_t *cs; /* NULL: every input brings a, b, c */
    uint64_t rows;
    bool c_is_ab;
    /* Per device: a, b, c evaluated here (3 n), made at the first input
     * without them, under the device's lock; NULL until then. */
    fr_t **scratch;
    unsigned devices;
} cpu_circuit;

static cuzk_status cpu_prepare(backend_t *b, const backend_circuit_desc *d, void **handle,
                               uint64_t *bytes, char *msg, size_t msg_len)
{
    cpu_backend *cb = b->impl;
    *handle = NULL;
    *bytes = 0;
    const char *name = d && d->name ? d->name : "circuit";
    if (!d || !d->plan) {
        backend_msg(msg, msg_len, "%s: no proof plan", name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuzk_status st = groth16_plan_check(d->plan, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (d->cs && (d->rows != d->cs->num_constraints || d->rows > groth16_plan_domain_n(d->plan) ||
                  r1cs_num_vars(d->cs) != d->plan->num_vars || d->cs->curve != d->plan->curve)) {
        backend_msg(msg, msg_len,
                    "%s: the constraint system (%llu rows, %llu variables, %s) does not match the "
                    "plan (%llu rows evaluated, domain %zu, %llu variables, %s)",
                    name, (unsigned long long)d->cs->num_constraints,
                    (unsigned long long)r1cs_num_vars(d->cs), curve_id_snarkjs_name(d->cs->curve),
                    (unsigned long long)d->rows, groth16_plan_domain_n(d->plan),
                    (unsigned long long)d->plan->num_vars, curve_id_snarkjs_name(d->plan->curve));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cpu_circuit *cc = calloc(1, sizeof(*cc));
    fr_t **scratch = calloc(cb->devices, sizeof(fr_t *));
    if (!cc || !scratch) {
        free(cc);
        free(scratch);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    /* The plan's points stay where the circuit keeps them: nothing to copy. */
    *cc = (cpu_circuit){.plan = d->plan,
                        .cs = d->cs,
                        .rows = d->rows,
                        .c_is_ab = d->c_is_ab,
                        .scratch = scratch,
                        .devices = cb->devices};
    *handle = cc;
    return CUZK_OK;
}

static void cpu_release(backend_t *b, void *handle)
{
    (void)b;
    cpu_circuit *cc = handle;
    if (!cc)
        return;
    for (unsigned i = 0; i < cc->devices; i++)
        free(cc->scratch[i]);
    free(cc->scratch);
    free(cc);
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
    uint64_t bytes = 3 * (uint64_t)groth16_plan_domain_n(pc->plan) * sizeof(fr_t);
    for (unsigned i = 0; i < pc->plan->num_msms; i++)
        if (pc->plan->msm[i].phase == phase)
            bytes = groth16_msm_bytes(&pc->plan->msm[i]);
    if (pc->fn)
        pc->fn(pc->ctx, phase, "cpu", pc->start[phase], t, bytes);
}

/* The lowest row with a·b ≠ c (after groth16_rows_satisfied said there is
 * one: the failure path only). */
static uint64_t first_bad_row(curve_id curve, const fr_t *a, const fr_t *b, const fr_t *c,
                              uint64_t rows)
{
    for (uint64_t i = 0; i < rows; i++)
        if (!groth16_rows_satisfied_over(curve, a + i, b + i, c + i, 1, 1))
            return i;
    return R1CS_ROW_NONE;
}

/* a, b, c from w into the device's scratch (device lock held), then the
 * exact check where C is given. */
static cuzk_status evaluate(cpu_backend *cb, cpu_circuit *cc, unsigned device, const fr_t *w,
                            fr_t **abc, phase_clock *pc, char *msg, size_t msg_len)
{
    size_t n = groth16_plan_domain_n(cc->plan);
    curve_id curve = cc->plan->curve;
    if (!cc->scratch[device] && !(cc->scratch[device] = malloc(3 * n * sizeof(fr_t)))) {
        backend_msg(msg, msg_len, "no memory for a, b, c (%zu bytes)", 3 * n * sizeof(fr_t));
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    uint64_t t0 = backend_clock_ns();
    fr_t *a = cc->scratch[device], *b = a + n, *c = b + n;
    r1cs_eval(cc->cs, w, a, b, cc->c_is_ab ? NULL : c, cb->threads);
    if (cc->c_is_ab) {
        r1cs_mul_rows_over(curve, c, a, b, cc->rows, cb->threads);
    } else if (!groth16_rows_satisfied_over(curve, a, b, c, cc->rows, cb->threads)) {
        backend_msg(msg, msg_len, "the witness does not satisfy the constraints: row %llu",
                    (unsigned long long)first_bad_row(curve, a, b, c, cc->rows));
        return CUZK_ERR_UNSATISFIED;
    }
    if (pc->fn)
        pc->fn(pc->ctx, PHASE_EVAL_ABC, "cpu", t0, backend_clock_ns(), 3 * cc->rows * sizeof(fr_t));
    *abc = a;
    return CUZK_OK;
}

static cuzk_status cpu_prove(backend_t *b, unsigned device, void *handle, const backend_input *in,
                             groth16_sums *out, backend_phase_fn phase, void *phase_ctx, char *msg,
                             size_t msg_len)
{
    cpu_backend *cb = b->impl;
    cpu_circuit *cc = handle;
    if (device >= cb->devices || !cc || !in || !in->w) {
        backend_msg(msg, msg_len, "bad arguments (device %u of %u)", device, cb->devices);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    const groth16_plan *plan = cc->plan;
    if (!in->abc && !cc->cs) {
        backend_msg(msg, msg_len,
                    "no a, b, c given, and the circuit was prepared without its constraint "
                    "system to evaluate them");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint64_t rows = in->abc ? in->rows : cc->rows;
    if (rows > groth16_plan_domain_n(plan)) {
        backend_msg(msg, msg_len, "a, b, c have %llu rows, the domain %zu",
                    (unsigned long long)rows, groth16_plan_domain_n(plan));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&cb->locks[device]);
    phase_clock pc = {.fn = phase, .ctx = phase_ctx, .plan = plan};
    proof_phase failed = PHASE_H;
    fr_t *abc = in->abc;
    cuzk_status st = abc ? CUZK_OK : evaluate(cb, cc, device, in->w, &abc, &pc, msg, msg_len);
    if (st != CUZK_OK) {
        pthread_mutex_unlock(&cb->locks[device]);
        return st;
    }
    st = groth16_plan_sums(out, plan, in->w, abc, rows, cb->threads, step, &pc, &failed);
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
        .evaluates_abc = true,
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
