#ifndef CUZK_FORMATS_ZKEY_H
#define CUZK_FORMATS_ZKEY_H

/* snarkjs Groth16 proving keys (.zkey: iden3 container "zkey", version 1)
 * over BLS12-381 or BN254 (snarkjs's "bn128"): the primes of the header
 * name the curve (zkey_t.curve). Sections, as snarkjs 0.7.6 writes them:
 *
 *   1 protocol:   u32 (1 = Groth16; 2 PLONK and 10 FFLONK are refused)
 *   2 header:     u32 n8q (48; 32 for BN254), q[n8q], u32 n8r (32), r[n8r], u32 nVars,
 *                 u32 nPublic (ONE excluded), u32 domainSize, then alpha1,
 *                 beta1 (G1), beta2, gamma2 (G2), delta1 (G1), delta2 (G2)
 *   3 IC:         nPublic + 1 G1
 *   4 coeffs:     u32 n, n × {u32 matrix (0 = A, 1 = B), u32 row, u32
 *                 signal, value[n8r]}
 *   5 A, 6 B1:    nVars G1 each;   7 B2: nVars G2
 *   8 C:          nVars − nPublic − 1 G1 (signals nPublic + 1 ..)
 *   9 H:          domainSize G1
 *   10 contributions (not read)
 *
 * Points are affine, each coordinate an element of Fq in Montgomery form
 * (x·2^384 mod q; x·2^256 for BN254) as n8q little-endian bytes: the same
 * value the Fp code keeps in its limbs, so decoding is a range check and a
 * copy. G1 = x ‖ y;
 * G2 = x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 (c0 + c1·u). The point at infinity is all
 * zero bytes (it is frequent in A, B1, B2: signals absent from a matrix).
 *
 * Coefficient values are stored as v·2^512 mod r (the Montgomery form of
 * the Montgomery form of v, R = 2^256); zkey_decode_coeffs returns v
 * itself, an element of the key's scalar field (BN254's in fr_t slots,
 * field/scalar_slots.h). The rows are the constraints in .r1cs order (per constraint, its
 * A terms then its B terms) followed by nPublic + 1 rows with A = 1 on
 * signal i (i = 0..nPublic), snarkjs's rows that make the public inputs
 * binding; C has no entries: snarkjs computes c = a·b row by row.
 *
 * The key is mapped, not copied: the large sections are decoded on demand
 * into the caller's arrays, with the functions of the key's curve
 * (zkey_decode_g1 / _g2 for BLS12-381, bn254_zkey_decode_g1 / _g2 for
 * BN254; the others refuse it). A prime of neither curve is refused naming
 * the file and the prime. formats/zkey_write.h writes keys of both curves. */

#include <stdint.h>

#include "curve/curve_id.h"
#include "field/fr.h"
#include "formats/common.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

typedef enum zkey_points {
    ZKEY_POINTS_A = 0,  /* section 5, G1 */
    ZKEY_POINTS_B1 = 1, /* section 6, G1 */
    ZKEY_POINTS_B2 = 2, /* section 7, G2 */
    ZKEY_POINTS_C = 3,  /* section 8, G1 */
    ZKEY_POINTS_H = 4,  /* section 9, G1 */
    ZKEY_POINTS_COUNT = 5,
} zkey_points;

typedef struct zkey {
    mapped_file_t file;
    curve_id curve;       /* from the header's primes */
    uint32_t n8q;         /* bytes of a base-field coordinate: 48, or 32 for BN254 */
    uint32_t num_vars;    /* all signals, ONE included (.r1cs nWires) */
    uint32_t num_public;  /* public outputs and inputs, ONE excluded */
    uint32_t domain_size; /* a power of two */
    /* alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 and the
     * num_public + 1 IC points, decoded at open (the ic array is owned):
     * vk for a BLS12-381 key, bn254_vk for a BN254 one. */
    union {
        groth16_vk_t vk;
        bn254_groth16_vk_t bn254_vk;
    };
    uint32_t num_coeffs;
    const uint8_t *coeffs; /* num_coeffs records of 44 bytes, in the mapping */
    const uint8_t *points[ZKEY_POINTS_COUNT];
    uint64_t num_points[ZKEY_POINTS_COUNT];
} zkey_t;

#define ZKEY_COEFF_BYTES 44u /* matrix, row, signal, value[32] */

/* Maps the key and checks the section table, the curve, every section's
 * size against nVars / nPublic / domainSize, and decodes the verifying-key
 * points and IC with the given check. */
cuzk_status zkey_open(zkey_t *z, const char *path, formats_check check, char *msg, size_t msg_len);
cuzk_status zkey_open_buffer(zkey_t *z, const void *data, size_t size, const char *name,
                             formats_check check, char *msg, size_t msg_len);
void zkey_close(zkey_t *z);

/* out[i] = point start + i of a G1 section (A, B1, C, H), on up to
 * `threads` threads (0: all CPUs). On failure the message names the first
 * bad point. */
cuzk_status zkey_decode_g1(g1_affine_t *out, const zkey_t *z, zkey_points which, uint64_t start,
                           uint64_t count, formats_check check, unsigned threads, char *msg,
                           size_t msg_len);
/* out[i] = point start + i of B2. */
cuzk_status zkey_decode_g2(g2_affine_t *out, const zkey_t *z, uint64_t start, uint64_t count,
                           formats_check check, unsigned threads, char *msg, size_t msg_len);

/* The same for a BN254 key (its points are always checked on the curve;
 * FORMATS_CHECK_SUBGROUP adds G2's subgroup check, G1's cofactor is 1). */
cuzk_status bn254_zkey_decode_g1(bn254_g1_affine_t *out, const zkey_t *z, zkey_points which,
                                 uint64_t start, uint64_t count, formats_check check,
                                 unsigned threads, char *msg, size_t msg_len);
cuzk_status bn254_zkey_decode_g2(bn254_g2_affine_t *out, const zkey_t *z, uint64_t start,
                                 uint64_t count, formats_check check, unsigned threads, char *msg,
                                 size_t msg_len);

/* All num_coeffs entries of the A and B matrices, each checked (matrix 0
 * or 1, row < domain_size, signal < num_vars, value < r), as the
 * coordinates r1cs_from_entries compiles. */
cuzk_status zkey_decode_coeffs(r1cs_entry *out, const zkey_t *z, unsigned threads, char *msg,
                               size_t msg_len);

#endif
