#include "groth16/zkey_prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/assemble.h"
#include "msm/msm.h"
#include "poly/quotient.h"
#include "util/parallel.h"
#include "util/wipe.h"

static cuzk_status zkey_circuit_init(groth16_zkey_circuit_t *c, const zkey_t *z,
                                     formats_check check, bool coeffs, unsigned threads, char *msg,
                                     size_t msg_len)
{
    memset(c, 0, sizeof(*c));
    c->zkey = z;
    uint64_t nv = z->num_vars, np = z->num_public, n = z->domain_size;
    uint64_t nc = nv - np - 1;
    /* +1: an empty section still gets a valid pointer */
    c->coeffs = coeffs ? malloc(sizeof(zkey_coeff) * (z->num_coeffs + 1)) : NULL;
    c->a = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b1 = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b2 = malloc(sizeof(g2_affine_t) * (nv + 1));
    /* H and C in one allocation, C right after H: the prover sums both
     * in one MSM. */
    c->h = malloc(sizeof(g1_affine_t) * (n + nc + 1));
    c->c = c->h ? c->h + n : NULL;
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if ((coeffs && !c->coeffs) || !c->a || !c->b1 || !c->b2 || !c->h) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's sections");
        goto fail;
    }
    if ((coeffs && (st = zkey_decode_coeffs(c->coeffs, z, threads, msg, msg_len)) != CUZK_OK) ||
        (st = zkey_decode_g1(c->a, z, ZKEY_POINTS_A, 0, nv, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = zkey_decode_g1(c->b1, z, ZKEY_POINTS_B1, 0, nv, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = zkey_decode_g2(c->b2, z, 0, nv, check, threads, msg, msg_len)) != CUZK_OK ||
        (st = zkey_decode_g1(c->c, z, ZKEY_POINTS_C, 0, nc, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = zkey_decode_g1(c->h, z, ZKEY_POINTS_H, 0, n, check, threads, msg, msg_len)) !=
            CUZK_OK)
        goto fail;
    if ((st = domain_init(&c->domain, n, DOMAIN_ROOTS_SNARKJS, threads)) != CUZK_OK) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "cannot build the evaluation domain of size %llu: %s",
                     (unsigned long long)n, cuzk_status_str(st));
        goto fail;
    }
    if (c->domain.n != n) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "the zkey's domain size %llu is not a power of two",
                     (unsigned long long)n);
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    return CUZK_OK;
fail:
    groth16_zkey_circuit_free(c);
    return st;
}

cuzk_status groth16_zkey_circuit_init(groth16_zkey_circuit_t *c, const zkey_t *z,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len)
{
    return zkey_circuit_init(c, z, check, true, threads, msg, msg_len);
}

cuzk_status groth16_zkey_circuit_init_points(groth16_zkey_circuit_t *c, const zkey_t *z,
                                             formats_check check, unsigned threads, char *msg,
                                             size_t msg_len)
{
    return zkey_circuit_init(c, z, check, false, threads, msg, msg_len);
}

void groth16_zkey_circuit_free(groth16_zkey_circuit_t *c)
{
    free(c->coeffs);
    free(c->a);
    free(c->b1);
    free(c->b2);
    free(c->h); /* and C, in the same block */
    domain_free(&c->domain);
    memset(c, 0, sizeof(*c));
}

size_t groth16_zkey_scratch_bytes(const groth16_zkey_circuit_t *c)
{
    /* a, b, c; then h and the C section's scalars side by side */
    size_t n = c->zkey->domain_size, nc = (size_t)c->zkey->num_vars - c->zkey->num_public - 1;
    return (n + (nc > 2 * n ? nc : 2 * n)) * sizeof(fr_t);
}

/* The four MSMs of a proof: over A, B1 and B2 with the witness, and over
 * H then C, the last one after the quotient (a, b, c from the key's
 * coefficients, then h; the other three do not need it). With two threads
 * or more they run as two concurrent groups of about equal work, each on
 * half the threads: one MSM on all threads waits for its slowest thread
 * at each of its passes, two at a time keep the threads busy through
 * those waits, and the quotient overlaps the other group's MSMs. */
