/* The Fp2 declarations of a tower (fp2.h for BLS12-381, bn254_tower.h for
 * BN254), written once; no include guard. The names come from a
 * tower_names_*.h included before it. */

typedef struct F2_TAG {
    F1_T c0, c1;
} F2_T;

extern const F2_T F2_ZERO;
extern const F2_T F2_ONE;

void F2_(add)(F2_T *r, const F2_T *a, const F2_T *b);
void F2_(sub)(F2_T *r, const F2_T *a, const F2_T *b);
void F2_(neg)(F2_T *r, const F2_T *a);
void F2_(dbl)(F2_T *r, const F2_T *a);
void F2_(mul)(F2_T *r, const F2_T *a, const F2_T *b);
void F2_(sqr)(F2_T *r, const F2_T *a);
void F2_(mul_fp)(F2_T *r, const F2_T *a, const F1_T *b);
void F2_(mul_small)(F2_T *r, const F2_T *a, unsigned k);
/* r = a · ξ, the non-residue that defines Fp6 (BLS12-381: ξ = u + 1;
 * BN254: ξ = 9 + u). */
void F2_(mul_nonresidue)(F2_T *r, const F2_T *a);
/* r = c0 − c1·u, which is also the Frobenius map a^p. */
void F2_(conj)(F2_T *r, const F2_T *a);
void F2_(inv)(F2_T *r, const F2_T *a);
void F2_(inv_var)(F2_T *r, const F2_T *a);
void F2_(batch_inv_var)(F2_T *out, const F2_T *in, size_t n);
bool F2_(sqrt)(F2_T *r, const F2_T *a);
bool F2_(is_square)(const F2_T *a);
void F2_(pow_var)(F2_T *r, const F2_T *a, const uint64_t *e, size_t e_limbs);

bool F2_(eq)(const F2_T *a, const F2_T *b);
bool F2_(is_zero)(const F2_T *a);
bool F2_(is_one)(const F2_T *a);
/* ZCash rule for Fp2: compare c1 first; when c1 = 0 compare c0. */
bool F2_(is_lex_largest)(const F2_T *a);
void F2_(cmov)(F2_T *r, const F2_T *a, bool flag);

/* 96-byte big-endian encoding in ZCash order: c1 then c0. */
void F2_(to_bytes_be)(uint8_t out[2 * F1_BYTES], const F2_T *a);
bool F2_(from_bytes_be)(F2_T *r, const uint8_t in[2 * F1_BYTES]);

void F2_(random)(F2_T *r, rng_t *rng);
