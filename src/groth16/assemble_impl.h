/* groth16_assemble (assemble.h) for one curve. No include guard: assemble.c
 * includes it once per curve after defining
 *   AS_FN        the function's name (groth16_assemble)
 *   AS_G1(name), AS_G2(name)   the groups' names (g1_##name)
 *   AS_FR(name), AS_FR_T       the scalar field's names and type
 *   AS_VK_T, AS_PROOF_T, AS_SUMS_T   the key, proof and sums types
 * and undefines them after. */

void AS_FN(AS_PROOF_T *proof, const AS_VK_T *vk, const AS_SUMS_T *sums, const AS_FR_T *r,
           const AS_FR_T *s)
{
    uint64_t rk[4], sk[4], rsk[4];
    AS_FR_T rs;
    AS_FR(mul)(&rs, r, s);
    AS_FR(to_raw)(rk, r);
    AS_FR(to_raw)(sk, s);
    AS_FR(to_raw)(rsk, &rs);

    /* Constant-time multiplications: r and s are the proof's secrets. */
    AS_G1(jac_t) ga, gb1, gc, t;
    AS_G1(jac_from_affine)(&t, &vk->delta_g1);
    AS_G1(jac_mul)(&ga, &t, rk);
    AS_G1(jac_add)(&ga, &ga, &sums->a);
    AS_G1(jac_add_mixed)(&ga, &ga, &vk->alpha_g1);

    AS_G2(jac_t) gb, t2;
    AS_G2(jac_from_affine)(&t2, &vk->delta_g2);
    AS_G2(jac_mul)(&gb, &t2, sk);
    AS_G2(jac_add)(&gb, &gb, &sums->b);
    AS_G2(jac_add_mixed)(&gb, &gb, &vk->beta_g2);

    AS_G1(jac_mul)(&gb1, &t, sk);
    AS_G1(jac_add)(&gb1, &gb1, &sums->b1);
    AS_G1(jac_add_mixed)(&gb1, &gb1, &vk->beta_g1);

    AS_G1(jac_mul)(&gc, &ga, sk);
    AS_G1(jac_mul)(&gb1, &gb1, rk);
    AS_G1(jac_add)(&gc, &gc, &gb1);
    AS_G1(jac_mul)(&t, &t, rsk);
    AS_G1(jac_neg)(&t, &t);
    AS_G1(jac_add)(&gc, &gc, &t);
    AS_G1(jac_add)(&gc, &gc, &sums->c);

    AS_G1(jac_to_affine)(&proof->a, &ga);
    AS_G2(jac_to_affine)(&proof->b, &gb);
    AS_G1(jac_to_affine)(&proof->c, &gc);
    cuzk_wipe(rk, sizeof(rk));
    cuzk_wipe(sk, sizeof(sk));
    cuzk_wipe(rsk, sizeof(rsk));
    cuzk_wipe(&rs, sizeof(rs));
}

#undef AS_FN
#undef AS_G1
#undef AS_G2
#undef AS_FR
#undef AS_FR_T
#undef AS_VK_T
#undef AS_PROOF_T
#undef AS_SUMS_T
