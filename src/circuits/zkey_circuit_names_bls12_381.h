/* The names zkey_circuit_decl.h and zkey_circuit_impl.h take for
 * BLS12-381 (zkey.h, zkey.c). No include guard; zkey_circuit_undef.h
 * undoes them. */
#define ZD_(name) zkey_circuit_##name
#define ZD_G1 g1_affine_t
#define ZD_G2 g2_affine_t
#define ZD_FR_T fr_t
#define ZD_DOMAIN_T domain_t
#define ZD_PROOF_T groth16_proof_t
