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
    c->c = malloc(sizeof(g1_affine_t) * (nc + 1));
    c->h = malloc(sizeof(g1_affine_t) * (n + 1));
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!c->coeffs || !c->a || !c->b1 || !c->b2 || !c->c || !c->h)
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
    free(c->c);
    free(c->h);
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
    const zkey_t *z = c->zkey;
    size_t n = z->domain_size, nv = z->num_vars, np = z->num_public;
    fr_t *va = scratch, *vb = va + n, *vc = vb + n;
    zkey_eval_abc(va, vb, vc, c->coeffs, z->num_coeffs, w, n);
    cuzk_status st =
        poly_h_coset_evals(va, vb, vc, n, &c->domain, POLY_H_COSET_2N_ROOT, threads);
    if (st != CUZK_OK)
        return st;

    groth16_sums sums;
    g1_jac_t h_acc, c_acc;
    if ((st = msm_g1_split(&sums.a, c->a, w, nv, threads)) != CUZK_OK ||
        (st = msm_g1_split(&sums.b1, c->b1, w, nv, threads)) != CUZK_OK ||
        (st = msm_g2_split(&sums.b, c->b2, w, nv, threads)) != CUZK_OK ||
        (st = msm_g1_split(&c_acc, c->c, w + np + 1, nv - np - 1, threads)) != CUZK_OK ||
        (st = msm_g1(&h_acc, c->h, va, n, threads)) != CUZK_OK)
        return st;
    g1_jac_add(&sums.c, &h_acc, &c_acc);
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
