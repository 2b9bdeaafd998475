/* The quotient functions of one scalar field (quotient.h describes them),
 * declared once for BLS12-381's Fr (quotient.h: poly_compute_h, ...) and
 * BN254's (bn254_quotient.h: bn254_poly_compute_h, ...). No include guard:
 * each header includes it after quotient.h's common part, after defining
 *   QD_(name)    the names (poly_##name)
 *   QD_FE_T      the field's element type
 *   QD_DOMAIN_T  its domain type
 * The macros are undefined at the end. */

/* Computes the coefficients of h.
 * In:  a, b, c: d->n-element buffers whose first m entries hold the
 *      evaluations of A w, B w, C w on the domain, natural order; entries
 *      [m, n) are ignored (treated as zero: they are cleared here).
 * Out: a = h_0 .. h_{n-1} in natural order. The prover uses h_0 .. h_{n-2};
 *      h_{n-1} is zero for a satisfied system (h_top_is_zero).
 *      b and c are clobbered (used as scratch). Nothing is allocated.
 * Returns CUZK_OK, or CUZK_ERR_INVALID_ARGUMENT when m > n or the 2n-th
 * root coset is asked of the largest domain (2^32, 2^28 for BN254). */
cuzk_status QD_(compute_h)(QD_FE_T *a, QD_FE_T *b, QD_FE_T *c, size_t m, const QD_DOMAIN_T *d,
                           poly_h_coset coset, unsigned threads);

/* The first half of poly_compute_h: a_i = a(s w^i) b(s w^i) - c(s w^i) for
 * i < n, natural order, not divided by Z. snarkjs's prover multiplies these
 * directly with the zkey's H points. Same buffers and returns as above. */
cuzk_status QD_(h_coset_evals)(QD_FE_T *a, QD_FE_T *b, QD_FE_T *c, size_t m, const QD_DOMAIN_T *d,
                               poly_h_coset coset, unsigned threads);

/* True when h_{n-1} = 0. Necessary for a satisfied system, not sufficient:
 * the computed h_{n-1} equals (1/(n Z)) sum_i e_i w^i, e_i = a_i b_i - c_i,
 * so one violated constraint always shows, but several can cancel. */
bool QD_(h_top_is_zero)(const QD_FE_T *h, const QD_DOMAIN_T *d);

#undef QD_
#undef QD_FE_T
#undef QD_DOMAIN_T
