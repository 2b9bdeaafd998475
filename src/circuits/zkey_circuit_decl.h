/* The zkey circuit of one curve (zkey.h describes it), declared for
 * BLS12-381 (zkey_circuit_t, zkey_circuit_init, ...) and BN254
 * (bn254_zkey_circuit_t, bn254_zkey_circuit_init, ...). No include guard:
 * zkey.h includes it once per curve after defining
 *   ZD_(name)   the names (zkey_circuit_##name; the type ZD_(t))
 *   ZD_G1, ZD_G2, ZD_FR_T, ZD_DOMAIN_T, ZD_PROOF_T   the curve's types
 * zkey_circuit_undef.h undefines them. */

/* A key decoded for proving and kept resident: the constraint system, the
 * five point sections, the domain and the plan over them. The zkey stays
 * mapped (borrowed). C lies right after H in one allocation
 * (c == h + domain_size), so the plan's H-and-C MSM is one run. */
typedef struct ZD_(s) {
    const zkey_t *zkey;
    r1cs_t cs; /* A and B; C has no entries (c = a·b) */
    ZD_G1 *a, *b1, *c, *h;
    ZD_G2 *b2;
    /* A, B1, B2 without their points at infinity: the bitmaps over the
     * variables mark those with a point (NULL: none was at infinity, every
     * variable has one), *_points count them. */
    uint64_t *a_density, *b1_density, *b2_density;
    uint64_t a_points, b1_points, b2_points;
    ZD_DOMAIN_T domain;
    groth16_plan plan;
} ZD_(t);

/* Decodes z's sections with the given point check (FORMATS_CHECK_SUBGROUP
 * for keys from elsewhere) and compiles its coefficients. msg names the
 * section and entry or point on failure; a key of the other curve is
 * CUZK_ERR_INVALID_ARGUMENT. */
cuzk_status ZD_(init)(ZD_(t) * c, const zkey_t *z, formats_check check, unsigned threads,
                      char *msg, size_t msg_len);
void ZD_(free)(ZD_(t) * c);

/* Bytes of host memory the circuit holds (points, matrices, domain). */
uint64_t ZD_(bytes)(const ZD_(t) * c);

/* a, b, c (three domain-sized vectors in abc) for the witness w
 * (zkey->num_vars values, w[0] = 1), on `threads` threads. */
void ZD_(eval_abc)(const ZD_(t) * c, const ZD_FR_T *w, ZD_FR_T *abc, unsigned threads);

/* Bytes of scratch one proof needs: three domain-sized vectors. */
size_t ZD_(scratch_bytes)(const ZD_(t) * c);

/* Proves for the witness w (zkey->num_vars values, w[0] = 1, as a .wtns
 * holds them) with the blinding factors r, s given. */
cuzk_status ZD_(prove_with)(ZD_PROOF_T *proof, const ZD_(t) * c, const ZD_FR_T *w,
                            const ZD_FR_T *r, const ZD_FR_T *s, void *scratch, unsigned threads);
/* Same, r and s drawn from rng (use a secure one). */
cuzk_status ZD_(prove)(ZD_PROOF_T *proof, const ZD_(t) * c, const ZD_FR_T *w, rng_t *rng,
                       void *scratch, unsigned threads);
