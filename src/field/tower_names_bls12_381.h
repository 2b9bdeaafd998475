/* The names the tower templates (fp2_decl.h ... fp12_decl.h, fp2_impl.h ...
 * fp12_cyclotomic_impl.h) are instantiated with for BLS12-381: F1_ is the
 * base field, F2_, F6_ and F12_ the extensions; F1_ONE_INIT is the
 * initializer of R mod p. No include guard; tower_names_undef.h undoes it. */
#define F1_(name) fp_##name
#define F1_T fp_t
#define F1_LIMBS FP_LIMBS
#define F1_BYTES FP_BYTES
#define F1_ZERO FP_ZERO
#define F1_ONE FP_ONE
#define F1_MODULUS FP_MODULUS
#define F1_ONE_INIT                                                                                \
    {                                                                                              \
        0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,                       \
            0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL                    \
    }
#define F2_(name) fp2_##name
#define F2_T fp2_t
#define F2_TAG fp2
#define F2_ZERO FP2_ZERO
#define F2_ONE FP2_ONE
#define F6_(name) fp6_##name
#define F6_T fp6_t
#define F6_TAG fp6
#define F6_ZERO FP6_ZERO
#define F6_ONE FP6_ONE
#define F12_(name) fp12_##name
#define F12_T fp12_t
#define F12_TAG fp12
#define F12_ONE FP12_ONE
#define F12_BYTES FP12_BYTES
