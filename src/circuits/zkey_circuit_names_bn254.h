/* The names zkey_circuit_decl.h and zkey_circuit_impl.h take for BN254
 * (zkey.h, zkey.c). No include guard; zkey_circuit_undef.h undoes them. */
#define ZD_(name) bn254_zkey_circuit_##name
#define ZD_G1 bn254_g1_affine_t
#define ZD_G2 bn254_g2_affine_t
#define ZD_FR_T bn254_fr_t
#define ZD_DOMAIN_T bn254_domain_t
#define ZD_PROOF_T bn254_groth16_proof_t
