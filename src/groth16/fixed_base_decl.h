/* One group's fixed-base table and batch (fixed_base.h), declared once for
 * G1 and G2 of BLS12-381 (g1_fixed_base_t, g1_fixed_base_init, ...) and of
 * BN254 (bn254_g1_fixed_base_t, ...); fixed_base_impl.h implements them.
 * No include guard: fixed_base.h includes it once per group after defining
 *   FBD_(name)  the group's names (g1_##name)
 *   FBD_AFF_T   its affine point
 *   FBD_SC_T    its scalar field's element
 * which are undefined at the end. */

typedef struct FBD_(fixed_base) {
    unsigned window;
    unsigned windows;
    FBD_AFF_T *table; /* windows × (2^window − 1) */
} FBD_(fixed_base_t);

cuzk_status FBD_(fixed_base_init)(FBD_(fixed_base_t) * t, const FBD_AFF_T *base, unsigned window);
void FBD_(fixed_base_free)(FBD_(fixed_base_t) * t);
/* out[i] = scalars[i] · base for i < n, on `threads` threads (0: all CPUs). */
cuzk_status FBD_(fixed_base_mul_batch)(FBD_AFF_T *out, const FBD_(fixed_base_t) * t,
                                       const FBD_SC_T *scalars, size_t n, unsigned threads,
                                       atomic_uint_fast64_t *done);

#undef FBD_
#undef FBD_AFF_T
#undef FBD_SC_T