enum { ZKEY_MSM_A, ZKEY_MSM_B1, ZKEY_MSM_B2, ZKEY_MSM_HC, ZKEY_MSM_COUNT };

typedef struct zkey_msms {
    const groth16_zkey_circuit_t *c;
    const fr_t *w;
    fr_t *abc;     /* the scratch: a, b, c; then h and the C section's scalars */
    uint64_t rows; /* evaluated rows of a, b, c, or GROTH16_ZKEY_EVAL_ABC */
    groth16_sums *sums;
    groth16_zkey_step_fn step;
    void *step_ctx;
    groth16_zkey_step failed[ZKEY_MSM_COUNT];
    unsigned group[ZKEY_MSM_COUNT];
    unsigned threads[2];
    cuzk_status st[ZKEY_MSM_COUNT];
} zkey_msms;

static void zkey_step(const zkey_msms *m, groth16_zkey_step step, bool end)
{
    if (m->step)
        m->step(m->step_ctx, step, end);
}

/* Runs one of the four MSMs (the quotient first for H and C) and reports
 * its steps; on failure *failed names the step. */
static cuzk_status zkey_msm_run(const zkey_msms *m, unsigned which, unsigned threads,
                                groth16_zkey_step *failed)
{
    static const groth16_zkey_step steps[ZKEY_MSM_COUNT] = {
        [ZKEY_MSM_A] = GROTH16_ZKEY_STEP_MSM_A,
        [ZKEY_MSM_B1] = GROTH16_ZKEY_STEP_MSM_B1,
        [ZKEY_MSM_B2] = GROTH16_ZKEY_STEP_MSM_B2,
        [ZKEY_MSM_HC] = GROTH16_ZKEY_STEP_MSM_HC,
    };
    const groth16_zkey_circuit_t *c = m->c;
    const zkey_t *z = c->zkey;
    size_t n = z->domain_size, nv = z->num_vars, np = z->num_public, nc = nv - np - 1;
    fr_t *va = m->abc, *vb = va + n, *vc = vb + n;
    cuzk_status st;
    if (which == ZKEY_MSM_HC) {
        size_t rows = (size_t)m->rows;
        zkey_step(m, GROTH16_ZKEY_STEP_H, false);
        if (m->rows == GROTH16_ZKEY_EVAL_ABC) {
            zkey_eval_abc(va, vb, vc, c->coeffs, z->num_coeffs, m->w, n);
            rows = n;
        }
        st = poly_h_coset_evals(va, vb, vc, rows, &c->domain, POLY_H_COSET_2N_ROOT, threads);
        if (st != CUZK_OK) {
            *failed = GROTH16_ZKEY_STEP_H;
            return st;
        }
        zkey_step(m, GROTH16_ZKEY_STEP_H, true);
        /* Σc = Σ h_i·H_i + Σ w_i·C_i as one MSM over H then C (one
         * allocation): the C scalars go right after h, where b and c were
         * (the scratch has room for them). */
        memcpy(vb, m->w + np + 1, nc * sizeof(fr_t));
    }
    zkey_step(m, steps[which], false);
    switch (which) {
    case ZKEY_MSM_A:
        st = msm_g1_split(&m->sums->a, c->a, m->w, nv, threads);
        break;
    case ZKEY_MSM_B1:
        st = msm_g1_split(&m->sums->b1, c->b1, m->w, nv, threads);
        break;
    case ZKEY_MSM_B2:
        st = msm_g2_split(&m->sums->b, c->b2, m->w, nv, threads);
        break;
    default:
        st = msm_g1_split(&m->sums->c, c->h, va, n + nc, threads);
        break;
    }
    if (st != CUZK_OK) {
        *failed = steps[which];
        return st;
    }
    zkey_step(m, steps[which], true);
    return CUZK_OK;
}

static void zkey_msm_groups(void *arg, size_t begin, size_t end)
{
    zkey_msms *m = arg;
    for (size_t g = begin; g < end; g++)
        for (unsigned i = 0; i < ZKEY_MSM_COUNT; i++)
            if (m->group[i] == g)
                m->st[i] = zkey_msm_run(m, i, m->threads[g], &m->failed[i]);
}

