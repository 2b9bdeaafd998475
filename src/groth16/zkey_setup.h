#ifndef CUZK_GROTH16_ZKEY_SETUP_H
#define CUZK_GROTH16_ZKEY_SETUP_H

/* Development proving keys in snarkjs's layout (the key `snarkjs zkey new`
 * and its contributions make for a circom circuit) from random toxic waste
 * τ, α, β, γ, δ.
 *
 * NOT FOR PRODUCTION. Whoever runs it knows the toxic waste while it runs
 * and could forge proofs; real keys come from a ceremony (a powers-of-tau
 * file and `snarkjs zkey contribute`). The toxic waste is wiped before
 * returning.
 *
 * The circuit is an r1cs_t numbered as circom_r1cs_load numbers a .r1cs:
 * column i is signal i, the inputs are ONE and the nPublic public signals.
 * With n the domain size (groth16_zkey_domain_size), L_j the Lagrange
 * basis of the n-th roots of unity at τ (snarkjs's roots, from 5:
 * poly/domain.h) and the column polynomials at τ
 *   u_i = Σ_j A[j][i]·L_j + (i ≤ nPublic ? L_{nConstraints+i} : 0)
 *   v_i = Σ_j B[j][i]·L_j,   w_i = Σ_j C[j][i]·L_j
 * (the extra L term: snarkjs's rows nConstraints + i with A = 1 on the
 * public signal i, which bind the public inputs), the key holds
 *   IC_i = (β·u_i + α·v_i + w_i)/γ · G1      i ≤ nPublic
 *   A_i = u_i·G1, B1_i = v_i·G1, B2_i = v_i·G2   every signal (the point at
 *                                           infinity where the column is empty)
 *   C_i = (β·u_i + α·v_i + w_i)/δ · G1      i > nPublic
 *   H_i = L^(2n)_{2i+1}(τ)/δ · G1            i < n
 * and α1, β1, β2, γ2, δ1, δ2 (Groth 2016, §3.2). H is snarkjs's: its prover
 * pairs H_i with (a·b − c)(ω_2n^(2i+1)), and since a·b − c vanishes on the
 * n-th roots and has degree < 2n, those values interpolate it, so
 * Σ_i (a·b − c)(ω_2n^(2i+1))·H_i = (a·b − c)(τ)/δ · G1 = h(τ)·Z(τ)/δ · G1
 * (snarkjs src/zkey_new.js, writeHs: the odd entries of the 2n-point
 * Lagrange section of a prepared powers-of-tau file, later divided by δ by
 * each contribution). snarkjs fixes γ = 1; here γ is random as in bellman,
 * which changes only γ2 and IC, both read from the key by verifiers.
 *
 * The curve is the constraint system's (r1cs_t.curve): BLS12-381, or BN254
 * (snarkjs's bn128), whose coefficients r holds in fr_t slots
 * (field/scalar_slots.h). One implementation serves both
 * (zkey_setup_impl.h, compiled once per curve); snarkjs's roots of unity
 * are 5^t for both fields. */

#include <stddef.h>
#include <stdint.h>

#include "curve/curve_id.h"
#include "cuzk/status.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* The point sections, in the order they are made (a .zkey's sections 5 to 9). */
typedef enum groth16_zkey_part {
    GROTH16_ZKEY_PART_A = 0, /* num_vars G1 */
    GROTH16_ZKEY_PART_B1,    /* num_vars G1 */
    GROTH16_ZKEY_PART_B2,    /* num_vars G2 */
    GROTH16_ZKEY_PART_C,     /* num_vars − num_public − 1 G1 */
    GROTH16_ZKEY_PART_H,     /* domain_size G1 */
    GROTH16_ZKEY_PART_COUNT
} groth16_zkey_part;

typedef struct groth16_zkey_shape {
    curve_id curve;       /* the circuit's: the types of the key's points */
    uint32_t num_vars;    /* signals, ONE included */
    uint32_t num_public;  /* public signals, ONE excluded */
    uint32_t domain_size; /* n */
} groth16_zkey_shape;

/* Where the key goes, as it is made: begin once (the verifying key with
 * its num_public + 1 IC points, valid during the call), then each part in
 * order A, B1, B2, C, H in consecutive chunks (g1_affine_t, or g2_affine_t
 * for B2; for a BN254 circuit bn254_g1_affine_t and bn254_g2_affine_t;
 * valid during the call); a part without points gets no call. A BN254
 * circuit's key begins with begin_bn254 instead of begin (NULL: such
 * circuits are refused). A status other than CUZK_OK stops the setup,
 * which returns it. */
typedef struct groth16_zkey_sink {
    cuzk_status (*begin)(void *ctx, const groth16_zkey_shape *shape, const groth16_vk_t *vk);
    cuzk_status (*begin_bn254)(void *ctx, const groth16_zkey_shape *shape,
                               const bn254_groth16_vk_t *vk);
    cuzk_status (*points)(void *ctx, groth16_zkey_part part, const void *points, size_t count);
    void *ctx;
} groth16_zkey_sink;

/* snarkjs's domain size for a circuit: 2^(⌊log2(nConstraints + nPublic)⌋ +
 * 1), the smallest power of two above nConstraints + nPublic (snarkjs
 * src/zkey_new.js, cirPower; log2(0) is 0 there, so at least 2). 0 when it
 * would pass 2^groth16_zkey_max_log_domain(curve). The _over form is for
 * the circuit's curve; the other BLS12-381's. */
uint64_t groth16_zkey_domain_size(uint64_t num_constraints, uint64_t num_public);
uint64_t groth16_zkey_domain_size_over(curve_id curve, uint64_t num_constraints,
                                       uint64_t num_public);

/* log2 of the largest domain of a key over curve: H needs the 2n-th roots
 * of unity, so one below the scalar field's two-adicity: 31 for BLS12-381
 * (also the largest power of two the file's u32 holds), 27 for BN254 (as
 * snarkjs, whose bn128 powers of tau stop at 2^28). */
unsigned groth16_zkey_max_log_domain(curve_id curve);

/* Makes the key of r, drawing the toxic waste from rng (use a secure one:
 * rng_seed_secure), and hands it to sink. Returns CUZK_OK, the sink's
 * status, CUZK_ERR_INVALID_ARGUMENT (no inputs), CUZK_ERR_UNSUPPORTED (more
 * than 2^32 − 1 signals, a domain over the curve's largest, or a BN254
 * circuit with opts->fixed_base or without the sink's begin_bn254: the
 * batches take BLS12-381's scalars and give its points) or
 * CUZK_ERR_OUT_OF_MEMORY. */
cuzk_status groth16_zkey_setup_dev(const r1cs_t *r, rng_t *rng, const groth16_setup_opts *opts,
                                   const groth16_zkey_sink *sink);

#endif
