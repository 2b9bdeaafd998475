#include "groth16/zkey_prover.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/assemble.h"
#include "msm/msm.h"
#include "poly/quotient.h"
#include "util/wipe.h"

cuzk_status groth16_zkey_circuit_init(groth16_zkey_circuit_t *c, const zkey_t *z,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len)
{
    memset(c, 0, sizeof(*c));
    c->zkey = z;
    uint64_t nv = z->num_vars, np = z->num_public, n = z->domain_size;
    uint64_t nc = nv - np - 1;
    /* +1: an empty section still gets a valid pointer */
    c->coeffs = malloc(sizeof(zkey_coeff) * (z->num_coeffs + 1));
    c->a = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b1 = malloc(sizeof(g1_affine_t) * (nv + 1));
    c->b2 = malloc(sizeof(g2_affine_t) * (nv + 1));
    /* H and C in one allocation, C right after H: the prover sums both
     * in one MSM. */
    c->h = malloc(sizeof(g1_affine_t) * (n + nc + 1));
    c->c = c->h ? c->h + n : NULL;
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!c->coeffs || !c->a || !c->b1 || !c->b2 || !c->h)
        goto fail;
    if ((st = zkey_decode_coeffs(c->coeffs, z, threads, msg, msg_len)) != CUZK_OK ||
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
    if ((st = domain_init(&c->domain, n, DOMAIN_ROOTS_SNARKJS, threads)) != CUZK_OK)
        goto fail;
    if (c->domain.n != n) {
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    return CUZK_OK;
fail:
    groth16_zkey_circuit_free(c);
    return st;
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

cuzk_status groth16_zkey_prove_with(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                                    const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                                    unsigned threads)
{
    const zkey_t *z = c->zkey;
    size_t n = z->domain_size, nv = z->num_vars, np = z->num_public;
    fr_t *va = scratch, *vb = va + n, *vc = vb + n;
    zkey_eval_abc(va, vb, vc, c->coeffs, z->num_coeffs, w, n);
    cuzk_status st =
        poly_h_coset_evals(va, vb, vc, n, &c->domain, POLY_H_COSET_2N_ROOT, threads);
    if (st != CUZK_OK)
        return st;

    groth16_sums sums;
    if ((st = msm_g1_split(&sums.a, c->a, w, nv, threads)) != CUZK_OK ||
        (st = msm_g1_split(&sums.b1, c->b1, w, nv, threads)) != CUZK_OK ||
        (st = msm_g2_split(&sums.b, c->b2, w, nv, threads)) != CUZK_OK)
        return st;
    /* Σc = Σ h_i·H_i + Σ w_i·C_i as one MSM over H then C (one
     * allocation): the C scalars go right after h, where b and c were (the
     * scratch has room for them). */
    size_t nc = nv - np - 1;
    memcpy(vb, w + np + 1, nc * sizeof(fr_t));
    if ((st = msm_g1_split(&sums.c, c->h, va, n + nc, threads)) != CUZK_OK)
        return st;
    groth16_assemble(proof, &z->vk, &sums, r, s);
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
