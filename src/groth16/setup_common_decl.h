/* The curve-dependent functions of setup_common.h, declared once for
 * BLS12-381 (setup_##name, over fr_t) and BN254 (bn254_setup_##name, over
 * bn254_fr_t); setup_common_impl.h implements them. No include guard:
 * setup_common.h includes it once per curve after defining
 *   SD_(name)  the names
 *   SD_FE_T    the scalar field's element type
 *   SD_VK_T    the curve's verifying key
 * which are undefined at the end. Over BN254, r's coefficient table holds
 * BN254's elements in fr_t slots (field/scalar_slots.h). */

/* A uniformly random nonzero element. */
void SD_(random_nonzero)(SD_FE_T *x, rng_t *rng);

/* col[j] += Σ_i M[i][j] · lagrange[i] over the rows of r: the column
 * polynomials of matrix m at τ, lagrange holding L_i(τ). On `threads`
 * threads, each owning a range of the aux columns (it scans every row and
 * sums the entries of its columns, so no two threads write one sum) and a
 * block of rows for the input columns (ONE is in about a third of B's rows:
 * one owner would do that third alone); the inputs' partial sums are added
 * at the end. Field addition is exact, so the result does not depend on
 * the thread count. */
void SD_(column_polys)(SD_FE_T *col, const r1cs_t *r, const r1cs_matrix *m, const SD_FE_T *lagrange,
                       unsigned threads);

/* out[j] = (β·u[j] + α·v[j] + w[j]) · factor for j < count: the IC and
 * L/C scalars (Groth 2016, §3.2: the public part over γ, the private part
 * over δ). On `threads` threads. */
void SD_(ic_like)(SD_FE_T *out, const SD_FE_T *u, const SD_FE_T *v, const SD_FE_T *w,
                  uint64_t count, const SD_FE_T *alpha, const SD_FE_T *beta, const SD_FE_T *factor,
                  unsigned threads);

/* vk's α1, β1, β2, γ2, δ1, δ2 (not IC) from the toxic waste. */
void SD_(vk_points)(SD_VK_T *vk, const SD_FE_T *alpha, const SD_FE_T *beta, const SD_FE_T *gamma,
                    const SD_FE_T *delta);

#undef SD_
#undef SD_FE_T
#undef SD_VK_T
