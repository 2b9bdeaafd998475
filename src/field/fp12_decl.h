/* The Fp12 declarations of a tower (fp12.h for BLS12-381, bn254_tower.h for
 * BN254), written once; no include guard. The names come from a
 * tower_names_*.h included before it. */

typedef struct F12_TAG {
    F6_T c0, c1;
} F12_T;

extern const F12_T F12_ONE;

void F12_(add)(F12_T *r, const F12_T *a, const F12_T *b);
void F12_(sub)(F12_T *r, const F12_T *a, const F12_T *b);
void F12_(neg)(F12_T *r, const F12_T *a);
void F12_(mul)(F12_T *r, const F12_T *a, const F12_T *b);
void F12_(sqr)(F12_T *r, const F12_T *a);
void F12_(inv)(F12_T *r, const F12_T *a);
/* r = c0 − c1·w = a^(p^6); the inverse for elements of the cyclotomic subgroup. */
void F12_(conj)(F12_T *r, const F12_T *a);
void F12_(pow_var)(F12_T *r, const F12_T *a, const uint64_t *e, size_t e_limbs);

/* Sparse product by a Miller-loop line l0 + l1·v + l4·v·w, the shape of a
 * line of the M-type twist evaluated at a G1 point (fp12 coefficients 0, 1
 * and 4 in the order c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). */
void F12_(mul_by_014)(F12_T *r, const F12_T *a, const F2_T *l0, const F2_T *l1, const F2_T *l4);
/* The same for a line l0 + l3·w + l4·v·w of the D-type twist (BN254):
 * coefficients 0, 3 and 4. */
void F12_(mul_by_034)(F12_T *r, const F12_T *a, const F2_T *l0, const F2_T *l3, const F2_T *l4);

/* Frobenius maps: r = a^(p^k); k = 1, 2, 3 directly, larger k by
 * composition (F12_(frobenius).c). */
void F12_(frobenius)(F12_T *r, const F12_T *a, unsigned k);

/* Cyclotomic subgroup (elements with a^(p^6 + 1) = 1 and a^(p^4 − p^2 + 1)
 * = 1, e.g. after the easy part of the final exponentiation;
 * F12_(cyclotomic).c). Results are unspecified for other inputs. */
/* r = f^((p^6 − 1)(p^2 + 1)), the easy part of the final exponentiation,
 * which lands in the cyclotomic subgroup (f ≠ 0). */
void F12_(final_exp_easy)(F12_T *r, const F12_T *f);
void F12_(cyclotomic_sqr)(F12_T *r, const F12_T *a);
/* r = a^x for the curve parameter x (BLS12-381: x = −0xd201000000010000,
 * BN254: x = 0x44e992b44a6909f1). */
void F12_(cyclotomic_exp_x)(F12_T *r, const F12_T *a);
/* r = a^e, e given as little-endian limbs; variable time in e. */
void F12_(cyclotomic_pow_var)(F12_T *r, const F12_T *a, const uint64_t *e, size_t e_limbs);

bool F12_(eq)(const F12_T *a, const F12_T *b);
bool F12_(is_one)(const F12_T *a);
bool F12_(is_zero)(const F12_T *a);
void F12_(cmov)(F12_T *r, const F12_T *a, bool flag);

/* 576-byte big-endian encoding (the GT format of the key files). The decoder
 * rejects coefficients >= p; it does not check membership in GT. */
void F12_(to_bytes_be)(uint8_t out[F12_BYTES], const F12_T *a);
bool F12_(from_bytes_be)(F12_T *r, const uint8_t in[F12_BYTES]);

void F12_(random)(F12_T *r, rng_t *rng);
