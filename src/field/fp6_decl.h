/* The Fp6 declarations of a tower (fp6.h for BLS12-381, bn254_tower.h for
 * BN254), written once; no include guard. The names come from a
 * tower_names_*.h included before it. */

typedef struct F6_TAG {
    F2_T c0, c1, c2;
} F6_T;

extern const F6_T F6_ZERO;
extern const F6_T F6_ONE;

void F6_(add)(F6_T *r, const F6_T *a, const F6_T *b);
void F6_(sub)(F6_T *r, const F6_T *a, const F6_T *b);
void F6_(neg)(F6_T *r, const F6_T *a);
void F6_(dbl)(F6_T *r, const F6_T *a);
void F6_(mul)(F6_T *r, const F6_T *a, const F6_T *b);
void F6_(sqr)(F6_T *r, const F6_T *a);
void F6_(inv)(F6_T *r, const F6_T *a);
/* r = a · v (the non-residue that defines Fp12). */
void F6_(mul_by_v)(F6_T *r, const F6_T *a);
/* Sparse products for the Miller loop's lines:
 *   F6_(mul_by_01): b = b0 + b1·v;   F6_(mul_by_1): b = b1·v. */
void F6_(mul_by_01)(F6_T *r, const F6_T *a, const F2_T *b0, const F2_T *b1);
void F6_(mul_by_1)(F6_T *r, const F6_T *a, const F2_T *b1);
void F6_(mul_fp2)(F6_T *r, const F6_T *a, const F2_T *b);
/* r = a^(p^k); k = 1, 2, 3 directly, larger k by composition
 * (F12_(frobenius).c). */
void F6_(frobenius)(F6_T *r, const F6_T *a, unsigned k);

bool F6_(eq)(const F6_T *a, const F6_T *b);
bool F6_(is_zero)(const F6_T *a);
bool F6_(is_one)(const F6_T *a);
void F6_(cmov)(F6_T *r, const F6_T *a, bool flag);
void F6_(random)(F6_T *r, rng_t *rng);
