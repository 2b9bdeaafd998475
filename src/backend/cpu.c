/* The CPU backend: the phases of the Groth16 CPU provers (groth16/prover.c
 * for bellman-layout parameters, groth16/zkey_prover.c for snarkjs keys)
 * from a, b, c that the engine's synthesis stage already evaluated, each
 * phase reported to the engine as it ends. The "device" is the CPU: its
 * lock is held for the whole computation, which is all kernel work here. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "groth16/prover.h"
#include "groth16/zkey_prover.h"
#include "poly/quotient.h"

typedef struct cpu_backend {
    backend_t base;
    unsigned threads;
    unsigned devices;
    pthread_mutex_t *locks; /* one per device */
} cpu_backend;

/* The resident state of one circuit. */
typedef struct cpu_circuit {
    backend_key_kind kind;
    groth16_circuit_t g; /* BELLMAN: density bitmaps and domain; r1cs, params borrowed */
    /* ZKEY: the decoded point sections (C right after H) and the snarkjs
     * domain, as `cuzk prove` holds them; no coefficients (the engine
     * evaluates a, b, c). */
    groth16_zkey_circuit_t zc;
} cpu_circuit;

/* Bytes of n field elements plus n G1 / G2 points in the uncompressed
 * encoding: what an MSM reads. */
#define SCALAR_BYTES 32u
#define POINT_G1_BYTES 96u
#define POINT_G2_BYTES 192u

static uint64_t domain_bytes(const domain_t *d)
{
    return (uint64_t)d->n * sizeof(fr_t); /* the two half-size twiddle tables */
}

static void cpu_circuit_free(cpu_circuit *cc)
{
    if (!cc)
        return;
    if (cc->kind == BACKEND_KEY_BELLMAN) {
        groth16_circuit_free(&cc->g);
    } else {
        groth16_zkey_circuit_free(&cc->zc);
    }
    free(cc);
}

