/* The functions of a prime field (prime_field_impl.h), declared once for
 * every field of the library. No include guard: each field's header includes
 * it once, after <stdbool.h>, <stddef.h>, <stdint.h>, "util/rng.h" and its
 * element type, and after defining
 *   FD_(name)   field-level names:  FD_(mul) -> fp_mul
 *   FD_T, FD_LIMBS, FD_BYTES
 * and FD_BASE_FIELD for a base field (mul_small, is_lex_largest); the
 * macros are undefined at the end.
 *
 * Elements are in Montgomery form (a·R mod m, R = 2^(64·limbs)), fully
 * reduced (< m), as little-endian 64-bit limbs. All functions are constant
 * time unless their name ends in _var. Outputs come first and may alias
 * inputs. */

void FD_(add)(FD_T *r, const FD_T *a, const FD_T *b);
void FD_(sub)(FD_T *r, const FD_T *a, const FD_T *b);
void FD_(neg)(FD_T *r, const FD_T *a);
void FD_(dbl)(FD_T *r, const FD_T *a);
void FD_(mul)(FD_T *r, const FD_T *a, const FD_T *b);
void FD_(sqr)(FD_T *r, const FD_T *a);
#ifdef FD_BASE_FIELD
/* r = a * small integer (small additions chain; for curve formulas). */
void FD_(mul_small)(FD_T *r, const FD_T *a, unsigned k);
#endif

/* Inversion: constant time (Fermat); the inverse of 0 is 0. */
void FD_(inv)(FD_T *r, const FD_T *a);
/* Variable-time inversion (binary extended Euclid), for public data only. */
void FD_(inv_var)(FD_T *r, const FD_T *a);
/* Montgomery's trick: out[i] = 1/in[i] (zeros stay zero); out may equal in.
 * Variable time in which inputs are zero; public data only. */
void FD_(batch_inv_var)(FD_T *out, const FD_T *in, size_t n);

/* Square root: returns true and r with r² = a, or false (r unspecified)
 * when a is not a square. */
bool FD_(sqrt)(FD_T *r, const FD_T *a);
bool FD_(is_square)(const FD_T *a);

/* r = a^e, e given as little-endian 64-bit limbs; variable time in e. */
void FD_(pow_var)(FD_T *r, const FD_T *a, const uint64_t *e, size_t e_limbs);

bool FD_(eq)(const FD_T *a, const FD_T *b);
bool FD_(is_zero)(const FD_T *a);
bool FD_(is_one)(const FD_T *a);
#ifdef FD_BASE_FIELD
/* The ZCash "lexicographically largest" rule: a > (m-1)/2 as an integer. */
bool FD_(is_lex_largest)(const FD_T *a);
#endif
/* r = flag ? a : r, constant time. */
void FD_(cmov)(FD_T *r, const FD_T *a, bool flag);

void FD_(from_u64)(FD_T *r, uint64_t v);
/* Canonical integer limbs <-> Montgomery form. from_raw requires raw < m. */
void FD_(from_raw)(FD_T *r, const uint64_t raw[FD_LIMBS]);
void FD_(to_raw)(uint64_t raw[FD_LIMBS], const FD_T *a);

/* Canonical encodings of FD_BYTES bytes. The decoders reject values >= m
 * (return false). */
void FD_(to_bytes_be)(uint8_t out[FD_BYTES], const FD_T *a);
bool FD_(from_bytes_be)(FD_T *r, const uint8_t in[FD_BYTES]);
void FD_(to_bytes_le)(uint8_t out[FD_BYTES], const FD_T *a);
bool FD_(from_bytes_le)(FD_T *r, const uint8_t in[FD_BYTES]);

/* The Montgomery form's own limbs as FD_BYTES little-endian bytes, the
 * encoding of snarkjs's zkey files (a·R mod m, R = 2^(64·limbs)). The
 * decoder rejects limbs >= m. */
void FD_(to_mont_bytes_le)(uint8_t out[FD_BYTES], const FD_T *a);
bool FD_(from_mont_bytes_le)(FD_T *r, const uint8_t in[FD_BYTES]);

/* Uniform in [0, m), by rejection sampling. */
void FD_(random)(FD_T *r, rng_t *rng);

#undef FD_
#undef FD_T
#undef FD_LIMBS
#undef FD_BYTES
#undef FD_BASE_FIELD
