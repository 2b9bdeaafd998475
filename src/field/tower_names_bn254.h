/* The names the tower templates (fp2_decl.h ... fp12_decl.h, fp2_impl.h ...
 * fp12_cyclotomic_impl.h) are instantiated with for BN254: F1_ is the
 * base field, F2_, F6_ and F12_ the extensions; F1_ONE_INIT is the
 * initializer of R mod p. No include guard; tower_names_undef.h undoes it. */
#define F1_(name) bn254_fp_##name
#define F1_T bn254_fp_t
#define F1_LIMBS BN254_FP_LIMBS
#define F1_BYTES BN254_FP_BYTES
#define F1_ZERO BN254_FP_ZERO
#define F1_ONE BN254_FP_ONE
#define F1_MODULUS BN254_FP_MODULUS
#define F1_ONE_INIT                                                                                \
    {                                                                                              \
        0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL \
    }
#define F2_(name) bn254_fp2_##name
#define F2_T bn254_fp2_t
#define F2_TAG bn254_fp2
#define F2_ZERO BN254_FP2_ZERO
#define F2_ONE BN254_FP2_ONE
#define F6_(name) bn254_fp6_##name
#define F6_T bn254_fp6_t
#define F6_TAG bn254_fp6
#define F6_ZERO BN254_FP6_ZERO
#define F6_ONE BN254_FP6_ONE
#define F12_(name) bn254_fp12_##name
#define F12_T bn254_fp12_t
#define F12_TAG bn254_fp12
#define F12_ONE BN254_FP12_ONE
#define F12_BYTES BN254_FP12_BYTES