static cuzk_status prepare_zkey(cpu_circuit *cc, const zkey_t *z, formats_check check,
                                unsigned threads, uint64_t *bytes, char *msg, size_t msg_len)
{
    uint64_t nv = z->num_vars, np = z->num_public, n = z->domain_size;
    uint64_t nc = nv - np - 1;
    cuzk_status st = groth16_zkey_circuit_init_points(&cc->zc, z, check, threads, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    *bytes = (2 * (nv + 1) + n + nc + 1) * sizeof(g1_affine_t) + (nv + 1) * sizeof(g2_affine_t) +
             domain_bytes(&cc->zc.domain);
    return CUZK_OK;
}

static cuzk_status cpu_prepare(backend_t *b, const backend_circuit_desc *d, void **handle,
                               uint64_t *bytes, char *msg, size_t msg_len)
{
    cpu_backend *cb = b->impl;
    *handle = NULL;
    *bytes = 0;
    cpu_circuit *cc = calloc(1, sizeof(*cc));
    if (!cc)
        return CUZK_ERR_OUT_OF_MEMORY;
    cc->kind = d->kind;
    unsigned threads = d->threads ? d->threads : cb->threads;
    cuzk_status st;
    if (d->kind == BACKEND_KEY_BELLMAN) {
        if (!d->r1cs || !d->params) {
            free(cc);
            backend_msg(msg, msg_len, "%s: no constraint system or parameters", d->name);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        st = groth16_circuit_init(&cc->g, d->r1cs, d->params, threads, msg, msg_len);
        if (st != CUZK_OK) {
            free(cc); /* groth16_circuit_init freed its parts */
            return st;
        }
        const r1cs_density_t *den = &cc->g.density;
        *bytes = (2 * den->num_aux + den->num_inputs + 63) / 64 * 8 + domain_bytes(&cc->g.domain);
    } else if (d->kind == BACKEND_KEY_ZKEY && d->zkey) {
        if ((st = prepare_zkey(cc, d->zkey, d->check, threads, bytes, msg, msg_len)) != CUZK_OK) {
            cpu_circuit_free(cc);
            return st;
        }
    } else {
        free(cc);
        backend_msg(msg, msg_len, "%s: unknown kind of key", d->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    *handle = cc;
    return CUZK_OK;
}

static void cpu_release(backend_t *b, void *handle)
{
    (void)b;
    cpu_circuit_free(handle);
}

/* Times consecutive phases and reports each as it ends. */
typedef struct phase_clock {
    backend_phase_fn fn;
    void *ctx;
    uint64_t mark;
} phase_clock;

static void lap(phase_clock *pc, const char *phase, uint64_t bytes)
{
    uint64_t t = backend_clock_ns();
    if (pc->fn)
        pc->fn(pc->ctx, phase, "cpu", pc->mark, t, bytes);
    pc->mark = t;
}

static cuzk_status fail(cuzk_status st, const char *what, char *msg, size_t msg_len)
{
    backend_msg(msg, msg_len, "%s: %s", what, cuzk_status_str(st));
    return st;
}

/* The bellman MSM phases reported as they end, with the bytes each reads. */
typedef struct bellman_msm_clock {
    phase_clock *pc;
    const groth16_circuit_t *c;
} bellman_msm_clock;

static void bellman_msm_done(void *ctx, groth16_phase phase)
{
    const bellman_msm_clock *mc = ctx;
    const r1cs_t *cs = mc->c->r1cs;
    const groth16_params_t *p = mc->c->params;
    uint64_t scalars = r1cs_num_vars(cs) * SCALAR_BYTES, bytes = 0;
    switch (phase) {
    case GROTH16_PHASE_MSM_H:
        bytes = (uint64_t)(mc->c->domain.n - 1) * (SCALAR_BYTES + POINT_G1_BYTES);
        break;
    case GROTH16_PHASE_MSM_L:
        bytes = cs->num_aux * (SCALAR_BYTES + POINT_G1_BYTES);
        break;
    case GROTH16_PHASE_MSM_A:
        bytes = p->num_a * POINT_G1_BYTES + scalars;
        break;
    case GROTH16_PHASE_MSM_B_G1:
        bytes = p->num_b_g1 * POINT_G1_BYTES + scalars;
        break;
    default: /* GROTH16_PHASE_MSM_B_G2 */
        bytes = p->num_b_g2 * POINT_G2_BYTES + scalars;
        break;
    }
    lap(mc->pc, groth16_phase_name(phase), bytes);
}

static const char *bellman_msm_what(groth16_phase phase)
{
    switch (phase) {
    case GROTH16_PHASE_MSM_H:
        return "the MSM over H";
    case GROTH16_PHASE_MSM_L:
        return "the MSM over L";
    case GROTH16_PHASE_MSM_A:
        return "the MSM over A";
    case GROTH16_PHASE_MSM_B_G1:
        return "the MSM over B in G1";
    default:
        return "the MSM over B in G2";
    }
}

/* groth16_prove_with after r1cs_eval (bellman's create_proof). */
static cuzk_status prove_bellman(const cpu_circuit *cc, const backend_input *in, groth16_sums *sums,
                                 unsigned threads, phase_clock *pc, char *msg, size_t msg_len)
{
    const groth16_circuit_t *c = &cc->g;
    const r1cs_t *cs = c->r1cs;
    size_t n = c->domain.n;
    fr_t *va = in->abc, *vb = va + n, *vc = vb + n;
    cuzk_status st;

    if (in->rows != cs->num_constraints) {
        backend_msg(msg, msg_len, "a, b, c have %llu rows, the circuit %llu",
                    (unsigned long long)in->rows, (unsigned long long)cs->num_constraints);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    st = poly_compute_h(va, vb, vc, in->rows, &c->domain, POLY_H_COSET_GENERATOR, threads);
    if (st != CUZK_OK)
        return fail(st, "the quotient polynomial", msg, msg_len);
    if (!poly_h_top_is_zero(va, &c->domain)) {
        backend_msg(msg, msg_len,
                    "the witness does not satisfy the constraints (h has degree n - 1)");
        return CUZK_ERR_UNSATISFIED;
    }
    lap(pc, "h", 3 * (uint64_t)n * SCALAR_BYTES);

    bellman_msm_clock mc = {.pc = pc, .c = c};
    groth16_phase failed;
    if ((st = groth16_msm_sums(sums, c, in->w, va, threads, bellman_msm_done, &mc, &failed)) !=
        CUZK_OK)
        return fail(st, bellman_msm_what(failed), msg, msg_len);
    return CUZK_OK;
}

/* The steps of groth16_zkey_msm_sums reported as they end, with the bytes
 * each reads. The two groups of MSMs run at the same time, so a step's
 * start is its own (not the previous step's end), and the phases of the
 * two groups overlap. H and C are summed in one MSM, reported as msm_h
 * (no msm_l for a snarkjs key). */
typedef struct zkey_step_clock {
    backend_phase_fn fn;
    void *ctx;
    const zkey_t *z;
    uint64_t start[GROTH16_ZKEY_STEP_COUNT];
} zkey_step_clock;

static const char *const zkey_step_phase[GROTH16_ZKEY_STEP_COUNT] = {"h", "msm_h", "msm_a",
                                                                     "msm_b_g1", "msm_b_g2"};
static const char *const zkey_step_what[GROTH16_ZKEY_STEP_COUNT] = {
    "the quotient evaluations", "the MSM over H and C", "the MSM over A", "the MSM over B1",
    "the MSM over B2"};

static void zkey_step_done(void *ctx, groth16_zkey_step step, bool end)
{
    zkey_step_clock *sc = ctx;
    uint64_t t = backend_clock_ns();
    if (!end) {
        sc->start[step] = t; /* each step runs on one thread: its own slot */
        return;
    }
    uint64_t n = sc->z->domain_size, nv = sc->z->num_vars, nc = nv - sc->z->num_public - 1;
    uint64_t bytes;
    switch (step) {
    case GROTH16_ZKEY_STEP_H:
        bytes = 3 * n * SCALAR_BYTES;
        break;
    case GROTH16_ZKEY_STEP_MSM_HC:
        bytes = (n + nc) * (SCALAR_BYTES + POINT_G1_BYTES);
        break;
    case GROTH16_ZKEY_STEP_MSM_B2:
        bytes = nv * (SCALAR_BYTES + POINT_G2_BYTES);
        break;
    default: /* A, B1 */
        bytes = nv * (SCALAR_BYTES + POINT_G1_BYTES);
        break;
    }
    if (sc->fn)
        sc->fn(sc->ctx, zkey_step_phase[step], "cpu", sc->start[step], t, bytes);
}

/* groth16_zkey_prove_with after zkey_eval_abc (snarkjs's groth16 prove):
 * the same sequence, groth16_zkey_msm_sums, from the a, b, c the engine
 * evaluated. Its scratch is a, b, c, then h and the C section's scalars:
 * in->abc when the C scalars fit where b and c were, else a copy. */
static cuzk_status prove_zkey(const cpu_circuit *cc, const backend_input *in, groth16_sums *sums,
                              unsigned threads, phase_clock *pc, char *msg, size_t msg_len)
{
    const groth16_zkey_circuit_t *zc = &cc->zc;
    const zkey_t *z = zc->zkey;
    size_t n = z->domain_size;
    if (in->rows > n) {
        backend_msg(msg, msg_len, "a, b, c have %llu rows, the domain %zu",
                    (unsigned long long)in->rows, n);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    fr_t *scratch = in->abc, *own = NULL;
    size_t need = groth16_zkey_scratch_bytes(zc);
    if (need > 3 * n * sizeof(fr_t)) {
        if (!(own = malloc(need))) {
            backend_msg(msg, msg_len, "out of memory for the proof's scratch");
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        for (size_t k = 0; k < 3; k++)
            memcpy(own + k * n, in->abc + k * n, in->rows * sizeof(fr_t));
        scratch = own;
    }
    zkey_step_clock sc = {.fn = pc->fn, .ctx = pc->ctx, .z = z};
    groth16_zkey_step failed = GROTH16_ZKEY_STEP_H;
    cuzk_status st = groth16_zkey_msm_sums(sums, zc, in->w, scratch, in->rows, threads,
                                           zkey_step_done, &sc, &failed);
    free(own);
    if (st != CUZK_OK)
        return fail(st, zkey_step_what[failed], msg, msg_len);
    return CUZK_OK;
}

static cuzk_status cpu_prove(backend_t *b, unsigned device, void *handle, const backend_input *in,
                             groth16_sums *out, backend_phase_fn phase, void *phase_ctx, char *msg,
                             size_t msg_len)
{
    cpu_backend *cb = b->impl;
    const cpu_circuit *cc = handle;
    if (device >= cb->devices || !cc || !in || !in->w || !in->abc) {
        backend_msg(msg, msg_len, "bad arguments (device %u of %u)", device, cb->devices);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&cb->locks[device]);
    phase_clock pc = {.fn = phase, .ctx = phase_ctx, .mark = backend_clock_ns()};
    cuzk_status st = cc->kind == BACKEND_KEY_BELLMAN
                         ? prove_bellman(cc, in, out, cb->threads, &pc, msg, msg_len)
                         : prove_zkey(cc, in, out, cb->threads, &pc, msg, msg_len);
    pthread_mutex_unlock(&cb->locks[device]);
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