/* Pairs of a point (not at infinity) and a scalar other than 0 and 1: what
 * the split leaves to Pippenger. */
static size_t zkey_msm_work(const g1_affine_t *p1, const g2_affine_t *p2, const fr_t *w, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k +=
            !(p1 ? p1[i].infinity : p2[i].infinity) && !fr_is_zero(&w[i]) && !fr_eq(&w[i], &FR_ONE);
    return k;
}

cuzk_status groth16_zkey_msm_sums(groth16_sums *sums, const groth16_zkey_circuit_t *c,
                                  const fr_t *w, fr_t *scratch, uint64_t rows, unsigned threads,
                                  groth16_zkey_step_fn step, void *step_ctx,
                                  groth16_zkey_step *failed)
{
    const zkey_t *z = c->zkey;
    size_t n = z->domain_size, nv = z->num_vars, np = z->num_public;
    groth16_zkey_step failed_local;
    if (!failed)
        failed = &failed_local;
    if ((rows == GROTH16_ZKEY_EVAL_ABC && !c->coeffs) ||
        (rows != GROTH16_ZKEY_EVAL_ABC && rows > n)) {
        *failed = GROTH16_ZKEY_STEP_H;
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    zkey_msms m = {.c = c,
                   .w = w,
                   .abc = scratch,
                   .rows = rows,
                   .sums = sums,
                   .step = step,
                   .step_ctx = step_ctx};
    unsigned t = parallel_threads(threads);
    if (t < 2) {
        for (unsigned i = 0; i < ZKEY_MSM_COUNT; i++)
            if ((m.st[i] = zkey_msm_run(&m, i, t, failed)) != CUZK_OK)
                return m.st[i];
        return CUZK_OK;
    }
    /* Work estimates (a G2 point costs about 2.5 G1 points, the quotient
     * about 0.2 of a point a row), the largest first into the lighter
     * group. */
    double work[ZKEY_MSM_COUNT] = {
        (double)zkey_msm_work(c->a, NULL, w, nv),
        (double)zkey_msm_work(c->b1, NULL, w, nv),
        2.5 * (double)zkey_msm_work(NULL, c->b2, w, nv),
        1.2 * (double)n + (double)zkey_msm_work(c->c, NULL, w + np + 1, nv - np - 1),
    };
    double load[2] = {0, 0};
    bool placed[ZKEY_MSM_COUNT] = {false};
    for (unsigned k = 0; k < ZKEY_MSM_COUNT; k++) {
        unsigned best = 0;
        while (placed[best])
            best++;
        for (unsigned i = best + 1; i < ZKEY_MSM_COUNT; i++)
            if (!placed[i] && work[i] > work[best])
                best = i;
        placed[best] = true;
        unsigned g = load[1] < load[0];
        m.group[best] = g;
        load[g] += work[best];
    }
    m.threads[0] = (t + 1) / 2;
    m.threads[1] = t / 2;
    parallel_for(2, 1, 2, zkey_msm_groups, &m);
    for (unsigned i = 0; i < ZKEY_MSM_COUNT; i++)
        if (m.st[i] != CUZK_OK) {
            *failed = m.failed[i];
            return m.st[i];
        }
    return CUZK_OK;
}

cuzk_status groth16_zkey_prove_with(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                                    const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                                    unsigned threads)
{
    groth16_sums sums;
    cuzk_status st = groth16_zkey_msm_sums(&sums, c, w, scratch, GROTH16_ZKEY_EVAL_ABC, threads,
                                           NULL, NULL, NULL);
    if (st != CUZK_OK)
        return st;
    groth16_assemble(proof, &c->zkey->vk, &sums, r, s);
    return CUZK_OK;
}

cuzk_status groth16_zkey_prove(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                               const fr_t *w, rng_t *rng, void *scratch, unsigned threads)
{
    fr_t r, s;
    fr_random(&r, rng);
    fr_random(&s, rng);
    cuzk_status st = groth16_zkey_prove_with(proof, c, w, &r, &s, scratch, threads);
    cuzk_wipe(&r, sizeof(r));
    cuzk_wipe(&s, sizeof(s));
    return st;
}
