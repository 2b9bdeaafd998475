/* The MSM functions of one group, over its curve's scalar field (msm.h
 * describes the algorithm, its inputs and its statuses). No include guard:
 * msm.h (BLS12-381's G1, G2) and bn254_msm.h include it once per group
 * after defining
 *   MD_(suffix)  the names (msm_g1##suffix)
 *   MD_AFF, MD_JAC  the point types
 *   MD_SC_T  the scalar field's element type (Montgomery form) */

/* Plain Pippenger over n (point, scalar) pairs. */
cuzk_status MD_()(MD_JAC *out, const MD_AFF *points, const MD_SC_T *scalars, size_t n,
                  unsigned threads);

/* The same with canonical integer scalars (to_raw form, each < r): no
 * conversion pass and no scalar copy. */
cuzk_status MD_(_raw)(MD_JAC *out, const MD_AFF *points, const uint64_t (*scalars)[4], size_t n,
                      unsigned threads);

/* Witness-shaped scalars (mostly 0 and 1, as in bellman's prover): a zero
 * drops its point, so does a point at infinity (proving keys hold many),
 * the points whose scalar is one are summed by plain
 * mixed additions (multi-threaded), and Pippenger runs only over the rest,
 * compacted. Same result as the plain MSM. */
cuzk_status MD_(_split)(MD_JAC *out, const MD_AFF *points, const MD_SC_T *scalars, size_t n,
                        unsigned threads);

/* The split MSM over a density-filtered query (bellman's multiexp with a
 * DensityTracker): scalars[0..n_scalars) are the values of all variables,
 * points[0..n_points) only those of the variables whose bit is set in
 * density_bits (the layout of r1cs/density.h: bit i is word i/64, bit
 * i%64): point j belongs to the j-th set bit. The popcount of the first
 * n_scalars bits must equal n_points. density_bits = NULL means every
 * variable has a point (n_points = n_scalars): the split MSM. */
cuzk_status MD_(_dense)(MD_JAC *out, const MD_AFF *points, size_t n_points, const MD_SC_T *scalars,
                        size_t n_scalars, const uint64_t *density_bits, unsigned threads);

/* The raw MSM with the window size fixed to c bits (4 <= c <= 20), instead
 * of the one the cost model picks: for tests and window-size measurements. */
cuzk_status MD_(_raw_window)(MD_JAC *out, const MD_AFF *points, const uint64_t (*scalars)[4],
                             size_t n, unsigned threads, unsigned c);

/* The raw MSM run as tuning says (msm_tuning, msm.h). */
cuzk_status MD_(_raw_tuned)(MD_JAC *out, const MD_AFF *points, const uint64_t (*scalars)[4],
                            size_t n, unsigned threads, const msm_tuning *tuning);

/* The window size the cost model picks for n points on `threads` threads
 * (that of the 2n split points where the endomorphism split is used). */
unsigned MD_(_window_bits)(size_t n, unsigned threads);

#undef MD_
#undef MD_AFF
#undef MD_JAC
#undef MD_SC_T
