#ifndef CUZK_FORMATS_ZKEY_WRITE_H
#define CUZK_FORMATS_ZKEY_WRITE_H

/* Writing snarkjs Groth16 proving keys (.zkey) over BLS12-381 or BN254
 * (snarkjs's bn128; the curve is the .r1cs file's), in the layout
 * formats/zkey.h describes and zkey_open reads back. Sections go in the
 * order 1 to 10, as `snarkjs zkey contribute` writes them:
 *   1 protocol 1 (Groth16);
 *   2 the header: n8q (48 for BLS12-381, 32 for BN254), q, n8r = 32, r,
 *     nVars, nPublic, domainSize, α1, β1, β2, γ2, δ1, δ2;
 *   3 IC;
 *   4 the coefficients, from the circuit's .r1cs file: per constraint its
 *     A terms, then its B terms, in the file's order, then nPublic + 1 rows
 *     nConstraints + i with A = 1 on signal i; each value v stored as
 *     v·2^512 mod r (snarkjs src/zkey_new.js, processConstraints and
 *     writeCoef: v·R² with R = 2^256);
 *   5 A, 6 B1, 7 B2, 8 C, 9 H: the points as the caller hands them over;
 *   10 contributions: csHash (64 bytes) and a count of 0 (snarkjs
 *     src/zkey_utils.js, readMPCParams). csHash is snarkjs's hash of the
 *     key before any contribution (δ = 1), which only `snarkjs zkey
 *     verify` recomputes from a powers-of-tau file; a key made from toxic
 *     waste never had that form, so it is left zero.
 * Points are affine with Montgomery-form coordinates (x·2^384 mod q, or
 * x·2^256 for BN254, as snarkjs writes them for bls12381 and bn128),
 * infinity all zero.
 * The file is written to "<path>.tmp" and renamed when complete. */

#include <stdint.h>

#include "formats/common.h"
#include "formats/zkey.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

typedef struct zkey_writer {
    formats_out out;
    curve_id curve; /* the .r1cs file's: the type of the points given */
    uint32_t n8q;   /* bytes of a coordinate: 48, or 32 for BN254 */
    uint32_t num_vars, num_public, domain_size;
    int section;      /* the point section being written (zkey_points), −1 before A */
    uint64_t written; /* its points so far */
    uint8_t *buf;     /* encoding buffer */
} zkey_writer;

/* Creates the file and writes sections 1 to 4 for the circuit of the
 * .r1cs file r1cs (mapped; nVars, nPublic and the coefficients come from
 * it) with the verifying key vk (vk->num_ic = nPublic + 1). domain_size: a
 * power of two above nConstraints + nPublic. The _bn254 form takes a
 * BN254 key for a bn128 .r1cs; a .r1cs of the other curve is
 * CUZK_ERR_INVALID_ARGUMENT. */
cuzk_status zkey_writer_open(zkey_writer *w, const char *path, const mapped_file_t *r1cs,
                             uint32_t domain_size, const groth16_vk_t *vk, char *msg,
                             size_t msg_len);
cuzk_status zkey_writer_open_bn254(zkey_writer *w, const char *path, const mapped_file_t *r1cs,
                                   uint32_t domain_size, const bn254_groth16_vk_t *vk, char *msg,
                                   size_t msg_len);

/* Appends count points (g1_affine_t, or g2_affine_t for B2; for BN254
 * bn254_g1_affine_t and bn254_g2_affine_t) to section which: sections in
 * the order A, B1, B2, C, H, each filled before the next starts (a section
 * left behind must be complete). */
cuzk_status zkey_writer_points(zkey_writer *w, zkey_points which, const void *points,
                               uint64_t count, char *msg, size_t msg_len);

/* When st is CUZK_OK: checks that every point section is complete, writes
 * section 10 and renames the file into place. Otherwise (or when that
 * fails) removes the temporary file. Returns the final status; safe after
 * a failed zkey_writer_open. */
cuzk_status zkey_writer_finish(zkey_writer *w, cuzk_status st, char *msg, size_t msg_len);

/* A development key for the circuit of the .r1cs file r1cs (mapped), r
 * being its constraint system (circom_r1cs_parse of the same file), made by
 * groth16_zkey_setup_dev (NOT FOR PRODUCTION) and written to path as it is
 * made; over the file's curve (opts->fixed_base must be NULL for BN254:
 * groth16_zkey_setup_dev). */
cuzk_status zkey_write_dev(const char *path, const mapped_file_t *r1cs, const r1cs_t *r, rng_t *rng,
                           const groth16_setup_opts *opts, char *msg, size_t msg_len);

#endif
