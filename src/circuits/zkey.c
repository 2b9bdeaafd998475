#include "circuits/zkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/assemble.h"
#include "util/wipe.h"

/* The coefficient section as a constraint system of domain_size rows. */
static cuzk_status compile_coeffs(zkey_circuit_t *c, const zkey_t *z, unsigned threads, char *msg,
                                  size_t msg_len)
{
    /* +1: an empty section still gets a valid pointer */
    r1cs_entry *entries = malloc(sizeof(r1cs_entry) * ((uint64_t)z->num_coeffs + 1));
    if (!entries) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's coefficients");
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    cuzk_status st = zkey_decode_coeffs(entries, z, threads, msg, msg_len);
    if (st == CUZK_OK) {
        char why[256] = "";
        st = r1cs_from_entries(&c->cs, entries, z->num_coeffs, z->domain_size,
                               (uint64_t)z->num_public + 1, z->num_vars - z->num_public - 1, why,
                               sizeof(why));
        if (st != CUZK_OK && msg && msg_len)
            snprintf(msg, msg_len, "%s: the coefficient section: %s", z->file.name, why);
    }
    free(entries);
    return st;
}

static bool g1_point_at_infinity(const void *p)
{
    return ((const g1_affine_t *)p)->infinity;
}

static bool g2_point_at_infinity(const void *p)
{
    return ((const g2_affine_t *)p)->infinity;
}

/* Moves the n points' finite ones to the front, in order, and marks them
 * in a bitmap over the n variables (*density; stays NULL when no point is
 * at infinity). A variable absent from A or B has the point at infinity
 * there; in a Poseidon-shaped circom circuit about half of B's are, and
 * each would cost the MSM a bucket entry for nothing (on the GPU, G2's
 * accumulation took 48 ms instead of 25 at 2^20 with them). */
static cuzk_status drop_infinity(void *points, size_t size, uint64_t n,
                                 bool (*at_infinity)(const void *), uint64_t **density,
                                 uint64_t *kept)
{
    *density = NULL;
    *kept = n;
    unsigned char *base = points;
    uint64_t first = 0;
    while (first < n && !at_infinity(base + first * size))
        first++;
    if (first == n)
        return CUZK_OK;
    uint64_t *bits = calloc((n + 63) / 64, sizeof(uint64_t));
    if (!bits)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < first; i++)
        bits[i / 64] |= 1ull << (i % 64);
    uint64_t out = first;
    for (uint64_t i = first + 1; i < n; i++) {
        if (at_infinity(base + i * size))
            continue;
        memmove(base + out * size, base + i * size, size);
        bits[i / 64] |= 1ull << (i % 64);
        out++;
    }
    *density = bits;
    *kept = out;
    return CUZK_OK;
}

cuzk_status zkey_circuit_init(zkey_circuit_t *c, const zkey_t *z, formats_check check,
                              unsigned threads, char *msg, size_t msg_len)
{
    memset(c, 0, sizeof(*c));
    c->zkey = z;
    uint64_t nv = z->num_vars, np = z->num_public, n = z->domain_size;
    uint64_t nc = nv - np - 1;
    c->a = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b1 = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b2 = malloc(sizeof(g2_affine_t) * (nv + 1));
    /* H and C in one allocation, C right after H: the plan sums both in
     * one MSM. */
    c->h = malloc(sizeof(g1_affine_t) * (n + nc + 1));
    c->c = c->h ? c->h + n : NULL;
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!c->a || !c->b1 || !c->b2 || !c->h) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's sections");
        goto fail;
    }
    if ((st = compile_coeffs(c, z, threads, msg, msg_len)) != CUZK_OK ||
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
    if ((st = drop_infinity(c->a, sizeof(g1_affine_t), nv, g1_point_at_infinity, &c->a_density,
                            &c->a_points)) != CUZK_OK ||
        (st = drop_infinity(c->b1, sizeof(g1_affine_t), nv, g1_point_at_infinity, &c->b1_density,
                            &c->b1_points)) != CUZK_OK ||
        (st = drop_infinity(c->b2, sizeof(g2_affine_t), nv, g2_point_at_infinity, &c->b2_density,
                            &c->b2_points)) != CUZK_OK) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's density bitmaps");
        goto fail;
    }
    groth16_snarkjs_query q = {.h = c->h,
                               .c = c->c,
                               .a = c->a,
                               .b1 = c->b1,
                               .b2 = c->b2,
                               .num_vars = nv,
                               .num_public = np,
                               .a_density = c->a_density,
                               .b1_density = c->b1_density,
                               .b2_density = c->b2_density,
                               .a_points = c->a_points,
                               .b1_points = c->b1_points,
                               .b2_points = c->b2_points};
    groth16_plan_snarkjs(&c->plan, &q, &c->domain);
    return CUZK_OK;
