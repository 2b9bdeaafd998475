#include "groth16/zkey_prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/assemble.h"
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
    groth16_snarkjs_query q = {.h = c->h,
                               .c = c->c,
                               .a = c->a,
                               .b1 = c->b1,
                               .b2 = c->b2,
                               .num_vars = nv,
                               .num_public = np};
    groth16_plan_snarkjs(&c->plan, &q, &c->domain);
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
    return 3 * (size_t)c->zkey->domain_size * sizeof(fr_t);
}

cuzk_status groth16_zkey_prove_with(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                                    const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                                    unsigned threads)
{
    if (!c->coeffs)
        return CUZK_ERR_INVALID_ARGUMENT;
    size_t n = c->zkey->domain_size;
    fr_t *va = scratch, *vb = va + n, *vc = vb + n;
    zkey_eval_abc(va, vb, vc, c->coeffs, c->zkey->num_coeffs, w, n);
    groth16_sums sums;
    cuzk_status st = groth16_plan_sums(&sums, &c->plan, w, va, n, threads, NULL, NULL, NULL);
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
