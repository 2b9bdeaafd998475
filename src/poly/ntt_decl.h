/* The NTT functions of one scalar field (ntt.h describes them), declared
 * once for BLS12-381's Fr (ntt.h: ntt_transform, ...) and BN254's
 * (bn254_ntt.h: bn254_ntt_transform, ...). No include guard: each header
 * includes it after ntt.h's common part, after defining
 *   ND_(name)    the names (ntt_##name)
 *   ND_FE_T      the field's element type
 *   ND_DOMAIN_T  its domain type
 * The macros are undefined at the end. */

/* The full transform: a has d->n elements. */
void ND_(transform)(ND_FE_T *a, const ND_DOMAIN_T *d, ntt_order order, ntt_direction dir,
                    ntt_coset coset, unsigned threads);

/* The same with an arbitrary nonzero coset shift s: forward evaluates at
 * s w^i, inverse maps such evaluations back to coefficients. shift NULL is
 * the standard transform. */
void ND_(transform_shift)(ND_FE_T *a, const ND_DOMAIN_T *d, ntt_order order, ntt_direction dir,
                          const ND_FE_T *shift, unsigned threads);

/* Bit-reversal permutation of a[0 .. n), n a power of two: a[i] <-> a[brv(i)]. */
void ND_(bit_reverse)(ND_FE_T *a, size_t n, unsigned threads);

/* Building blocks for fused pipelines (poly_h.c), without the 1/n scaling
 * and without any coset:
 *  ntt_raw_nr: natural -> bit-reversed, Cooley-Tukey butterflies;
 *  ntt_raw_rn: bit-reversed -> natural, Gentleman-Sande butterflies.
 * NTT_INVERSE uses w^-1, so ntt_raw_rn(INVERSE) after ntt_raw_nr(FORWARD)
 * multiplies the input by n. */
void ND_(raw_nr)(ND_FE_T *a, const ND_DOMAIN_T *d, ntt_direction dir, unsigned threads);
void ND_(raw_rn)(ND_FE_T *a, const ND_DOMAIN_T *d, ntt_direction dir, unsigned threads);

/* a[pos(i)] *= start * ratio^i for i < n, pos(i) = i (NTT_NATURAL) or
 * brv(i) (NTT_BIT_REVERSED); n a power of two. One pass: the coset shift
 * and the 1/n scaling folded together. */
void ND_(scale_powers)(ND_FE_T *a, size_t n, ntt_layout layout, const ND_FE_T *start,
                       const ND_FE_T *ratio, unsigned threads);

#undef ND_
#undef ND_FE_T
#undef ND_DOMAIN_T
