#ifndef CUZK_FORMATS_BN254_PROOF_H
#define CUZK_FORMATS_BN254_PROOF_H

/* A BN254 Groth16 proof as bytes: A ‖ B ‖ C, each uncompressed as
 * bn254_curve.h encodes it (big-endian coordinates in snarkjs's order, the
 * point at infinity all zeros): 64 + 128 + 64 bytes. The form in which the
 * engine hands out a BN254 circuit's proofs (engine_job_proof), as
 * bellman_proof_encode's 192 bytes for BLS12-381. */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/curve_id.h"
#include "groth16/bn254_groth16.h"

#define BN254_PROOF_BYTES (2 * BN254_G1_BYTES + BN254_G2_BYTES)

void bn254_proof_encode(uint8_t out[BN254_PROOF_BYTES], const bn254_groth16_proof_t *proof);
/* Decodes and checks each point: on its curve and, for B, in the order-r
 * subgroup (proofs may come from elsewhere); msg names the failing point. */
cuzk_status bn254_proof_decode(bn254_groth16_proof_t *out, const uint8_t in[BN254_PROOF_BYTES],
                               char *msg, size_t msg_len);

/* The bytes of one proof of a curve: bellman's 192 for BLS12-381,
 * BN254_PROOF_BYTES for BN254. */
size_t curve_proof_bytes(curve_id curve);
#define CURVE_PROOF_MAX_BYTES BN254_PROOF_BYTES

#endif