fail:
    zkey_circuit_free(c);
    return st;
}

void zkey_circuit_free(zkey_circuit_t *c)
{
    r1cs_free(&c->cs);
    free(c->a);
    free(c->b1);
    free(c->b2);
    free(c->h); /* and C, in the same block */
    free(c->a_density);
    free(c->b1_density);
    free(c->b2_density);
    domain_free(&c->domain);
    memset(c, 0, sizeof(*c));
}

uint64_t zkey_circuit_bytes(const zkey_circuit_t *c)
{
    const zkey_t *z = c->zkey;
    uint64_t nv = z->num_vars, n = z->domain_size, nc = nv - z->num_public - 1;
    uint64_t bytes = (2 * nv + n + nc) * sizeof(g1_affine_t) + nv * sizeof(g2_affine_t) +
                     n * sizeof(fr_t) + c->cs.num_coeffs * sizeof(fr_t);
    const uint64_t *bitmaps[3] = {c->a_density, c->b1_density, c->b2_density};
    for (int k = 0; k < 3; k++)
        bytes += bitmaps[k] ? (nv + 63) / 64 * 8 : 0;
    const r1cs_matrix *ms[3] = {&c->cs.a, &c->cs.b, &c->cs.c};
    for (int k = 0; k < 3; k++)
        bytes += (c->cs.num_constraints + 1) * 8 + ms[k]->nnz * (4 + c->cs.coeff_width);
    return bytes;
}

void zkey_circuit_eval_abc(const zkey_circuit_t *c, const fr_t *w, fr_t *abc, unsigned threads)
{
    size_t n = c->zkey->domain_size;
    fr_t *a = abc, *b = a + n, *cc = b + n;
    r1cs_eval(&c->cs, w, a, b, NULL, threads);
    r1cs_mul_rows(cc, a, b, n, threads);
}

size_t zkey_circuit_scratch_bytes(const zkey_circuit_t *c)
{
    return 3 * (size_t)c->zkey->domain_size * sizeof(fr_t);
}

cuzk_status zkey_circuit_prove_with(groth16_proof_t *proof, const zkey_circuit_t *c, const fr_t *w,
                                    const fr_t *r, const fr_t *s, void *scratch, unsigned threads)
{
    size_t n = c->zkey->domain_size;
    zkey_circuit_eval_abc(c, w, scratch, threads);
    groth16_sums sums;
    cuzk_status st = groth16_plan_sums(&sums, &c->plan, w, scratch, n, threads, NULL, NULL, NULL);
    if (st != CUZK_OK)
        return st;
    groth16_assemble(proof, &c->zkey->vk, &sums, r, s);
    return CUZK_OK;
}

cuzk_status zkey_circuit_prove(groth16_proof_t *proof, const zkey_circuit_t *c, const fr_t *w,
                               rng_t *rng, void *scratch, unsigned threads)
{
    fr_t r, s;
    fr_random(&r, rng);
    fr_random(&s, rng);
    cuzk_status st = zkey_circuit_prove_with(proof, c, w, &r, &s, scratch, threads);
    cuzk_wipe(&r, sizeof(r));
    cuzk_wipe(&s, sizeof(s));
    return st;
}
