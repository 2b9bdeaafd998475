#include "groth16/assemble.h"

#include "util/wipe.h"

void groth16_assemble(groth16_proof_t *proof, const groth16_vk_t *vk, const groth16_sums *sums,
                      const fr_t *r, const fr_t *s)
{
    uint64_t rk[4], sk[4], rsk[4];
    fr_t rs;
    fr_mul(&rs, r, s);
    fr_to_raw(rk, r);
    fr_to_raw(sk, s);
    fr_to_raw(rsk, &rs);

    /* Constant-time multiplications: r and s are the proof's secrets. */
    g1_jac_t ga, gb1, gc, t;
    g1_jac_from_affine(&t, &vk->delta_g1);
    g1_jac_mul(&ga, &t, rk);
    g1_jac_add(&ga, &ga, &sums->a);
    g1_jac_add_mixed(&ga, &ga, &vk->alpha_g1);

    g2_jac_t gb, t2;
    g2_jac_from_affine(&t2, &vk->delta_g2);
    g2_jac_mul(&gb, &t2, sk);
    g2_jac_add(&gb, &gb, &sums->b);
    g2_jac_add_mixed(&gb, &gb, &vk->beta_g2);

    g1_jac_mul(&gb1, &t, sk);
    g1_jac_add(&gb1, &gb1, &sums->b1);
    g1_jac_add_mixed(&gb1, &gb1, &vk->beta_g1);

    g1_jac_mul(&gc, &ga, sk);
    g1_jac_mul(&gb1, &gb1, rk);
    g1_jac_add(&gc, &gc, &gb1);
    g1_jac_mul(&t, &t, rsk);
    g1_jac_neg(&t, &t);
    g1_jac_add(&gc, &gc, &t);
    g1_jac_add(&gc, &gc, &sums->c);

    g1_jac_to_affine(&proof->a, &ga);
    g2_jac_to_affine(&proof->b, &gb);
    g1_jac_to_affine(&proof->c, &gc);
    cuzk_wipe(rk, sizeof(rk));
    cuzk_wipe(sk, sizeof(sk));
    cuzk_wipe(rsk, sizeof(rsk));
    cuzk_wipe(&rs, sizeof(rs));
}
