#ifndef CUZK_SERVICE_SNARKJS_VIEW_H
#define CUZK_SERVICE_SNARKJS_VIEW_H

/* A done job's result as snarkjs's files, the answer of
 * GET /v1/jobs/{id}/proof?format=snarkjs (docs/SERVICE.md):
 *
 *   {"id": "<32 hex digits>", "circuit": "chain",
 *    "partitions": [{"proof": PROOF, "public": PUBLIC}, ...]}
 *
 * one entry per partition in order; PROOF is exactly snarkjs's proof.json
 * (pi_a, pi_b, pi_c, "protocol": "groth16", "curve": "bls12381" or
 * "bn128", the job's circuit's) and
 * PUBLIC its public.json (the public signals as decimal strings), both as
 * formats/snarkjs_json.h writes them for `cuzk prove`. */

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/curve_id.h"
#include "field/fr.h"

/* proofs: num_parts × curve_proof_bytes(curve) bytes, as engine_job_proof
 * hands them out (BLS12-381: bellman's 192-byte layout; BN254:
 * formats/bn254_proof.h's 256); pub: num_parts × per_partition values of
 * curve's scalar field, partition-major (engine_job_public).
 * *out: a new reference. CUZK_ERR_OUT_OF_MEMORY, or the status of a proof
 * that does not decode (msg says which partition). */
cuzk_status view_snarkjs(json_t **out, const char *id, const char *circuit, curve_id curve,
                         const uint8_t *proofs, size_t num_parts, const fr_t *pub,
                         size_t per_partition, char *msg, size_t msg_len);

#endif
