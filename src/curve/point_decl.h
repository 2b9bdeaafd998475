/* The point types and group law of a curve y² = x³ + b (point_impl.h,
 * point_mul_impl.h), declared once for every group of the library
 * (BLS12-381 G1 and G2, BN254 G1 and G2). No include guard: each group's
 * header includes it once, after <stdbool.h>, <stddef.h>, <stdint.h> and
 * its field's header, and after defining
 *   PD_(name)   group-level names:  PD_(jac_add) -> g1_jac_add
 *   PD_FE_T     the coordinate field's type
 * The macros are undefined at the end.
 *
 * Representations:
 *   affine   (x, y), with an explicit infinity flag;
 *   Jacobian (X, Y, Z):        x = X/Z²,  y = Y/Z³,   Z = 0 is infinity;
 *   XYZZ     (X, Y, ZZ, ZZZ):  x = X/ZZ,  y = Y/ZZZ,  ZZ³ = ZZZ², ZZ = 0 is
 *            infinity (the bucket representation of the MSM: cheapest
 *            mixed addition; formulas from the Explicit-Formulas Database,
 *            "xyzz" coordinates for short Weierstrass a = 0).
 * Functions without _var are constant time in their secret inputs.
 * Additions handle every special case (infinity, P = Q, P = −Q). */

#define PD_AFF_T PD_(affine_t)
#define PD_JAC_T PD_(jac_t)
#define PD_XYZZ_T PD_(xyzz_t)

typedef struct PD_(affine) {
    PD_FE_T x, y;
    bool infinity;
} PD_(affine_t);

typedef struct PD_(jac) {
    PD_FE_T x, y, z;
} PD_(jac_t);

typedef struct PD_(xyzz) {
    PD_FE_T x, y, zz, zzz;
} PD_(xyzz_t);

/* affine */
void PD_(affine_set_infinity)(PD_AFF_T *r);
bool PD_(affine_eq)(const PD_AFF_T *a, const PD_AFF_T *b);
void PD_(affine_neg)(PD_AFF_T *r, const PD_AFF_T *a);
bool PD_(affine_is_on_curve)(const PD_AFF_T *a);

/* Jacobian */
void PD_(jac_set_infinity)(PD_JAC_T *r);
bool PD_(jac_is_infinity)(const PD_JAC_T *a);
void PD_(jac_from_affine)(PD_JAC_T *r, const PD_AFF_T *a);
void PD_(jac_to_affine)(PD_AFF_T *r, const PD_JAC_T *a);
/* One shared inversion (Montgomery's trick) for n points; public data only. */
void PD_(jac_batch_to_affine)(PD_AFF_T *out, const PD_JAC_T *in, size_t n);
bool PD_(jac_eq)(const PD_JAC_T *a, const PD_JAC_T *b);
void PD_(jac_neg)(PD_JAC_T *r, const PD_JAC_T *a);
void PD_(jac_dbl)(PD_JAC_T *r, const PD_JAC_T *a);
void PD_(jac_add)(PD_JAC_T *r, const PD_JAC_T *a, const PD_JAC_T *b);
void PD_(jac_add_mixed)(PD_JAC_T *r, const PD_JAC_T *a, const PD_AFF_T *b);
/* Variable time (branches on infinity, P = Q, P = −Q; add-2007-bl and
 * madd-2007-bl, one multiplication cheaper each), for public points. */
void PD_(jac_add_var)(PD_JAC_T *r, const PD_JAC_T *a, const PD_JAC_T *b);
void PD_(jac_add_mixed_var)(PD_JAC_T *r, const PD_JAC_T *a, const PD_AFF_T *b);

/* XYZZ */
void PD_(xyzz_set_infinity)(PD_XYZZ_T *r);
bool PD_(xyzz_is_infinity)(const PD_XYZZ_T *a);
void PD_(xyzz_from_affine)(PD_XYZZ_T *r, const PD_AFF_T *a);
void PD_(xyzz_to_jac)(PD_JAC_T *r, const PD_XYZZ_T *a);
void PD_(xyzz_to_affine)(PD_AFF_T *r, const PD_XYZZ_T *a);
void PD_(xyzz_dbl)(PD_XYZZ_T *r, const PD_XYZZ_T *a);
void PD_(xyzz_add)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_XYZZ_T *b);
void PD_(xyzz_add_mixed)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_AFF_T *b);
/* r = a − b (adds the negated affine point; MSM signed digits). */
void PD_(xyzz_sub_mixed)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_AFF_T *b);
/* Variable time (branches on the special cases; add-2008-s and
 * madd-2008-s, one squaring cheaper each): the MSM bucket additions. */
void PD_(xyzz_add_var)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_XYZZ_T *b);
void PD_(xyzz_add_mixed_var)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_AFF_T *b);
void PD_(xyzz_sub_mixed_var)(PD_XYZZ_T *r, const PD_XYZZ_T *a, const PD_AFF_T *b);

/* Scalar multiplication by a 256-bit scalar k (little-endian 64-bit limbs,
 * any value, not reduced mod r). jac_mul: constant time (fixed window,
 * masked table lookups), for secret scalars. jac_mul_var: windowed
 * signed-digit (wNAF), for public scalars. */
void PD_(jac_mul)(PD_JAC_T *r, const PD_JAC_T *p, const uint64_t k[4]);
void PD_(jac_mul_var)(PD_JAC_T *r, const PD_JAC_T *p, const uint64_t k[4]);

#undef PD_AFF_T
#undef PD_JAC_T
#undef PD_XYZZ_T
#undef PD_
#undef PD_FE_T
