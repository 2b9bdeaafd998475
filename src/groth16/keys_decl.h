/* The Groth16 verifying key and proof of one curve, declared once for
 * BLS12-381 (keys.h: groth16_vk_t, groth16_proof_t) and BN254
 * (bn254_groth16.h: bn254_groth16_vk_t, ...). No include guard: each
 * header includes it after its groups' header, after defining
 *   KD_(name)  the type names (groth16_##name)
 *   KD_G1, KD_G2  the affine point types
 * The macros are undefined at the end. */

typedef struct KD_(vk) {
    KD_G1 alpha_g1;
    KD_G1 beta_g1;
    KD_G2 beta_g2;
    KD_G2 gamma_g2;
    KD_G1 delta_g1;
    KD_G2 delta_g2;
    KD_G1 *ic; /* num_ic = number of inputs, ONE included */
    size_t num_ic;
} KD_(vk_t);

typedef struct KD_(proof) {
    KD_G1 a;
    KD_G2 b;
    KD_G1 c;
} KD_(proof_t);

#undef KD_
#undef KD_G1
#undef KD_G2
